/**
 * Keys as data: every command of the TUI is one row of {@link KEY_TABLE}, bound once. The
 * same rows drive the matcher ({@link matchKey}: what a key does), the `?` help screen
 * ({@link helpSections}) and the header's hint line ({@link hintLine}), so the three cannot
 * drift apart. Adding a key is adding a row.
 *
 * A view describes where the user is as a list of key contexts, most specific first (the
 * Diffs pane is `['diffs', 'view']`: its Home/End browse diffs, ahead of the generic
 * scrolling of a `view`). A row applies in the contexts it names; the first context (then the
 * first row) whose binding matches wins. While a text field has the focus (the contexts hold
 * `'text'`), bindings to printable characters are off: those characters are typed.
 */
import type { Key } from 'ink';
import { LIST_KINDS, WATCH_KINDS } from '../protocol/list-kinds.js';

/** Where a key is pressed. Pane modules describe their state with these. */
export type KeyContext =
  /** Anywhere, also on the help screen and while closing. */
  | 'always'
  /** Anywhere outside the help screen. */
  | 'global'
  /** The `?` screen. */
  | 'help'
  /** A read-only scrollable view (server description, result, diff, log…). */
  | 'view'
  /** A list with a selection (the tool list, the wire list). */
  | 'list'
  /** A one-line text field has the focus (the tool filter, a text/number/JSON field). */
  | 'text'
  /** A string or JSON field of a form (with `text`): it holds several lines, and can be edited in `$EDITOR`. */
  | 'multiline'
  /** The connect screen (before the app). */
  | 'connect'
  | 'connect-failed'
  | 'tools-list'
  | 'tools-filter'
  /** The call form; with one of the next four for the focused row (or `text`). */
  | 'form'
  | 'form-array'
  | 'form-boolean'
  | 'form-enum'
  /** A checkbox of a multi-select. */
  | 'form-multi'
  /** The open tool may run as a task on the client's request (`execution.taskSupport: optional`, 2025-11-25 tasks). */
  | 'form-task'
  | 'call-running'
  | 'result'
  | 'server'
  | 'listen'
  | 'diffs'
  | 'log'
  | 'wire'
  | 'wire-detail'
  /** An opened Log line (its full text, a stderr burst whole). */
  | 'log-detail'
  /** The tool detail view (full description, raw inputSchema / outputSchema). */
  | 'tool-info'
  /** A result with JSON that can be folded. */
  | 'foldable'
  /** A result with a `resource_link` block (only the hint of `o` depends on it). */
  | 'linked'
  /** A view that can be searched with `/` (a result, the Log pane). */
  | 'searchable'
  /** The search field of a view has the focus (with `text`). */
  | 'search'
  /** A view with a kept search: n / N step through its matches. */
  | 'searched'
  /** A list of the Prompts / Resources panes; the resource-template list. */
  | 'prompts-list'
  | 'resources-list'
  | 'templates-list'
  /** A prompt's argument form or a template's variable form (with `form` and the row's contexts). */
  | 'args-form'
  /** The focused field has server suggestions (completion/complete): Tab takes one. Matched before the global rows. */
  | 'completing'
  /** The messages of a got prompt; a read resource. */
  | 'prompt-result'
  | 'resource-read'
  /** The input-round overlay (what the server asks): with one of the next for the request shown. */
  | 'input'
  | 'input-form'
  | 'input-url'
  | 'input-url-confirm'
  | 'input-sampling'
  | 'input-roots'
  | 'input-roots-edit'
  | 'input-unsupported'
  /** The Roots pane (the folders offered to the server); adding one (with `text`). */
  | 'roots'
  | 'roots-edit'
  /** A picture shown full-screen: any key closes it (matched before the global rows). */
  | 'picture'
  /** The History pane's list; its `/` filter (with `text`); a comparison of a new result with a recorded one. */
  | 'history'
  | 'history-filter'
  | 'history-compare'
  /** Asking for the collection file a call is added to (with `text`). */
  | 'collect';

/** Sections of the `?` screen, in order. */
export const HELP_SECTIONS = [
  'Everywhere',
  'Connection',
  'Search',
  'Tools list',
  'Text fields',
  'Call form',
  'Call and result',
  'Prompts and resources',
  'Server asks for input',
  'Listen',
  'Diffs',
  'Log',
  'Wire',
  'History',
] as const;
/** A section of the `?` screen. */
export type HelpSection = (typeof HELP_SECTIONS)[number];

/**
 * A key: a special key (`up`, `down`, `left`, `right`, `pageup`, `pagedown`, `home`, `end`,
 * `return`, `meta-return` (Alt-Enter), `escape`, `tab`, `shift-tab`, `backspace`, `delete`), `ctrl-<letter>`, `any`, or
 * one printable character (`q`, `G`, `?`, `' '`).
 */
export type KeySpec = string;

/** A key bound to a command: with an argument for the command (a direction, an index; default 1), optionally only in some of the row's contexts. */
export type KeyBinding = KeySpec | { key: KeySpec; arg?: number; in?: readonly KeyContext[] };

/** One row of the key table: one command and every key bound to it. */
export interface KeyRow {
  command: string;
  keys: readonly KeyBinding[];
  /** The contexts where it applies. */
  in: readonly KeyContext[];
  /** What it does, for the `?` screen. */
  does: string;
  /** Its `?` section; rows without one are not listed (they live where `?` cannot be pressed). */
  section?: HelpSection;
  /** The keys as the `?` screen writes them; default: every binding's label joined with ` / `. */
  label?: string;
  /**
   * The word(s) on the hint line: everywhere it applies (a string), or only in some contexts
   * (`{ 'tools-list': 'diffs' }`); none: not on the hint line.
   */
  hint?: string | Partial<Record<KeyContext, string>>;
  /** The keys as the hint line writes them; default: the first binding's label. */
  hintKeys?: string;
}

/** The key table. Order matters only among rows of one context (the first match wins). */
export const KEY_TABLE = [
  // ---- Everywhere ----
  {
    command: 'pane.cycle',
    keys: [
      { key: 'tab', arg: 1 },
      { key: 'shift-tab', arg: -1 },
    ],
    in: ['global'],
    section: 'Everywhere',
    does: 'next / previous pane',
    hint: 'panes',
  },
  { command: 'help.open', keys: ['?'], in: ['global'], section: 'Everywhere', does: 'this help (↑/↓ scroll it, any other key closes it)', hint: 'keys' },
  { command: 'diffs.open', keys: ['d'], in: ['global'], section: 'Everywhere', does: 'jump to the Diffs pane (newest diff)', hint: { 'tools-list': 'diffs' } },
  {
    command: 'diffs.follow',
    keys: ['F'],
    in: ['global'],
    section: 'Everywhere',
    does: 'follow live on/off: a new diff opens the Diffs pane from the tool list or a following Listen (off: a notice and a badge)',
  },
  {
    command: 'wire.toggle',
    keys: ['w'],
    in: ['global'],
    section: 'Everywhere',
    does: 'go to the Wire pane (raw messages in and out), showing it; on the Wire pane: hide it',
    hint: { 'tools-list': 'wire', wire: 'hide' },
  },
  {
    command: 'record.toggle',
    keys: ['W'],
    in: ['global'],
    section: 'Everywhere',
    does: 'record the traffic to a file (mcp-inspect/recording@1: replay and mock read it), and stop; the header shows ● REC meanwhile',
  },
  {
    command: 'roots.toggle',
    keys: ['O'],
    in: ['global'],
    section: 'Everywhere',
    does: 'go to the Roots pane (the folders offered to the server: a adds, x removes), showing it; on the Roots pane: hide it',
    hint: { roots: 'hide' },
  },
  {
    command: 'quit',
    keys: ['q'],
    in: ['global', 'connect'],
    section: 'Everywhere',
    does: 'quit (not while typing in a field: use Esc first; while a call runs, press it twice)',
    hint: 'quit',
  },
  {
    command: 'quit.force',
    keys: ['ctrl-c'],
    in: ['always'],
    section: 'Everywhere',
    label: 'Ctrl-C Ctrl-C',
    does: 'quit from anywhere (press twice within 2 s)',
    hint: { text: 'twice quits' },
  },
  {
    command: 'move.line',
    keys: [
      { key: 'up', arg: -1 },
      { key: 'down', arg: 1 },
      { key: 'k', arg: -1 },
      { key: 'j', arg: 1 },
    ],
    in: ['view', 'list'],
    section: 'Everywhere',
    does: 'move or scroll one line',
    hint: { view: 'scroll', list: 'move' },
    hintKeys: '↑↓',
  },
  {
    command: 'move.page',
    keys: [
      { key: 'pageup', arg: -1 },
      { key: 'pagedown', arg: 1 },
      { key: 'b', arg: -1, in: ['view'] },
      { key: ' ', arg: 1, in: ['view'] },
    ],
    in: ['view', 'list'],
    section: 'Everywhere',
    does: 'a page up / down (b and Space in text views only)',
  },
  {
    command: 'move.edge',
    keys: [
      { key: 'home', arg: -1 },
      { key: 'g', arg: -1 },
      { key: 'end', arg: 1 },
      { key: 'G', arg: 1 },
    ],
    in: ['view', 'list'],
    section: 'Everywhere',
    does: 'top / bottom (at the bottom, the Listen, Log and Wire panes follow the newest)',
    hint: { listen: 'follow', log: 'follow', wire: 'follow' },
    hintKeys: 'G',
  },
  { command: 'help.close', keys: ['any'], in: ['help'], does: 'close the help', hint: 'closes', hintKeys: 'any other key' },

  // ---- Connection ----
  {
    command: 'connection.reconnect',
    keys: ['R'],
    in: ['global', 'connect-failed'],
    section: 'Connection',
    does: 'reconnect: close the connection and connect again (a spawned server is restarted); the tool list is re-fetched and diffed',
  },
  { command: 'connection.disconnect', keys: ['X'], in: ['global'], section: 'Connection', does: 'disconnect (a spawned server is stopped); R connects again' },
  // The failure screen: `r` too (no result can be on screen there).
  { command: 'connect.retry', keys: ['r'], in: ['connect-failed'], does: 'connect again', hint: 'retry' },

  // ---- Search in a view (a result, the Log pane) ----
  {
    command: 'search.start',
    keys: ['/'],
    in: ['searchable'],
    section: 'Search',
    does: 'in a result or the Log pane: search (a new search each time)',
    hint: 'search',
  },
  { command: 'search.keep', keys: ['return'], in: ['search'], section: 'Search', does: 'while searching: keep the search, back to scrolling', hint: 'keep' },
  { command: 'search.clear', keys: ['escape'], in: ['search', 'searched'], section: 'Search', does: 'clear the search', hint: { search: 'clear' } },
  {
    command: 'search.next',
    keys: [
      { key: 'n', arg: 1 },
      { key: 'N', arg: -1 },
    ],
    in: ['searched'],
    section: 'Search',
    does: 'next / previous match',
    hint: 'next/prev',
    hintKeys: 'n/N',
  },

  // ---- Tools list ----
  {
    command: 'tools.filter',
    keys: ['/'],
    in: ['tools-list'],
    section: 'Tools list',
    does: 'filter by name, title and description (a new search each time)',
    hint: 'filter',
  },
  { command: 'tools.open', keys: ['return'], in: ['tools-list'], section: 'Tools list', does: 'open the tool: details and call form', hint: 'open' },
  {
    command: 'tools.info',
    keys: [{ key: 'i', in: ['tools-list'] }, 'ctrl-t'],
    in: ['tools-list', 'form'],
    section: 'Tools list',
    // Not on the hint line (full at 80 columns): the list's title and the form's cut texts name it.
    does: 'tool detail: the full description, every parameter and the raw inputSchema / outputSchema (in the call form: Ctrl-T)',
  },
  {
    command: 'info.close',
    keys: ['escape', 'return', 'i'],
    in: ['tool-info'],
    section: 'Tools list',
    does: 'close the tool detail',
    hint: 'back',
    hintKeys: 'Esc',
  },
  {
    command: 'filter.keep',
    keys: ['return'],
    in: ['tools-filter', 'history-filter'],
    section: 'Tools list',
    does: 'while filtering: keep the filter, back to the list (one match: open it)',
    hint: 'keep',
  },
  {
    command: 'filter.clear',
    keys: ['escape'],
    in: ['tools-filter', 'tools-list', 'history-filter', 'history'],
    section: 'Tools list',
    does: 'clear the filter',
    hint: { 'tools-filter': 'clear', 'history-filter': 'clear' },
  },

  {
    command: 'list.refresh',
    keys: ['r', 'u'],
    in: ['tools-list', 'prompts-list', 'resources-list', 'templates-list'],
    section: 'Tools list',
    does: 'refresh the list (tools, prompts, resources, templates): fetch it again from page 1, not from the cache (a change shows as a diff)',
    hint: { 'prompts-list': 'refresh', 'resources-list': 'refresh', 'templates-list': 'refresh' },
  },

  // ---- Text fields (the filter, text / number / JSON fields of the form) ----
  {
    command: 'text.move',
    keys: [
      { key: 'left', arg: -1 },
      { key: 'right', arg: 1 },
    ],
    in: ['text'],
    section: 'Text fields',
    does: 'move the cursor',
  },
  {
    command: 'text.edge',
    keys: [
      { key: 'home', arg: -1 },
      { key: 'ctrl-a', arg: -1 },
      { key: 'end', arg: 1 },
      { key: 'ctrl-e', arg: 1 },
    ],
    in: ['text'],
    section: 'Text fields',
    does: 'to the start / end',
  },
  { command: 'text.erase', keys: ['backspace', 'delete'], in: ['text'], section: 'Text fields', does: 'delete the character before the cursor' },
  { command: 'text.clear', keys: ['ctrl-u'], in: ['text'], section: 'Text fields', does: 'clear the field' },
  { command: 'text.deleteWord', keys: ['ctrl-w'], in: ['text'], section: 'Text fields', does: 'delete the word before the cursor' },
  // Alt-Enter: terminals send ESC CR for it; Ctrl-J (LF) reaches Ink as a key it cannot tell from nothing.
  {
    command: 'text.newline',
    keys: ['meta-return'],
    in: ['multiline'],
    section: 'Text fields',
    does: 'in a string or JSON field of a form: a new line (a paste keeps its newlines too)',
  },

  // ---- Call form ----
  {
    command: 'form.field',
    keys: [
      { key: 'up', arg: -1 },
      { key: 'down', arg: 1 },
    ],
    in: ['form'],
    section: 'Call form',
    does: 'previous / next field (j/k type text here)',
    hint: 'field',
    hintKeys: '↑↓',
  },
  {
    command: 'form.fieldPage',
    keys: [
      { key: 'pageup', arg: -1 },
      { key: 'pagedown', arg: 1 },
    ],
    in: ['form'],
    section: 'Call form',
    does: 'five fields up / down',
  },
  {
    command: 'form.toggle',
    keys: [' ', 'left', 'right'],
    in: ['form-boolean'],
    section: 'Call form',
    does: 'on a boolean: toggle (an optional one cycles through unset)',
  },
  {
    command: 'form.set',
    keys: [
      { key: 't', arg: 1 },
      { key: 'f', arg: 0 },
    ],
    in: ['form-boolean'],
    section: 'Call form',
    does: 'on a boolean: true / false',
  },
  {
    command: 'form.choose',
    keys: [
      { key: ' ', arg: 1 },
      { key: 'left', arg: -1 },
      { key: 'right', arg: 1 },
    ],
    in: ['form-enum'],
    section: 'Call form',
    does: 'on a choice: next / previous option',
  },
  {
    command: 'form.check',
    keys: [' '],
    in: ['form-multi'],
    section: 'Call form',
    does: 'on a multi-select: check / uncheck the option under the cursor (↑/↓ move between options)',
    hint: 'check/uncheck',
  },
  { command: 'form.addItem', keys: ['+', 'a', ' '], in: ['form-array'], section: 'Call form', does: 'on an array: add an item' },
  { command: 'form.removeItem', keys: ['-', 'x'], in: ['form-array'], section: 'Call form', does: 'on an array: remove the last item' },
  { command: 'form.deleteItem', keys: ['ctrl-d'], in: ['form'], section: 'Call form', does: 'delete the array item under the cursor' },
  { command: 'form.null', keys: ['ctrl-n'], in: ['form'], section: 'Call form', does: 'set / clear an explicit null (nullable fields)' },
  { command: 'form.reset', keys: ['ctrl-r'], in: ['form'], section: 'Call form', does: 'reset the form to its defaults' },
  {
    command: 'form.editor',
    keys: ['ctrl-o'],
    in: ['multiline'],
    section: 'Call form',
    does: 'in a string or JSON field: edit it in $VISUAL / $EDITOR (else vi), as git does; the TUI waits for the editor to exit',
  },
  {
    command: 'form.submit',
    keys: ['return'],
    in: ['form'],
    section: 'Call form',
    does: 'call the tool (with problems: press Enter twice to send anyway); in a prompt or template form: get / read',
    hint: { 'args-form': 'submit', form: 'call' },
  },
  { command: 'form.back', keys: ['escape'], in: ['form'], section: 'Call form', does: 'back to the list', hint: 'back' },
  {
    command: 'form.submitTask',
    keys: ['ctrl-k'],
    in: ['form-task'],
    section: 'Call form',
    does: 'on a tool with execution.taskSupport optional: call it as a task (params.task; its status shows, Esc sends tasks/cancel); Enter calls it plainly',
    hint: 'call as task',
  },

  // ---- Call and result ----
  {
    command: 'call.cancel',
    keys: ['escape'],
    in: ['call-running'],
    section: 'Call and result',
    does: 'while running: cancel the call on the wire',
    hint: 'cancel the call',
  },
  {
    command: 'result.save',
    keys: ['s'],
    in: ['result'],
    section: 'Call and result',
    does: 'save the raw result JSON to ./mcp-inspect-result-<tool>-<time>.json',
    hint: 'save JSON',
  },
  {
    command: 'result.openLink',
    keys: ['o'],
    in: ['result'],
    section: 'Call and result',
    does: 'open a resource_link of the result in the Resources pane (again: the next link)',
    hint: { linked: 'open link' },
  },
  {
    command: 'result.saveBlock',
    keys: ['S'],
    in: ['result'],
    section: 'Call and result',
    does: 'save the decoded bytes of the content block in view (image, audio, resource blob) to ./<tool>-<n>.<ext> (again: the next block)',
  },
  {
    command: 'result.picture',
    keys: ['i'],
    in: ['result'],
    section: 'Call and result',
    does: 'show the image in view full-screen (kitty / iTerm2 / sixel where the terminal has one, else blocks; MCP_INSPECT_IMAGES)',
  },
  {
    command: 'picture.close',
    keys: ['any'],
    in: ['picture'],
    section: 'Call and result',
    does: 'close the full-screen picture',
    hint: 'closes',
    hintKeys: 'any key',
  },
  {
    command: 'fold.toggle',
    keys: ['z'],
    in: ['foldable'],
    section: 'Call and result',
    does: 'fold / unfold the JSON object or array at the top line of the view (large ones start folded: {…} 12 keys)',
    hint: 'fold',
  },
  {
    command: 'fold.all',
    keys: [
      { key: '-', arg: 1 },
      { key: '+', arg: -1 },
    ],
    in: ['foldable'],
    section: 'Call and result',
    does: 'fold all / unfold all JSON (a search finds text in folded parts and unfolds them)',
    hint: 'fold all/none',
    hintKeys: '-/+',
  },
  {
    command: 'result.again',
    keys: ['r'],
    in: ['result'],
    section: 'Call and result',
    does: 'call again with the same arguments (asks first: r twice)',
    hint: 'call again',
  },
  { command: 'result.back', keys: ['escape', 'return'], in: ['result'], section: 'Call and result', does: 'back to the form', hint: 'back', hintKeys: 'Esc' },

  // ---- Prompts and resources ----
  {
    command: 'item.open',
    keys: ['return'],
    in: ['prompts-list', 'resources-list', 'templates-list'],
    section: 'Prompts and resources',
    does: 'prompts: open the argument form · resources: read it · templates: open the variable form',
    hint: 'open',
  },
  {
    command: 'resources.templates',
    keys: ['t'],
    in: ['resources-list', 'templates-list'],
    section: 'Prompts and resources',
    does: 'switch between resources and resource templates',
    hint: { 'resources-list': 'templates', 'templates-list': 'resources' },
  },
  {
    command: 'complete.take',
    keys: ['tab'],
    in: ['completing'],
    section: 'Prompts and resources',
    does: "in a prompt argument or template variable with suggestions: take the chosen one (the server's completion/complete)",
    hint: 'take suggestion',
  },
  {
    command: 'complete.choose',
    keys: [
      { key: 'up', arg: -1 },
      { key: 'down', arg: 1 },
    ],
    in: ['completing'],
    section: 'Prompts and resources',
    does: 'with suggestions under the field: choose among them (Tab takes it)',
    hint: 'choose',
  },
  {
    command: 'resource.save',
    keys: ['s'],
    in: ['resource-read'],
    section: 'Prompts and resources',
    does: 'save the contents to ./<name>: a blob as its decoded bytes',
    hint: 'save',
  },
  {
    command: 'resource.subscribe',
    keys: ['U'],
    in: ['resource-read'],
    section: 'Prompts and resources',
    does: 'subscribe to the resource read (modern: in subscriptions/listen; legacy: resources/subscribe), or unsubscribe; each update re-reads it and shows what changed',
    hint: 'subscribe',
  },
  {
    command: 'item.reload',
    keys: ['r'],
    in: ['resource-read', 'prompt-result'],
    section: 'Prompts and resources',
    does: 'read / get again from the server (not from the cache)',
    hint: 'again',
  },
  {
    command: 'item.back',
    keys: ['escape', 'return'],
    in: ['resource-read', 'prompt-result'],
    section: 'Prompts and resources',
    does: 'back',
    hint: 'back',
    hintKeys: 'Esc',
  },

  // ---- Input rounds (the server asks for input: elicitation, url, sampling, roots) ----
  {
    command: 'input.accept',
    keys: ['return'],
    in: ['input-form', 'input-url', 'input-sampling', 'input-roots', 'input-unsupported'],
    section: 'Server asks for input',
    does: 'form: accept with these values · url: I have completed it · sampling: send the reply · roots: send the list',
    hint: { 'input-form': 'accept', 'input-url': 'done', 'input-sampling': 'send reply', 'input-roots': 'send roots', 'input-unsupported': 'skip' },
  },
  {
    command: 'input.decline',
    keys: ['ctrl-x'],
    in: ['input-form', 'input-url', 'input-sampling'],
    section: 'Server asks for input',
    does: 'decline: an elicitation (an explicit no); sampling: refuse it (legacy: a JSON-RPC error; modern: the retry goes without this answer)',
    hint: 'decline',
  },
  {
    command: 'input.cancel',
    keys: ['escape'],
    in: ['input-form', 'input-url', 'input-sampling', 'input-roots', 'input-unsupported'],
    section: 'Server asks for input',
    does: 'elicitation: cancel (dismissed) · sampling, roots: stop the request',
    hint: 'cancel',
  },
  {
    command: 'input.openUrl',
    keys: ['o'],
    in: ['input-url'],
    section: 'Server asks for input',
    does: 'url: open it in the browser (asks first; never opened without your yes)',
    hint: 'open…',
  },
  {
    command: 'input.confirm',
    keys: [
      { key: 'y', arg: 1 },
      { key: 'n', arg: 0 },
      { key: 'escape', arg: 0 },
    ],
    in: ['input-url-confirm'],
    section: 'Server asks for input',
    does: 'yes / no: open the URL',
    hint: 'yes/no',
    hintKeys: 'y/n',
  },
  {
    command: 'roots.add',
    keys: ['a', '+'],
    in: ['input-roots', 'roots'],
    section: 'Server asks for input',
    does: 'roots: add a root (a path or a file:// URI)',
    hint: 'add',
  },
  {
    command: 'roots.remove',
    keys: ['x', '-', 'delete'],
    in: ['input-roots', 'roots'],
    section: 'Server asks for input',
    does: 'roots: remove the selected root',
    hint: 'remove',
  },
  {
    command: 'roots.keep',
    keys: ['return'],
    in: ['input-roots-edit', 'roots-edit'],
    section: 'Server asks for input',
    does: 'roots: add the typed root',
    hint: 'add',
  },
  {
    command: 'roots.discard',
    keys: ['escape'],
    in: ['input-roots-edit', 'roots-edit'],
    section: 'Server asks for input',
    does: 'roots: stop adding',
    hint: 'back',
  },

  // ---- Listen ----
  {
    command: 'listen.toggle',
    // One digit per watched list, in table order (src/protocol/list-kinds.ts).
    keys: WATCH_KINDS.map((_, i) => ({ key: String(i + 1), arg: i + 1 })),
    in: ['listen'],
    section: 'Listen',
    does: `toggle ${WATCH_KINDS.map((w) => LIST_KINDS[w].label).join(' / ')} for the next subscription`,
    hint: 'filter',
    hintKeys: WATCH_KINDS.map((_, i) => i + 1).join('/'),
  },
  { command: 'listen.resubscribe', keys: ['return'], in: ['listen'], section: 'Listen', does: 're-subscribe with that filter', hint: 're-subscribe' },

  // ---- Diffs ----
  {
    command: 'diffs.step',
    keys: [
      { key: 'left', arg: -1 },
      { key: 'right', arg: 1 },
      { key: '[', arg: -1 },
      { key: ']', arg: 1 },
    ],
    in: ['diffs'],
    section: 'Diffs',
    does: 'older / newer diff',
    hint: 'older/newer',
    hintKeys: '←/→',
  },
  {
    command: 'diffs.edge',
    keys: [
      { key: 'home', arg: -1 },
      { key: 'end', arg: 1 },
    ],
    in: ['diffs'],
    section: 'Diffs',
    does: 'oldest / newest diff (scroll with ↑ ↓)',
  },

  // ---- Log ----
  {
    command: 'log.open',
    keys: ['return'],
    in: ['log'],
    section: 'Log',
    does: 'open the selected line: its full text wrapped; a stderr line with the lines written with it (a stack trace whole)',
    hint: 'open',
  },
  {
    command: 'log.filter',
    keys: ['l'],
    in: ['log'],
    section: 'Log',
    does: "show the server's log messages from the next level up only (all, debug … emergency); stderr and notes stay",
    hint: 'level shown',
  },
  {
    command: 'log.serverLevel',
    keys: ['L'],
    in: ['log'],
    section: 'Log',
    does: 'ask the server for log messages from the next level up (legacy: logging/setLevel; modern: the level in every request from now on, or none)',
    hint: 'server level',
  },
  {
    command: 'log.close',
    keys: ['escape', 'return'],
    in: ['log-detail'],
    section: 'Log',
    does: 'back to the Log',
    hint: 'back',
    hintKeys: 'Esc',
  },
  {
    command: 'log.step',
    keys: [
      { key: 'left', arg: -1 },
      { key: 'right', arg: 1 },
    ],
    in: ['log-detail'],
    section: 'Log',
    does: 'previous / next line',
    hint: 'previous/next',
    hintKeys: '←/→',
  },

  // ---- Wire ----
  { command: 'wire.open', keys: ['return'], in: ['wire'], section: 'Wire', does: 'open the selected message pretty-printed', hint: 'open' },
  {
    command: 'wire.close',
    keys: ['escape', 'return'],
    in: ['wire-detail'],
    section: 'Wire',
    does: 'back to the list of messages',
    hint: 'back',
    hintKeys: 'Esc',
  },
  {
    command: 'wire.step',
    keys: [
      { key: 'left', arg: -1 },
      { key: 'right', arg: 1 },
    ],
    in: ['wire-detail'],
    section: 'Wire',
    does: 'previous / next message',
    hint: 'previous/next',
    hintKeys: '←/→',
  },

  // ---- History (calls to this server, kept across sessions; src/tui/panes/history.tsx) ----
  {
    command: 'history.toggle',
    keys: ['H'],
    in: ['global'],
    section: 'History',
    does: 'go to the History pane (the calls made to this server, kept across sessions), showing it; on the History pane: hide it',
    hint: { history: 'hide' },
  },
  { command: 'history.filter', keys: ['/'], in: ['history'], section: 'History', does: 'filter by tool, result and arguments', hint: 'filter' },
  {
    command: 'history.edit',
    keys: ['return', 'e'],
    in: ['history'],
    section: 'History',
    does: "open the tool's call form with the call's arguments",
    hint: 'edit',
  },
  {
    command: 'history.rerun',
    keys: ['r'],
    in: ['history'],
    section: 'History',
    does: 'call again with the same arguments (asks first: r twice); the result shows in the Tools pane',
    hint: 're-run',
  },
  {
    command: 'history.compare',
    keys: ['c'],
    in: ['history'],
    section: 'History',
    does: 'call again and compare the new result with the recorded one (asks first: c twice)',
    hint: 'compare',
  },
  { command: 'history.back', keys: ['escape', 'return'], in: ['history-compare'], section: 'History', does: 'back to the list', hint: 'back', hintKeys: 'Esc' },
  {
    command: 'call.collect',
    keys: ['a'],
    in: ['result', 'history'],
    section: 'History',
    does: 'on a result or a call of the History: add it to a collection file, its result as the expectation (asks for the file)',
    hint: 'collect',
  },
  {
    command: 'collect.save',
    keys: ['return'],
    in: ['collect'],
    section: 'History',
    does: 'while asking for the collection file: add the call to it',
    hint: 'add',
  },
  {
    command: 'collect.cancel',
    keys: ['escape'],
    in: ['collect'],
    section: 'History',
    does: 'while asking for the collection file: do not add it',
    hint: 'cancel',
  },
] as const satisfies readonly KeyRow[];

/** Every command of the TUI. */
export type Command = (typeof KEY_TABLE)[number]['command'];

/** Lines of the `?` screen that are not keys: what the marks on the screen mean. */
export const HELP_NOTES: readonly { section: HelpSection; label: string; does: string }[] = [
  { section: 'Tools list', label: '+ / ~ mark', does: 'tool added / changed by the last list change' },
  { section: 'Tools list', label: 'ro? destr? idem? open?', does: 'annotation hints as the server states them (unverified)' },
  {
    section: 'Text fields',
    label: 'typing',
    does: 'inserts text; a paste of several lines keeps them in a string or JSON field of a form, elsewhere becomes one line',
  },
  { section: 'Call form', label: '⇡ mark', does: 'the field is also sent as an HTTP header, Mcp-Param-<Name> (x-mcp-header; Streamable HTTP only)' },
  { section: 'Call form', label: '↑ / ↓ N more', does: 'fields above / below the visible part of a long form (↑ ↓ PgUp PgDn reach them)' },
];

/** What a key matched: the command and its argument (see {@link KeyBinding}). */
export interface KeyMatch {
  command: Command;
  arg: number;
}

const ROWS: readonly KeyRow[] = KEY_TABLE;

const SPECIAL: Record<string, { label: string; test: (k: Key) => boolean }> = {
  up: { label: '↑', test: (k) => k.upArrow },
  down: { label: '↓', test: (k) => k.downArrow },
  left: { label: '←', test: (k) => k.leftArrow },
  right: { label: '→', test: (k) => k.rightArrow },
  pageup: { label: 'PgUp', test: (k) => k.pageUp },
  pagedown: { label: 'PgDn', test: (k) => k.pageDown },
  home: { label: 'Home', test: (k) => k.home },
  end: { label: 'End', test: (k) => k.end },
  // Alt-Enter (ESC CR: return with meta) is its own key, not Enter.
  return: { label: 'Enter', test: (k) => k.return && !k.meta },
  'meta-return': { label: 'Alt-Enter', test: (k) => k.return && k.meta },
  escape: { label: 'Esc', test: (k) => k.escape },
  tab: { label: 'Tab', test: (k) => k.tab && !k.shift },
  'shift-tab': { label: 'Shift-Tab', test: (k) => k.tab && k.shift },
  backspace: { label: 'Backspace', test: (k) => k.backspace },
  delete: { label: 'Delete', test: (k) => k.delete },
  any: { label: 'any key', test: () => true },
};

/** True for a key spec that is a printable character (typed, not a command, in a text field). */
export function isCharSpec(spec: KeySpec): boolean {
  return [...spec].length === 1;
}

/** True when `spec` names a key this module understands (special, `ctrl-<letter>`, or one character). */
export function isValidSpec(spec: KeySpec): boolean {
  return spec in SPECIAL || /^ctrl-[a-z]$/.test(spec) || isCharSpec(spec);
}

/** Does the keypress (`input`, `key` as Ink reports them) match `spec`? */
export function keyMatches(spec: KeySpec, input: string, key: Key): boolean {
  const special = SPECIAL[spec];
  if (special) return special.test(key);
  if (spec.startsWith('ctrl-') && spec.length > 5) return key.ctrl && input === spec.slice(5);
  // A character: Ctrl-D is not `d`. (Meta is not checked: Ink reports Esc followed
  // quickly by a letter as meta + letter, which always acted as the letter.)
  return input === spec && !key.ctrl;
}

/** How the `?` screen and the hint line write a key. */
export function keyLabel(spec: KeySpec): string {
  const special = SPECIAL[spec];
  if (special) return special.label;
  if (spec.startsWith('ctrl-') && spec.length > 5) return `Ctrl-${spec.slice(5).toUpperCase()}`;
  if (spec === ' ') return 'Space';
  return spec;
}

function binding(b: KeyBinding): { key: KeySpec; arg: number; in?: readonly KeyContext[] } {
  return typeof b === 'string' ? { key: b, arg: 1 } : { key: b.key, arg: b.arg ?? 1, in: b.in };
}

/**
 * The command a keypress triggers where the user is: the first of `contexts` (most specific
 * first) with a row whose binding matches; within a context, the first such row.
 *
 * @param typing printable-character bindings are off (the character is typed); default: when
 *   `contexts` holds `'text'`.
 * @returns undefined when the key does nothing here.
 */
export function matchKey(input: string, key: Key, contexts: readonly KeyContext[], typing = contexts.includes('text')): KeyMatch | undefined {
  for (const c of contexts) {
    for (const row of ROWS) {
      if (!row.in.includes(c)) continue;
      for (const raw of row.keys) {
        const b = binding(raw);
        if (b.in && !b.in.includes(c)) continue;
        if (typing && isCharSpec(b.key)) continue;
        if (keyMatches(b.key, input, key)) return { command: row.command as Command, arg: b.arg };
      }
    }
  }
  return undefined;
}

/** The row of a command. Throws for an unknown command (a programming error). */
export function keyRow(command: Command): KeyRow {
  const row = ROWS.find((r) => r.command === command);
  if (!row) throw new Error(`no key row for ${command}`);
  return row;
}

/** The `?` screen's label of a row's keys: its `label`, or its bindings' labels joined with ` / `. */
export function rowLabel(row: KeyRow): string {
  if (row.label) return row.label;
  const labels: string[] = [];
  for (const b of row.keys) {
    const l = keyLabel(binding(b).key);
    if (!labels.includes(l)) labels.push(l);
  }
  return labels.join(' / ');
}

/**
 * The header's hint line where the user is: `Enter open · / filter · ↑↓ move · Tab panes · …`.
 * Rows are taken by `contexts` order (most specific first), then table order; rows bound only
 * to printable characters are left out while typing (they would be typed, not run).
 */
export function hintLine(contexts: readonly KeyContext[], typing = contexts.includes('text')): string {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const c of contexts) {
    for (const row of ROWS) {
      if (seen.has(row.command) || !row.in.includes(c) || row.hint === undefined) continue;
      const text =
        typeof row.hint === 'string' ? row.hint : contexts.map((x) => (row.hint as Partial<Record<KeyContext, string>>)[x]).find((t) => t !== undefined);
      if (text === undefined) continue;
      const live = row.keys.map(binding).filter((b) => (!b.in || b.in.includes(c)) && !(typing && isCharSpec(b.key)));
      if (live.length === 0) continue;
      seen.add(row.command);
      out.push(`${row.hintKeys ?? keyLabel(live[0].key)} ${text}`);
    }
  }
  return out.join(' · ');
}

/** The `?` screen: every section with its keys (and notes), in order. */
export function helpSections(): { title: HelpSection; keys: { keys: string; does: string }[] }[] {
  return HELP_SECTIONS.map((title) => ({
    title,
    keys: [
      ...ROWS.filter((r) => r.section === title).map((r) => ({ keys: rowLabel(r), does: r.does })),
      ...HELP_NOTES.filter((n) => n.section === title).map((n) => ({ keys: n.label, does: n.does })),
    ],
  })).filter((s) => s.keys.length > 0);
}

/**
 * Contexts whose rows are matched before the global rows (the App asks the pane first): Tab
 * in a field with suggestions takes one instead of switching panes; any key closes a full-screen picture.
 */
export const PRIORITY_CONTEXTS: readonly KeyContext[] = ['completing', 'picture'];

/** Where the user is on the `?` screen: it scrolls like a view, any other key closes it. */
export const HELP_CONTEXTS: readonly KeyContext[] = ['view', 'help'];
