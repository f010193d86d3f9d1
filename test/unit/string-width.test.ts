import realStringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import stringWidth, { PER_CODE_POINT } from '../../src/tui/lines/stringWidth.js';

/** Every code point counted from the table: the BMP code points that PER_CODE_POINT matches (1,846). */
const tableChars = Array.from({ length: 0x10000 }, (_, i) => String.fromCharCode(i)).filter((c) => PER_CODE_POINT.test(c));
const segments = (s: string) => [...new Intl.Segmenter().segment(s)].length;

describe('stringWidth: string-width counted from a table of code points (the shipped TUI measures with it)', () => {
  it('each code point of the table is a grapheme cluster of its own, whatever stands beside it', () => {
    expect(tableChars.length).toBe(1846);
    expect(tableChars.some((c) => c.charCodeAt(0) >= 0xd800 && c.charCodeAt(0) <= 0xdfff)).toBe(false);
    // A code point that joins the one before it (a mark, a joiner, a spacing mark) or after it
    // (prepend), or its own kind (Hangul jamo, regional indicators), would not be 3 and 2 here.
    const joining = tableChars.filter((c) => segments(`a${c}a`) !== 3 || segments(`${c}${c}`) !== 2 || segments(`${c}\u2500${c}`) !== 3);
    expect(joining).toEqual([]);
  });

  it('gives string-width’s answer for every code point of the table alone and for mixed and styled strings of them', () => {
    for (const c of tableChars) expect(stringWidth(c), `U+${c.codePointAt(0)!.toString(16)}`).toBe(realStringWidth(c));
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let i = 0; i < 2000; i++) {
      const s = Array.from({ length: 1 + rnd(24) }, () => tableChars[rnd(tableChars.length)]).join('');
      expect(stringWidth(s), JSON.stringify(s)).toBe(realStringWidth(s));
    }
    // Styled, as Ink measures the TUI's text: SGR codes between the characters.
    const sgr = ['\u001b[1m', '\u001b[22m', '\u001b[90m', '\u001b[39m', '\u001b[7m', '\u001b[38;5;123m', '\u001b[m', '\u009b31m'];
    for (let i = 0; i < 2000; i++) {
      const s = Array.from({ length: 1 + rnd(24) }, () => (rnd(4) === 0 ? sgr[rnd(sgr.length)] : tableChars[rnd(tableChars.length)])).join('');
      expect(stringWidth(s), JSON.stringify(s)).toBe(realStringWidth(s));
    }
    expect(stringWidth('›  Echo (echo)  Echoes your text back as a tex… ro? idem? · ●')).toBe(
      realStringWidth('›  Echo (echo)  Echoes your text back as a tex… ro? idem? · ●'),
    );
  });

  it('leaves every other string, and any options, to string-width', () => {
    const others = [
      '',
      'plain ascii',
      '\u001b[1mbold\u001b[22m › x', // ANSI codes are not counted
      '\u001b]8;;https://example.com\u0007link\u001b]8;;\u0007 ›', // an OSC 8 link
      '\u001b[12345m › \u001b[', // malformed codes
      'e\u0301 accent', // a combining mark joins the e
      '❤\ufe0f love', // VS16: an emoji presentation (2 columns)
      '👍🏽 ok', // an emoji with a skin tone (astral)
      '👨‍👩‍👧 family', // a ZWJ sequence
      '한국어 · 日本語', // Hangul and CJK (wide)
      '\u1100\u1161 jamo',
      '🇫🇷 flag',
      'tab\there\nnewline',
      'zero\u200bwidth',
    ];
    for (const s of others) expect(stringWidth(s), JSON.stringify(s)).toBe(realStringWidth(s));
    expect(stringWidth('±·', { ambiguousIsNarrow: false })).toBe(realStringWidth('±·', { ambiguousIsNarrow: false }));
    expect(stringWidth('±·', { ambiguousIsNarrow: false })).toBe(4);
  });
});
