/**
 * Every key of the TUI, by context: the `?` help screen and the README are generated from
 * this one table, so they cannot drift from each other.
 */
export interface KeyHelp {
  keys: string;
  does: string;
}

export interface KeySection {
  title: string;
  keys: KeyHelp[];
}

/** Every key, grouped by where it applies (drawn by the `?` help screen). */
export const KEYMAP: readonly KeySection[] = [
  {
    title: 'Everywhere',
    keys: [
      { keys: 'Tab / Shift-Tab', does: 'next / previous pane (Tools, Server, Listen, Diffs, Log, Wire)' },
      { keys: '?', does: 'this help (↑/↓ scroll it, any other key closes it)' },
      { keys: 'd', does: 'jump to the Diffs pane (newest diff)' },
      { keys: 'w', does: 'show / hide the Wire pane (raw messages in and out)' },
      { keys: 'q', does: 'quit (not while typing in a field: use Esc first)' },
      { keys: 'Ctrl-C Ctrl-C', does: 'quit from anywhere (press twice within 2 s)' },
      { keys: '↑ ↓ / j k', does: 'move or scroll (PgUp/PgDn a page, g/Home top, G/End bottom)' },
    ],
  },
  {
    title: 'Tools list',
    keys: [
      { keys: '/', does: 'filter by name, title and description (Enter keeps, Esc clears)' },
      { keys: 'Enter', does: 'open the tool: details and call form' },
      { keys: 'Esc', does: 'clear the filter' },
      { keys: '+ / ~ mark', does: 'tool added / changed by the last list change' },
      { keys: 'ro? destr? idem? open?', does: 'annotation hints as the server states them (unverified)' },
    ],
  },
  {
    title: 'Call form',
    keys: [
      { keys: '↑ ↓', does: 'previous / next field (j/k type text here)' },
      { keys: 'typing, ← →, Backspace', does: 'edit a text, number or JSON field (Ctrl-U clears, Ctrl-W deletes a word)' },
      { keys: 'Space / ← →', does: 'toggle a boolean, choose in a list' },
      { keys: '+ / -', does: 'on an array: add an item / remove the last one' },
      { keys: 'Ctrl-D', does: 'delete the array item under the cursor' },
      { keys: 'Ctrl-N', does: 'set / clear an explicit null (nullable fields)' },
      { keys: 'Ctrl-R', does: 'reset the form to its defaults' },
      { keys: 'Enter', does: 'call the tool (with problems: press Enter twice to send anyway)' },
      { keys: 'Esc', does: 'back to the list' },
    ],
  },
  {
    title: 'Call and result',
    keys: [
      { keys: 'Esc (while running)', does: 'cancel the call on the wire' },
      { keys: 's', does: 'save the raw result JSON to ./mcp-inspect-result-<tool>-<time>.json' },
      { keys: 'r', does: 'call again with the same arguments' },
      { keys: 'Esc / Enter', does: 'back to the form' },
    ],
  },
  {
    title: 'Listen',
    keys: [
      { keys: '1 / 2 / 3', does: 'toggle tools / prompts / resources for the next subscription' },
      { keys: 'Enter', does: 're-subscribe with that filter' },
      { keys: 'G / End', does: 'follow the newest events' },
    ],
  },
  {
    title: 'Diffs',
    keys: [
      { keys: '← → / [ ]', does: 'older / newer diff' },
      { keys: 'Home / End', does: 'oldest / newest diff (scroll with ↑ ↓)' },
    ],
  },
  {
    title: 'Wire',
    keys: [
      { keys: 'Enter', does: 'open the selected message pretty-printed (Esc back, ← → previous/next)' },
      { keys: 'G / End', does: 'follow the newest messages' },
    ],
  },
];

/** Where the user is, for the hint line. */
export type HintContext =
  | 'help'
  | 'tools-list'
  | 'tools-filter'
  | 'tools-form'
  | 'call-running'
  | 'result'
  | 'server'
  | 'listen'
  | 'diffs'
  | 'log'
  | 'wire'
  | 'wire-detail';

const HINTS: Record<HintContext, string> = {
  help: '↑↓ scroll · any other key closes',
  'tools-list': 'Tab panes · ↑↓ move · Enter open · / filter · d diffs · w wire · ? keys · q quit',
  'tools-filter': 'type to filter · ↑↓ move · Enter keep · Esc clear',
  'tools-form': '↑↓ field · Enter call · Esc back · Tab panes · Ctrl-C twice quits · ? keys',
  'call-running': 'Esc cancel the call',
  result: '↑↓ scroll · s save JSON · r call again · Esc back · Tab panes · ? keys · q quit',
  server: 'Tab panes · ↑↓ scroll · ? keys · q quit',
  listen: 'Tab panes · 1/2/3 filter · Enter re-subscribe · ↑↓ scroll · G follow · ? keys · q quit',
  diffs: 'Tab panes · ←/→ older/newer · ↑↓ scroll · ? keys · q quit',
  log: 'Tab panes · ↑↓ scroll · G follow · ? keys · q quit',
  wire: 'Tab panes · ↑↓ select · Enter open · G follow · w hide · ? keys · q quit',
  'wire-detail': 'Esc back · ←/→ previous/next message · ↑↓ scroll · Tab panes · q quit',
};

/** The header's key hint line for a context. */
export function hintLine(ctx: HintContext): string {
  return HINTS[ctx];
}
