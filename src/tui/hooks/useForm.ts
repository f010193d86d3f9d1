import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Key } from 'ink';
import type { JsonObject, Tool } from '../../protocol/types.js';
import { buildForm, formRows, formValueFromJson, toPointer, updateAt, type FormModel, type FormRow, type FormValue } from '../../schema/form.js';
import { formToArguments } from '../../schema/form-args.js';
import { useServices } from '../context/services.js';
import { formKey, formUiWithValue, initialFormUi, type FormAction, type FormUiState } from '../forms/formState.js';
import { stableKey } from '../model/stableKey.js';
import { useExternalEditor } from './useExternalEditor.js';
import { validateXMcpHeaders } from '../../protocol/xmcpheader.js';
import { HEADER } from '../../protocol/constants.js';

export interface FormProblems {
  /** Problems by the pointer of the row they belong to. */
  byRow: Map<string, string[]>;
  /** Problems that belong to no row (unknown arguments, schema errors…). */
  general: string[];
  count: number;
  /** Not problems, but worth saying: e.g. patterns that were not checked because they could backtrack catastrophically. */
  notes: string[];
}

export interface UseForm {
  model: FormModel;
  state: FormUiState;
  rows: FormRow[];
  /** The arguments the form currently represents. */
  args: JsonObject;
  /** The arguments as typed: a number or JSON field that does not parse is a string here (what "call anyway" sends). */
  typedArgs: JsonObject;
  problems: FormProblems;
  /** Applies a key; returns the action for Enter / Esc (the external editor is handled here). */
  onKey(input: string, key: Key): Exclude<FormAction, 'editor'> | undefined;
  /** Whether the input schema changed since the form was built (it was rebuilt). */
  rebuilt: boolean;
  /** Forgets the "rebuilt" notice (when the form is opened again). */
  clearRebuilt(): void;
  /** Replaces the text of the focused text field (a completion taken with Tab), cursor at the end. */
  setFocusedText(text: string): void;
  /**
   * The HTTP header each field is mirrored into (`x-mcp-header`), by row pointer:
   * `/region` → `Mcp-Param-Region`. Empty when the schema's annotations are invalid (such a
   * tool is left out of the list over HTTP) or none.
   */
  headers: ReadonlyMap<string, string>;
  /** Why the last key changed nothing (an external-editor error, a multi-select at its maxItems), until the next key. */
  notice?: string;
  /** Fills the form with `args` (a call of the History pane), as far as they fit the schema; the rest starts empty. */
  load(args: JsonObject): void;
}

/** The `Mcp-Param-*` header of each mirrored field, by the pointer of its row (see {@link UseForm.headers}). */
export function mirroredHeaders(inputSchema: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const v = validateXMcpHeaders(inputSchema);
  if (v.ok) for (const spec of v.specs) out.set(toPointer(spec.path), HEADER.paramPrefix + spec.header);
  return out;
}

/**
 * Groups validation problems by form row: each problem goes to the row whose pointer is the
 * longest prefix of the problem's path (a missing required argument goes to that argument's
 * row); problems with no row are "general".
 */
export function groupProblems(
  rows: readonly FormRow[],
  local: readonly { pointer: string; message: string }[],
  issues: readonly { path: string; argument?: string; keyword: string; message: string }[],
  schemaError?: string,
): FormProblems {
  const byRow = new Map<string, string[]>();
  const general: string[] = [];
  const pointers = new Set(rows.map((r) => r.pointer));
  const add = (pointer: string, message: string) => {
    let p = pointer;
    for (;;) {
      if (pointers.has(p)) {
        const list = byRow.get(p) ?? [];
        if (!list.includes(message)) list.push(message);
        byRow.set(p, list);
        return;
      }
      if (p === '') break;
      p = p.slice(0, p.lastIndexOf('/'));
    }
    if (!general.includes(message)) general.push(message);
  };
  for (const e of local) add(e.pointer, e.message);
  // A field that does not parse is left out of the arguments: the validator's "missing" for
  // it is the same problem again, counted once.
  const unparsed = new Set(local.map((e) => e.pointer));
  for (const e of issues) {
    if (e.keyword === 'required' && e.path === '' && e.argument !== undefined && unparsed.has(toPointer([e.argument]))) continue;
    if (e.keyword === 'required' && e.path === '' && e.argument !== undefined) add(toPointer([e.argument]), e.message);
    else if ((e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties') && e.path === '') general.push(e.message);
    else add(e.path, e.message);
  }
  if (schemaError) general.push(`inputSchema unusable: ${schemaError}`);
  let count = general.length;
  for (const l of byRow.values()) count += l.length;
  return { byRow, general, count, notes: [] };
}

/**
 * The last arguments of each tool, by tool name, with the schema content they were typed for:
 * a form reopened on the same schema starts from them. Held by the pane (one server, one session).
 */
export type FormMemory = Map<string, { key: string; value: FormValue }>;

/** The form as built: for which tool and schema content, its model, the edit state. */
interface Built {
  key: string;
  schema: Tool['inputSchema'];
  model: FormModel;
  state: FormUiState;
  rebuilt: boolean;
  name: string;
  notice?: string;
}

/**
 * State of the call form for `tool`: the form model of its `inputSchema` (src/schema/form.ts),
 * the edit state, the arguments it represents, and their problems (local parse errors plus Ajv
 * validation with validateValue, re-run as the user types). `open`: a form is on screen; when
 * false nothing is validated (no Ajv compile before the user opens a tool).
 */
export function useForm(tool: Tool, open = true, memory?: FormMemory): UseForm {
  const { validate } = useServices();
  const schemaKey = stableKey(tool.inputSchema);
  // List refreshes hand over new schema objects with the same content: the form is built
  // once per schema content (schemaKey), and `schema` is the object it was built from.
  const [built, setBuilt] = useState<Built>(() => {
    const model = buildForm(tool.inputSchema);
    return { key: schemaKey, schema: tool.inputSchema, model, state: initialFormUi(model), rebuilt: false, name: tool.name };
  });
  let current = built;
  if (built.key !== schemaKey || built.name !== tool.name) {
    // Another tool: a fresh form. The same tool with a new schema: rebuild the form, keeping
    // what the user entered wherever it still fits the new schema.
    const sameTool = built.name === tool.name;
    const sameSchema = built.key === schemaKey;
    const schema = sameSchema ? built.schema : tool.inputSchema;
    const model = sameSchema ? built.model : buildForm(schema);
    // Another tool opened before (this session, same schema): its last arguments come back.
    const kept = !sameTool ? memory?.get(tool.name) : undefined;
    const state = sameTool
      ? formUiWithValue(model, formValueFromJson(model.root, formToArguments(built.model, built.state.value).args))
      : kept && kept.key === schemaKey
        ? formUiWithValue(model, kept.value)
        : initialFormUi(model);
    current = { key: schemaKey, schema, model, state, rebuilt: sameTool, name: tool.name };
    setBuilt(current);
  }
  const { model, schema, state } = current;
  // What is typed is kept per tool for the session (Ctrl-R resets to the defaults, and that is kept too).
  useEffect(() => {
    if (open && current.name) memory?.set(current.name, { key: current.key, value: current.state.value });
  }, [memory, open, current.name, current.key, current.state.value]);
  const rows = useMemo(() => formRows(model.root, state.value), [model, state.value]);
  const { args, errors } = useMemo(() => formToArguments(model, state.value), [model, state.value]);
  const typedArgs = useMemo(() => (errors.length ? formToArguments(model, state.value, true).args : args), [model, state.value, errors, args]);
  const problems = useMemo(() => {
    // No form on screen (the placeholder before a tool is opened): no validator to compile (start-up cost).
    if (!open) return { byRow: new Map<string, string[]>(), general: [], count: 0, notes: [] };
    const v = validate(schema, args);
    const p = groupProblems(rows, errors, v.errors, v.schemaError);
    for (const pat of v.unenforcedPatterns ?? []) p.notes.push(`pattern ${JSON.stringify(pat)} not checked: it could take exponential time`);
    return p;
  }, [rows, args, errors, schema, validate, open]);

  const headers = useMemo(() => (open ? mirroredHeaders(schema) : new Map<string, string>()), [schema, open]);
  const editExternally = useExternalEditor();
  const onKey = useCallback(
    (input: string, key: Key): Exclude<FormAction, 'editor'> | undefined => {
      const r = formKey(model, current.state, input, key);
      if (r.action === 'editor') {
        // The focused string / JSON field, in $EDITOR; the text that comes back replaces it (cursor at the end).
        const row = formRows(model.root, current.state.value)[current.state.focus];
        if (!row || row.role !== 'field' || (row.node.kind !== 'string' && row.node.kind !== 'json')) return undefined;
        const before = row.value.kind === 'text' && !row.value.isNull ? row.value.text : '';
        const out = editExternally(before, { name: row.node.key || 'arguments', ext: row.node.kind === 'json' ? 'json' : 'txt' });
        if ('error' in out) {
          setBuilt((b) => ({ ...b, notice: `${out.error}: the field is unchanged` }));
          return undefined;
        }
        const value = updateAt(current.state.value, row.path, () => ({ kind: 'text', text: out.text }));
        setBuilt((b) => ({ ...b, notice: undefined, state: { ...b.state, value, cursor: [...out.text].length } }));
        return undefined;
      }
      if (r.state !== current.state || current.notice || r.notice) setBuilt((b) => ({ ...b, state: r.state, notice: r.notice }));
      return r.action;
    },
    [model, current.state, current.notice, editExternally],
  );

  const clearRebuilt = useCallback(() => setBuilt((b) => (b.rebuilt ? { ...b, rebuilt: false } : b)), []);

  const setFocusedText = useCallback(
    (text: string) =>
      setBuilt((b) => {
        const row = formRows(b.model.root, b.state.value)[b.state.focus];
        if (!row || row.role !== 'field' || (row.node.kind !== 'string' && row.node.kind !== 'number' && row.node.kind !== 'json')) return b;
        const value = updateAt(b.state.value, row.path, () => ({ kind: 'text', text }));
        return { ...b, state: { ...b.state, value, cursor: [...text].length } };
      }),
    [],
  );

  const load = useCallback(
    (json: JsonObject) => setBuilt((b) => ({ ...b, notice: undefined, state: formUiWithValue(b.model, formValueFromJson(b.model.root, json)) })),
    [],
  );

  return {
    load,
    model,
    state,
    rows,
    args: args,
    typedArgs: typedArgs,
    problems,
    onKey,
    rebuilt: current.rebuilt,
    clearRebuilt,
    setFocusedText,
    headers,
    notice: current.notice,
  };
}
