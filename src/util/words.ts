/** Command-line words: splitting a line as a shell would, without a shell. */

/**
 * Splits a command line into words as a POSIX shell does for plain words, 'single' and
 * "double" quotes and backslash escapes, with no expansion of any kind (no variables, globs
 * or substitutions: nothing is run). Pure. Throws an Error `unterminated " quote` (or `'`).
 */
export function splitWords(cmd: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < cmd.length; i++) {
    const c = cmd[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else cur += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < cmd.length && '"\\$`'.includes(cmd[i + 1])) cur += cmd[++i];
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < cmd.length) {
      cur += cmd[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote`);
  if (inWord) words.push(cur);
  return words;
}
