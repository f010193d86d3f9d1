/**
 * Edit distance for did-you-mean suggestions (argument keys, tool names). A dozen lines of
 * Damerau-Levenshtein instead of a dependency: the inputs are short names, so the O(n·m) table is tiny.
 */

/**
 * Edit distance between `a` and `b` (optimal string alignment: insertions, deletions,
 * substitutions and swaps of two neighbours each cost 1, so `zpi` is 1 away from `zip`), by UTF-16 unit.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/**
 * The candidates close to `word`, closest first (ties keep the candidates' order), at most
 * `max`: case-insensitive distance at most a third of the longer name (at least 1), and less
 * than the longer name's length (a one-letter name is not "close" to another one-letter name).
 */
export function closest(word: string, candidates: readonly string[], max = 3): string[] {
  const w = word.toLowerCase();
  return candidates
    .map((c, i) => ({ c, i, d: editDistance(w, c.toLowerCase()), n: Math.max(w.length, c.length) }))
    .filter((x) => x.d <= Math.max(1, Math.floor(x.n / 3)) && x.d < x.n)
    .sort((x, y) => x.d - y.d || x.i - y.i)
    .slice(0, max)
    .map((x) => x.c);
}
