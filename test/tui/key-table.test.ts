import { describe, expect, it } from 'vitest';
import {
  HELP_CONTEXTS,
  PRIORITY_CONTEXTS,
  KEY_TABLE,
  helpSections,
  hintLine,
  isCharSpec,
  isValidSpec,
  keyLabel,
  keyMatches,
  matchKey,
  rowLabel,
  type KeyBinding,
  type KeyContext,
} from '../../src/tui/keys.js';
import { helpLines } from '../../src/tui/components/HelpOverlay.js';
import { lineText } from '../../src/tui/lines/lines.js';
import { plainKey } from '../../src/tui/hooks/useKeys.js';
import { formContexts } from '../../src/tui/forms/formState.js';
import { toolListContexts } from '../../src/tui/hooks/useToolList.js';
import { PANES } from '../../src/tui/panes/index.js';

const spec = (b: KeyBinding) => (typeof b === 'string' ? b : b.key);
const only = (b: KeyBinding) => (typeof b === 'string' ? undefined : b.in);
const k = plainKey();

describe('the key table', () => {
  it('names only keys the matcher understands', () => {
    for (const row of KEY_TABLE) for (const b of row.keys) expect(isValidSpec(spec(b)), `${row.command}: ${spec(b)}`).toBe(true);
  });

  it('binds a key to at most one command in each context', () => {
    const seen = new Map<string, string>();
    for (const row of KEY_TABLE) {
      for (const c of row.in) {
        for (const b of row.keys) {
          const o = only(b);
          if (o && !o.includes(c)) continue;
          const id = `${c} ${spec(b)}`;
          expect(seen.get(id), `${id}: ${row.command} and ${seen.get(id)}`).toBeUndefined();
          seen.set(id, row.command);
        }
      }
    }
  });

  it('no pane key is shadowed by a global one (globals are matched first)', () => {
    const global = new Set(KEY_TABLE.filter((r) => (r.in as readonly KeyContext[]).includes('global')).flatMap((r) => r.keys.map(spec)));
    for (const row of KEY_TABLE) {
      if ((row.in as readonly KeyContext[]).some((c) => c === 'global' || c === 'always' || c === 'connect' || c === 'help')) continue;
      // Rows of the priority contexts are matched before the globals on purpose (Tab takes a suggestion).
      if ((row.in as readonly KeyContext[]).every((c) => PRIORITY_CONTEXTS.includes(c))) continue;
      for (const b of row.keys) expect(global.has(spec(b)), `${row.command}: ${spec(b)}`).toBe(false);
    }
  });

  it('every command has help text; every section shows on the ? screen', () => {
    for (const row of KEY_TABLE) expect(row.does.length, row.command).toBeGreaterThan(3);
    const help = helpLines(100).map(lineText).join('\n');
    for (const s of helpSections()) {
      expect(help).toContain(s.title);
      for (const key of s.keys) expect(help).toContain(key.keys);
    }
    expect(help).toContain('Tab / Shift-Tab');
    expect(help).toContain('Ctrl-C Ctrl-C');
    expect(help).toContain('Ctrl-D');
  });

  it('labels keys for people', () => {
    expect(keyLabel('ctrl-d')).toBe('Ctrl-D');
    expect(keyLabel(' ')).toBe('Space');
    expect(keyLabel('return')).toBe('Enter');
    expect(rowLabel(KEY_TABLE.find((r) => r.command === 'diffs.step')!)).toBe('← / → / [ / ]');
  });
});

describe('matchKey', () => {
  it('first context first: Home browses diffs in the Diffs pane, scrolls elsewhere', () => {
    expect(matchKey('', { ...k, home: true }, ['diffs', 'view'])).toEqual({ command: 'diffs.edge', arg: -1 });
    expect(matchKey('', { ...k, home: true }, ['server', 'view'])).toEqual({ command: 'move.edge', arg: -1 });
    expect(matchKey('G', plainKey('G'), ['log', 'view'])).toEqual({ command: 'move.edge', arg: 1 });
  });

  it('while typing, characters are text: j, q, ? match nothing; arrows and Ctrl keys still do', () => {
    const filter = toolListContexts(true);
    expect(matchKey('j', k, filter)).toBeUndefined();
    expect(matchKey('q', k, ['global'], true)).toBeUndefined();
    expect(matchKey('q', k, ['global'], false)).toEqual({ command: 'quit', arg: 1 });
    expect(matchKey('', { ...k, downArrow: true }, filter)).toEqual({ command: 'move.line', arg: 1 });
    expect(matchKey('', { ...k, home: true }, filter)?.command).toBe('text.edge');
    expect(matchKey('u', { ...k, ctrl: true }, filter)?.command).toBe('text.clear');
    expect(matchKey('', { ...k, tab: true }, ['global'], true)).toEqual({ command: 'pane.cycle', arg: 1 });
    expect(matchKey('', { ...k, tab: true, shift: true }, ['global'], true)).toEqual({ command: 'pane.cycle', arg: -1 });
  });

  it('Ctrl-D is not d (the form deletes an item, the Diffs pane stays shut)', () => {
    const ctrlD = { ...k, ctrl: true };
    expect(keyMatches('d', 'd', ctrlD)).toBe(false);
    expect(matchKey('d', ctrlD, ['global'])).toBeUndefined();
    expect(matchKey('d', ctrlD, ['form', 'form-boolean'])?.command).toBe('form.deleteItem');
    expect(matchKey('d', k, ['global'])?.command).toBe('diffs.open');
  });

  it('b and Space page only in text views', () => {
    expect(matchKey(' ', k, ['view'])).toEqual({ command: 'move.page', arg: 1 });
    expect(matchKey(' ', k, ['list'])).toBeUndefined();
    expect(matchKey('b', k, ['list'])).toBeUndefined();
  });

  it('the help screen scrolls, any other key closes it', () => {
    expect(matchKey('j', k, HELP_CONTEXTS)?.command).toBe('move.line');
    expect(matchKey('x', k, HELP_CONTEXTS)?.command).toBe('help.close');
    expect(matchKey('', { ...k, escape: true }, HELP_CONTEXTS)?.command).toBe('help.close');
  });

  it('form rows have their own keys', () => {
    expect(isCharSpec(' ')).toBe(true);
    const arrayRow = formContexts({ role: 'array' } as never);
    expect(matchKey('+', k, arrayRow)?.command).toBe('form.addItem');
    expect(matchKey('t', k, ['form', 'form-boolean'])).toEqual({ command: 'form.set', arg: 1 });
    expect(matchKey('f', k, ['form', 'form-boolean'])).toEqual({ command: 'form.set', arg: 0 });
    expect(matchKey('', { ...k, leftArrow: true }, ['form', 'form-enum'])).toEqual({ command: 'form.choose', arg: -1 });
  });
});

describe('hintLine', () => {
  it('is built from the rows of where the user is', () => {
    expect(hintLine([...toolListContexts(false), 'global', 'always'])).toBe('/ filter · Enter open · ↑↓ move · Tab panes · ? keys · d diffs · w wire · q quit');
    expect(hintLine([...toolListContexts(true), 'global', 'always'])).toBe('Enter keep · Esc clear · ↑↓ move · Tab panes · Ctrl-C twice quits');
    expect(hintLine(['form', 'text', 'global', 'always'])).toBe('↑↓ field · Enter call · Esc back · Tab panes · Ctrl-C twice quits');
    expect(hintLine(['log', 'list', 'global', 'always'])).toBe(
      'Enter open · l level shown · L server level · ↑↓ move · G follow · Tab panes · ? keys · q quit',
    );
    expect(hintLine(['wire', 'list', 'global', 'always'])).toBe('Enter open · ↑↓ move · G follow · Tab panes · ? keys · w hide · q quit');
    expect(hintLine(HELP_CONTEXTS)).toBe('↑↓ scroll · any other key closes');
    expect(hintLine(['connect-failed', 'connect', 'always'])).toBe('r retry · q quit');
  });
});

describe('the pane registry', () => {
  it('has unique ids; pane keys are global commands', () => {
    const ids = PANES.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(['tools', 'server', 'listen', 'prompts', 'resources', 'diffs', 'log', 'wire', 'roots', 'history']);
    for (const p of PANES) if (p.key) expect((KEY_TABLE.find((r) => r.command === p.key)!.in as readonly KeyContext[]).includes('global')).toBe(true);
  });
});
