import { useMemo, useState } from 'react';
import type { Key } from 'ink';
import type { CompletionRef, InspectorClient } from '../../client/types.js';
import type { JsonObject, Tool } from '../../protocol/types.js';
import { formContexts } from '../forms/formState.js';
import { matchKey, type KeyContext } from '../keys.js';
import { useForm, type UseForm } from './useForm.js';
import { useCompletion, type Suggestions } from './useCompletion.js';

/** Suggestions shown under a field (and chosen among with ↑/↓). */
export const SHOWN_SUGGESTIONS = 5;

export interface UseArgsForm {
  form: UseForm;
  /** The server's suggestions for the focused field, not counting one equal to what is typed. */
  suggestions?: Suggestions;
  /** The suggestion ↑/↓ chose (Tab takes it): an index into `suggestions.values`. */
  chosen: number;
  contexts: KeyContext[];
  /**
   * Applies a key: Tab takes the first suggestion; Enter / Esc come back as actions. Enter
   * with problems (a missing required argument, an invalid value) is `confirm` the first time
   * and `submit` the second, as in the tool form: one rule for every form (issue 19.11).
   */
  onKey(input: string, key: Key): 'submit' | 'back' | 'confirm' | undefined;
  /** The second Enter sends despite problems. */
  confirmPending: boolean;
  /** The status-line text for `confirm`: `1 problem in the arguments — press Enter again to <what> anyway`. */
  confirmText(what: string): string;
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
  // ↑/↓ choose among the suggestions shown (as a shell's menu), for these suggestions only.
  const [choice, setChoice] = useState<{ of: Suggestions | undefined; index: number }>({ of: undefined, index: 0 });
  const shownN = Math.min(SHOWN_SUGGESTIONS, suggestions?.values.length ?? 0);
  const chosen = choice.of === raw && has ? Math.min(choice.index, shownN - 1) : 0;
  const contexts: KeyContext[] = [...(has ? (['completing'] as const) : []), 'args-form', ...formContexts(row)];
  const [armed, setArmed] = useState<string | undefined>(undefined);
  const confirmPending = armed === id;
  const n = form.problems.count;
  return {
    form,
    suggestions,
    chosen,
    contexts,
    confirmPending,
    confirmText: (what) => `${n} problem${n === 1 ? '' : 's'} in the arguments — press Enter again to ${what} anyway`,
    onKey(input, key) {
      const cm = has ? matchKey(input, key, ['completing']) : undefined;
      if (has && cm?.command === 'complete.take') {
        form.setFocusedText(suggestions.values[chosen]);
        return undefined;
      }
      if (has && cm?.command === 'complete.choose') {
        setChoice({ of: raw, index: (chosen + cm.arg + shownN) % shownN });
        return undefined;
      }
      const a = form.onKey(input, key);
      if (a === 'submit' && n > 0 && !confirmPending) {
        setArmed(id);
        return 'confirm';
      }
      if (armed !== undefined) setArmed(undefined);
      return a;
    },
  };
}
