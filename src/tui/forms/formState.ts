/**
 * Keyboard behavior of the call form, as pure state transitions over the form model of
 * src/schema/form.ts. The component only draws; this decides what a key does.
 *
 * Keys (bound in the key table, src/tui/keys.ts): ↑/↓ field; text fields edit in place
 * (←/→, Home/End, Backspace, Ctrl-U, Ctrl-W); Space or ←/→ toggles a boolean / cycles a
 * choice; Space checks or unchecks the option of a multi-select under the cursor (each
 * option is a row: ↑/↓ move between them; checking beyond `maxItems` is refused with a
 * notice); on an array header `+`/`a` adds an item and `-`/`x` removes the last; Ctrl-D
 * removes the array item the focus is in; Ctrl-N sets or clears an explicit null on a
 * nullable field; Ctrl-R resets the form to its defaults; Enter submits; Esc goes back. String
 * and JSON fields hold several lines: Alt-Enter inserts a newline, a paste keeps its newlines,
 * Ctrl-O asks the caller to edit the field in `$EDITOR` (action `editor`).
 */
import type { Key } from 'ink';
import {
  addArrayItem,
  formRows,
  formValueFromJson,
  initialFormValue,
  removeArrayItem,
  toggleNull,
  toggleOption,
  toPointer,
  updateAt,
  type FormModel,
  type FormRow,
  type FormValue,
} from '../../schema/form.js';
import { editText, textAtEnd } from './textEdit.js';
import { matchKey, type KeyContext } from '../keys.js';

export interface FormUiState {
  value: FormValue;
  /** Index of the focused row. */
  focus: number;
  /** Cursor in the focused text field (code points). */
  cursor: number;
  /**
   * The focused text field still holds its prefilled default, untouched since it was focused:
   * the first character typed replaces it (`[2]` + `11` is `11`, not `211`); a cursor key or
   * Backspace edits it instead (issue 19.12).
   */
  replaceDefault?: boolean;
}

/** What the caller does after a key: submit the call, leave the form, edit the focused field in the external editor. */
export type FormAction = 'submit' | 'back' | 'editor';

/** The starting state: defaults prefilled, focus on the first row. */
export function initialFormUi(model: FormModel): FormUiState {
  return formUiWithValue(model, initialFormValue(model.root));
}

/** The edit state for `value`, focused on the first row. */
export function formUiWithValue(model: FormModel, value: FormValue): FormUiState {
  const rows = formRows(model.root, value);
  return { value, focus: 0, cursor: rows[0] ? textOf(rows[0]).length : 0, replaceDefault: holdsDefault(rows[0]) };
}

/** A text row whose text is its schema default (as prefilled), not empty. */
function holdsDefault(row: FormRow | undefined): boolean {
  if (!row || !isTextRow(row) || !row.node.hasDefault || row.value.kind !== 'text' || row.value.isNull || row.value.text === '') return false;
  const d = formValueFromJson(row.node, row.node.default);
  return d.kind === 'text' && d.text === row.value.text;
}

/** Whether a row edits text that may span lines (string, JSON): the `multiline` key context. */
export function isMultilineRow(row: FormRow | undefined): boolean {
  return !!row && row.role === 'field' && (row.node.kind === 'string' || row.node.kind === 'json');
}

/** Whether a row edits text (string, number, JSON). */
export function isTextRow(row: FormRow | undefined): boolean {
  return !!row && row.role === 'field' && (row.node.kind === 'string' || row.node.kind === 'number' || row.node.kind === 'json');
}

function textOf(row: FormRow): string {
  return isTextRow(row) && row.value.kind === 'text' ? [...row.value.text].join('') : '';
}

function focusRow(st: FormUiState, rows: FormRow[], focus: number): FormUiState {
  const f = Math.max(0, Math.min(rows.length - 1, focus));
  const row = rows[f];
  return { ...st, focus: f, cursor: row ? [...textOf(row)].length : 0, replaceDefault: holdsDefault(row) };
}

/** The key contexts of the form with `row` focused (see src/tui/keys.ts): `form`, plus the row's own. */
export function formContexts(row: FormRow | undefined): KeyContext[] {
  if (!row) return ['form'];
  if (row.role === 'array') return ['form', 'form-array'];
  if (row.role === 'option') return ['form', 'form-multi'];
  if (row.role !== 'field') return ['form'];
  if (row.node.kind === 'boolean') return ['form', 'form-boolean'];
  if (row.node.kind === 'enum') return ['form', 'form-enum'];
  return isMultilineRow(row) ? ['form', 'multiline', 'text'] : ['form', 'text'];
}

/**
 * Applies one keypress to the form. Returns the new state and, for Enter / Esc, the action
 * for the caller (submit the call, leave the form); `notice`: why the key changed nothing
 * (a multi-select already at its `maxItems`). The keys are the form rows of the key
 * table (src/tui/keys.ts), in the contexts of the focused row ({@link formContexts}).
 */
export function formKey(model: FormModel, st: FormUiState, input: string, key: Key): { state: FormUiState; action?: FormAction; notice?: string } {
  const rows = formRows(model.root, st.value);
  const row = rows[Math.min(st.focus, rows.length - 1)];
  const m = matchKey(input, key, formContexts(row));
  switch (m?.command) {
    case 'form.submit':
      return { state: st, action: 'submit' };
    case 'form.back':
      return { state: st, action: 'back' };
    case 'form.editor':
      return { state: st, action: 'editor' };
    case 'form.field':
      return { state: focusRow(st, rows, st.focus + m.arg) };
    case 'form.fieldPage':
      return { state: focusRow(st, rows, st.focus + 5 * m.arg) };
    case 'form.reset': {
      const value = initialFormValue(model.root);
      return { state: focusRow({ ...st, value }, formRows(model.root, value), st.focus) };
    }
  }
  if (!row) return { state: st };

  switch (m?.command) {
    case 'form.null': {
      if (!row.node.nullable) return { state: st };
      const value = toggleNull(st.value, row.path);
      return { state: focusRow({ ...st, value }, formRows(model.root, value), st.focus) };
    }
    case 'form.deleteItem': {
      const idx = lastIndexSeg(row.path);
      if (idx < 0) return { state: st };
      const arrayPath = row.path.slice(0, idx);
      const value = removeArrayItem(st.value, arrayPath, row.path[idx] as number);
      // Focus the array header after removing.
      const newRows = formRows(model.root, value);
      const header = newRows.findIndex((r) => r.pointer === toPointer(arrayPath));
      return { state: focusRow({ ...st, value }, newRows, header >= 0 ? header : st.focus) };
    }
    case 'form.addItem': {
      if (row.role !== 'array' || row.value.isNull) return { state: st };
      const value = addArrayItem(model.root, st.value, row.path);
      const n = row.value.kind === 'array' ? row.value.items.length : 0;
      const newRows = formRows(model.root, value);
      const idx = newRows.findIndex((r) => r.pointer === toPointer([...row.path, n]));
      return { state: focusRow({ ...st, value }, newRows, idx >= 0 ? idx : st.focus) };
    }
    case 'form.removeItem': {
      if (row.value.kind !== 'array' || row.value.items.length === 0) return { state: st };
      const value = removeArrayItem(st.value, row.path, row.value.items.length - 1);
      return { state: focusRow({ ...st, value }, formRows(model.root, value), st.focus) };
    }
    case 'form.toggle':
    case 'form.set': {
      const cur = row.value.kind === 'boolean' && !row.value.isNull ? row.value.value : undefined;
      let next: boolean | undefined;
      if (m.command === 'form.set') next = m.arg === 1;
      // Optional booleans cycle through "unset" too, so that leaving them out stays possible.
      else if (cur === undefined) next = true;
      else if (cur === true) next = false;
      else next = row.node.required || row.node.hasDefault ? true : undefined;
      const value = updateAt(st.value, row.path, () => ({ kind: 'boolean', value: next }));
      return { state: { ...st, value } };
    }
    case 'form.check': {
      if (row.optionIndex === undefined || row.node.kind !== 'multi') return { state: st };
      const r = toggleOption(model.root, st.value, row.path, row.optionIndex);
      if (r.atMost) return { state: st, notice: `at most ${row.node.maxItems} can be checked: uncheck one first` };
      return { state: { ...st, value: r.value } };
    }
    case 'form.choose': {
      if (row.node.kind !== 'enum') return { state: st };
      const n = row.node.options.length;
      const cur = row.value.kind === 'enum' && !row.value.isNull ? row.value.index : -1;
      // Optional choices include "unset" (-1) in the cycle.
      const lo = row.node.required ? 0 : -1;
      const span = n - lo;
      // From (unset) of a required choice, ← reaches the last option and → the first.
      const next = cur < lo ? (m.arg < 0 ? n - 1 : 0) : ((((cur - lo + m.arg) % span) + span) % span) + lo;
      const value = updateAt(st.value, row.path, () => ({ kind: 'enum', index: next }));
      return { state: { ...st, value } };
    }
  }
  if (row.role !== 'field' || row.node.kind === 'boolean' || row.node.kind === 'enum') return { state: st };
  // Text-like fields.
  const text = row.value.kind === 'text' && !row.value.isNull ? row.value.text : '';
  const edited = editText({ text, cursor: row.value.isNull ? 0 : st.cursor }, input, key, { multiline: isMultilineRow(row) });
  if (!edited) return { state: st };
  if (row.value.isNull && edited.text === text) return { state: st };
  // Typed over a prefilled default (characters appended at the end): they replace it.
  if (st.replaceDefault && edited.text.length > text.length && edited.text.startsWith(text) && st.cursor === [...text].length) {
    const typed = edited.text.slice(text.length);
    const value = updateAt(st.value, row.path, () => ({ kind: 'text', text: typed }));
    return { state: { ...st, value, cursor: [...typed].length, replaceDefault: false } };
  }
  const value = updateAt(st.value, row.path, () => ({ kind: 'text', text: edited.text }));
  return { state: { ...st, value, cursor: edited.cursor, replaceDefault: false } };
}

function lastIndexSeg(path: readonly (string | number)[]): number {
  for (let i = path.length - 1; i >= 0; i--) if (typeof path[i] === 'number') return i;
  return -1;
}

/** A state whose focused text field has its cursor at the end (used after focus changes from outside). */
export function withCursorAtEnd(st: FormUiState, rows: FormRow[]): FormUiState {
  const row = rows[st.focus];
  return { ...st, cursor: row ? textAtEnd(textOf(row)).cursor : 0 };
}
