/* Following views (Listen, Log): which moves follow the newest lines. Pure arithmetic. */
import { describe, expect, it } from 'vitest';
import { followBy, followOffset } from '../../src/tui/lines/scroll.js';

const edge = (arg: number) => ({ command: 'move.edge' as const, arg });
const line = (arg: number) => ({ command: 'move.line' as const, arg });

describe('followBy', () => {
  it('g stops following also while every line fits (the lines that come next keep the view at the top)', () => {
    const f = followBy(edge(-1), { offset: 0, follow: true }, 1, 5);
    expect(f).toEqual({ offset: 0, follow: false });
    expect(followOffset(f!, 31, 5)).toBe(0);
  });

  it('a move down that reaches the bottom follows again; one short of it does not', () => {
    expect(followBy(edge(1), { offset: 0, follow: false }, 31, 5)).toEqual({ offset: 26, follow: true });
    expect(followBy(line(1), { offset: 24, follow: false }, 31, 5)).toEqual({ offset: 25, follow: false });
    expect(followBy(line(1), { offset: 25, follow: false }, 31, 5)).toEqual({ offset: 26, follow: true });
  });

  it('↑ from the bottom reads back; a key that does not scroll changes nothing', () => {
    expect(followBy(line(-1), { offset: 0, follow: true }, 31, 5)).toEqual({ offset: 25, follow: false });
    expect(followBy(undefined, { offset: 0, follow: true }, 31, 5)).toBeUndefined();
  });
});
