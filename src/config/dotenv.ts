/**
 * The `envFile` of VS Code and Cursor entries: dotenv syntax. Pure.
 */
import { ConfigError } from './types.js';

/**
 * Parses dotenv text: `KEY=VALUE` lines, an optional `export ` prefix, `#` comment lines and
 * trailing ` #` comments after unquoted values, single quotes (literal), double quotes
 * (`\n`, `\t`, `\"`, `\\` escapes; may span lines), blank lines. Variables are not expanded
 * (VS Code does not expand them either). Throws ConfigError('MCPI_CONFIG_SYNTAX') naming the
 * file and line of a line that is none of these.
 */
export function parseDotenv(text: string, file: string, shownFile = file): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.replace(/^\ufeff/, '').split(/\r\n|\n|\r/);
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    let line = lines[i].trim();
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('export ')) line = line.slice(7).trimStart();
    const m = /^([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/s.exec(line);
    if (!m) throw new ConfigError('MCPI_CONFIG_SYNTAX', `${shownFile}:${lineNo}:1: not a KEY=VALUE line`, { file, line: lineNo, column: 1 });
    const key = m[1];
    let value = m[2];
    const q = value[0];
    if (q === '"' || q === "'") {
      // A quoted value may continue on the following lines until its closing quote.
      let body = value.slice(1);
      let close = findClose(body, q);
      while (close < 0 && i + 1 < lines.length) {
        body += '\n' + lines[++i];
        close = findClose(body, q);
      }
      if (close < 0)
        throw new ConfigError('MCPI_CONFIG_SYNTAX', `${shownFile}:${lineNo}:${line.indexOf(q) + 1}: the quoted value of ${key} is not closed`, {
          file,
          line: lineNo,
        });
      const inner = body.slice(0, close);
      value = q === "'" ? inner : inner.replace(/\\([nrt"\\])/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c === 't' ? '\t' : c));
    } else {
      value = value.replace(/\s+#.*$/, '').trim();
    }
    out[key] = value;
  }
  return out;
}

function findClose(s: string, q: string): number {
  for (let i = 0; i < s.length; i++) {
    if (q === '"' && s[i] === '\\') {
      i++;
      continue;
    }
    if (s[i] === q) return i;
  }
  return -1;
}
