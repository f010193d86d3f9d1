/**
 * Roots the user gives mcp-inspect to expose (`--root PATH`, repeatable; a config entry's
 * `roots` array), turned into the `file://` roots a `roots/list` answer carries. Pure: the
 * working directory is passed in, nothing is read from disk (whether the directory exists is
 * the caller's business).
 *
 * spec: client/roots#root (uri MUST be file://, name optional)
 */
import { basename, isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Root } from './mrtr.js';

/**
 * One `--root` argument: a `file://` URI (kept as given, after checking it parses) or a path
 * (resolved against `cwd`, then turned into a `file://` URI with percent-encoding). The name is
 * the last path segment (`/` for the file-system root). Throws `TypeError` with a user-facing
 * sentence for an empty argument, another URI scheme, or a malformed `file:` URI.
 */
export function rootFromArg(arg: string, cwd: string): Root {
  const s = arg.trim();
  if (s === '') throw new TypeError('--root needs a path or a file:// URI');
  // A single letter before ':' is a drive letter (C:\x), not a scheme.
  if (/^[a-z][a-z0-9+.-]+:/i.test(s)) {
    if (!/^file:/i.test(s)) throw new TypeError(`a root must be a file:// URI or a path (got ${JSON.stringify(s)})`);
    let path: string;
    try {
      path = fileURLToPath(s);
    } catch (e) {
      throw new TypeError(`not a usable file:// URI: ${JSON.stringify(s)} (${(e as Error).message})`);
    }
    return { uri: s, name: basename(path) || '/' };
  }
  const abs = isAbsolute(s) ? resolve(s) : resolve(cwd, s);
  return { uri: pathToFileURL(abs).href, name: basename(abs) || '/' };
}

/**
 * A config entry's `roots` array: strings (as {@link rootFromArg}) or `{uri, name?}` objects.
 * Relative paths resolve against `baseDir` (the config file's directory). Throws `TypeError`
 * naming the index of the first bad entry.
 */
export function rootsFromConfig(value: unknown, baseDir: string): Root[] {
  if (!Array.isArray(value)) throw new TypeError('roots must be an array of paths, file:// URIs or {uri, name} objects');
  return value.map((v, i) => {
    try {
      if (typeof v === 'string') return rootFromArg(v, baseDir);
      if (v && typeof v === 'object' && typeof (v as Root).uri === 'string') {
        const r = rootFromArg((v as Root).uri, baseDir);
        const name = (v as Root).name;
        return typeof name === 'string' ? { ...r, name } : r;
      }
      throw new TypeError('expected a string or {uri, name}');
    } catch (e) {
      throw new TypeError(`roots[${i}]: ${(e as Error).message}`);
    }
  });
}
