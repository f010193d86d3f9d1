import { describe, expect, it } from 'vitest';
import { MAX_TEXT_DIFF_BYTES, contentDiffLines, diffContents, diffTextLines } from '../../src/diff/content-diff.js';

const text = (uri: string, t: string, mimeType = 'text/plain') => ({ uri, mimeType, text: t });
const blob = (uri: string, bytes: number[]) => ({ uri, mimeType: 'application/octet-stream', blob: Buffer.from(bytes).toString('base64') });

describe('diffContents', () => {
  it('same content is unchanged', () => {
    const d = diffContents([text('a://x', 'one\n')], [text('a://x', 'one\n')]);
    expect(d.unchanged).toBe(true);
    expect(contentDiffLines(d)).toEqual([{ kind: 'info', text: 'content unchanged' }]);
  });
  it('text: a line diff with counts (the counter resource of the fixture)', () => {
    const d = diffContents(
      [text('surface://counter', 'count: 0\nupdated by touch_resource\n')],
      [text('surface://counter', 'count: 1\nupdated by touch_resource\n')],
    );
    const e = d.entries[0];
    expect(e.change).toBe('text');
    if (e.change !== 'text') return;
    expect([e.added, e.removed]).toEqual([1, 1]);
    expect(e.lines).toEqual([
      { kind: 'remove', text: 'count: 0' },
      { kind: 'add', text: 'count: 1' },
      { kind: 'same', text: 'updated by touch_resource' },
    ]);
  });
  it('a missing final newline or CRLF is not a change', () => {
    expect(diffTextLines('a\r\nb', 'a\nb\n')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'same', text: 'b' },
    ]);
  });
  it('a mime type change alone is a change', () => {
    const d = diffContents([text('a://x', 'x')], [text('a://x', 'x', 'text/markdown')]);
    expect(d.unchanged).toBe(false);
    expect(contentDiffLines(d)[0].text).toBe('a://x: +0 −0 lines, mimeType text/plain → text/markdown');
  });
  it('blobs: size and hash', () => {
    const d = diffContents([blob('b://1', [1, 2, 3])], [blob('b://1', [1, 2, 3, 4])]);
    const e = d.entries[0];
    expect(e.change).toBe('binary');
    if (e.change !== 'binary') return;
    expect([e.before.bytes, e.after.bytes]).toEqual([3, 4]);
    expect(e.before.sha256).toBe('039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81');
    expect(contentDiffLines(d)[0].text).toMatch(
      /^b:\/\/1: blob application\/octet-stream, 3 bytes, sha256 039058c6f2c0 → blob application\/octet-stream, 4 bytes, sha256 /,
    );
  });
  it('text ↔ blob is binary; entries pair by uri; unpaired are added / removed', () => {
    const d = diffContents([text('u://a', 'x'), text('u://gone', 'y')], [blob('u://a', [120]), text('u://new', 'z')]);
    expect(d.entries.map((e) => [e.change, e.uri])).toEqual([
      ['binary', 'u://a'],
      ['added', 'u://new'],
      ['removed', 'u://gone'],
    ]);
  });
  it('very large text is compared by hash only', () => {
    const big = 'x'.repeat(MAX_TEXT_DIFF_BYTES + 1);
    const e = diffContents([text('u://b', big)], [text('u://b', big + 'y')]).entries[0];
    expect(e.change === 'text' && e.tooLarge).toBe(true);
    expect(contentDiffLines(diffContents([text('u://b', big)], [text('u://b', big + 'y')]))[0].text).toMatch(/too large to diff/);
  });
  it('flags non-canonical base64', () => {
    const e = diffContents([], [{ uri: 'u://z', blob: 'AA E=' }]).entries[0];
    expect(e.change === 'added' && e.after.validBase64).toBe(false);
  });
});

describe('contentDiffLines', () => {
  it('shows context around changes and gaps for the rest', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 10', 'LINE 10');
    const lines = contentDiffLines(diffContents([text('u://f', before)], [text('u://f', after)]), 1);
    expect(lines).toEqual([
      { kind: 'info', text: 'u://f: +1 −1 lines' },
      { kind: 'gap', text: '… 9 unchanged lines' },
      { kind: 'same', text: 'line 9' },
      { kind: 'remove', text: 'line 10' },
      { kind: 'add', text: 'LINE 10' },
      { kind: 'same', text: 'line 11' },
      { kind: 'gap', text: '… 8 unchanged lines' },
    ]);
  });
});
