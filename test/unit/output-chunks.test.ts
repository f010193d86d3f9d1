import { afterEach, describe, expect, it, vi } from 'vitest';
import { bufferedOut, writeOut } from '../../src/cli/stdout.js';
import { makeOut, present } from '../../src/cli/output.js';
import { FindingLog } from '../../src/cli/findings.js';

afterEach(() => vi.restoreAllMocks());

/** Replaces process.stdout.write and process.stderr.write with recorders; returns the writes in order. */
function record(): { stream: 'out' | 'err'; text: string }[] {
  const writes: { stream: 'out' | 'err'; text: string }[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => (writes.push({ stream: 'out', text: String(s) }), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (writes.push({ stream: 'err', text: String(s) }), true));
  return writes;
}

describe('stdout in large chunks', () => {
  it('bufferedOut: 5,000 lines are a handful of writes of ≤ ~64 KB, in order, all written', () => {
    const writes = record();
    const lines = Array.from({ length: 5000 }, (_, i) => `tool_${i} — a line of a listing, about a hundred characters long, as tools prints it\n`);
    bufferedOut(() => lines.forEach((l) => writeOut(l)));
    const total = lines.join('');
    expect(writes.map((w) => w.text).join('')).toBe(total);
    expect(writes.length).toBeLessThanOrEqual(Math.ceil(total.length / (64 * 1024)) + 1);
    for (const w of writes) expect(w.text.length).toBeLessThan(64 * 1024 + 200);
  });

  it('outside bufferedOut every writeOut is written at once', () => {
    const writes = record();
    writeOut('a\n');
    expect(writes).toEqual([{ stream: 'out', text: 'a\n' }]);
  });

  it('present: a text result is written in one chunk; a stderr line in the middle keeps its place', () => {
    const writes = record();
    const out = makeOut({ color: false });
    present(
      {
        exitCode: 0,
        text: (o) => {
          o.line('one');
          o.line('two');
          o.warn('between');
          o.line('three');
        },
      },
      out,
      new FindingLog(),
    );
    expect(writes).toEqual([
      { stream: 'out', text: 'one\ntwo\n' },
      { stream: 'err', text: 'warning: between\n' },
      { stream: 'out', text: 'three\n' },
    ]);
  });

  it('a stream item of several lines is one write', () => {
    const writes = record();
    makeOut({ color: false }).item({}, () => ['a', 'b', 'c']);
    expect(writes).toEqual([{ stream: 'out', text: 'a\nb\nc\n' }]);
  });
});
