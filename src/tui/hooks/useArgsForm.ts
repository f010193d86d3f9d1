import { useMemo } from 'react';
import type { Key } from 'ink';
import type { CompletionRef, InspectorClient } from '../../client/types.js';
import type { JsonObject, Tool } from '../../protocol/types.js';
import { formContexts } from '../forms/formState.js';
import { matchKey, type KeyContext } from '../keys.js';
import { useForm, type UseForm } from './useForm.js';
import { useCompletion, type Suggestions } from './useCompletion.js';

export interface UseArgsForm {
  form: UseForm;
  /** The server's suggestions for the focused field, not counting one equal to what is typed. */
  suggestions?: Suggestions;
  contexts: KeyContext[];
  /** Applies a key: Tab takes the first suggestion; Enter / Esc come back as actions. */
  onKey(input: string, key: Key): 'submit' | 'back' | undefined;
}

/**
 * A form of string arguments (a prompt's arguments, a template's variables) through the tool
 * form engine, with the server's completions under the focused field. `id` names the form:
 * another id starts a fresh form. `open`: the form is on screen; when false it is not
 * validated (no Ajv compile while the pane shows its list: start-up cost). spec: server/utilities/completion
 */
export function useArgsForm(client: InspectorClient, id: string, schema: JsonObject, ref: CompletionRef | undefined, open = true): UseArgsForm {
  const tool = useMemo<Tool>(() => ({ name: id, inputSchema: schema }), [id, schema]);
  const form = useForm(tool, open);
  const row = form.rows[form.state.focus];
  const field = row && row.role === 'field' && row.path.length === 1 && row.node.kind === 'string' ? String(row.path[0]) : undefined;
  const value = row && row.value.kind === 'text' ? row.value.text : '';
  const context = useMemo(() => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(form.args)) if (typeof v === 'string') out[k] = v;
    return out;
  }, [form.args]);
  const raw = useCompletion(client, ref, field, value, context);
  const suggestions = raw ? { ...raw, values: raw.values.filter((v) => v !== value) } : undefined;
  const has = !!suggestions && suggestions.values.length > 0;
  const contexts: KeyContext[] = [...(has ? (['completing'] as const) : []), 'args-form', ...formContexts(row)];
  return {
    form,
    suggestions,
    contexts,
    onKey(input, key) {
      if (has && matchKey(input, key, ['completing'])?.command === 'complete.take') {
        form.setFocusedText(suggestions.values[0]);
        return undefined;
      }
      return form.onKey(input, key);
    },
  };
}
