/**
 * Reading config text: JSONC (comments and trailing commas, as VS Code and Cursor allow) with
 * `jsonc-parser`, TOML (Codex) with `smol-toml`. Errors carry line and column; a parsed JSON
 * document can tell where a value sits, so entry errors point at the field. Pure.
 */
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { parse as parseTomlText, TomlError } from 'smol-toml';
import { ConfigError } from './types.js';

/** A 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

/** A parsed document: its value, and where a value sits (JSON only; TOML gives no positions). */
export interface ParsedDocument {
  value: unknown;
  /** The position of the value at `path` (object keys and array indexes), or undefined. */
  positionOf(path: (string | number)[]): Position | undefined;
  /** The keys of the object at `path` in the order written (JS objects reorder integer-like keys). */
  keysOf(path: (string | number)[]): string[] | undefined;
}

/** Line and column (1-based) of a character offset; `\r\n`, `\n` and `\r` end lines. */
export function positionAt(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/** Plain words for jsonc-parser's error codes. */
const JSON_ERROR_WORDS: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'a property name (in double quotes) was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: 'a colon was expected',
  CommaExpected: 'a comma was expected',
  CloseBraceExpected: 'a closing } was expected',
  CloseBracketExpected: 'a closing ] was expected',
  EndOfFileExpected: 'the end of the file was expected (extra text after the value)',
  InvalidCommentToken: 'invalid comment',
  UnexpectedEndOfComment: 'the file ends inside a /* comment',
  UnexpectedEndOfString: 'the file ends inside a string',
  UnexpectedEndOfNumber: 'the file ends inside a number',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'a control character inside a string',
};

/** A display form of a path for messages (`~/…` under home). */
export type ShowPath = (file: string) => string;

/**
 * Parses JSONC: comments and trailing commas are accepted, an empty file is `undefined`.
 * Throws ConfigError('MCPI_CONFIG_SYNTAX') at the first error, naming file, line and column.
 */
export function parseJsonc(text: string, file: string, show: ShowPath = (f) => f): ParsedDocument {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  if (errors.length) {
    const first = errors[0];
    const at = positionAt(text, first.offset);
    const code = printParseErrorCode(first.error);
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more error${errors.length > 2 ? 's' : ''})` : '';
    throw new ConfigError('MCPI_CONFIG_SYNTAX', `${show(file)}:${at.line}:${at.column}: not valid JSON: ${JSON_ERROR_WORDS[code] ?? code}${more}`, {
      file,
      ...at,
    });
  }
  const nodeAt = (p: (string | number)[]): Node | undefined => (tree ? findNodeAtLocation(tree, p) : undefined);
  return {
    value: tree ? getNodeValue(tree) : undefined,
    positionOf(p) {
      const node = nodeAt(p);
      return node ? positionAt(text, node.offset) : undefined;
    },
    keysOf(p) {
      const node = p.length ? nodeAt(p) : tree;
      if (!node || node.type !== 'object') return undefined;
      const keys: string[] = [];
      for (const prop of node.children ?? []) {
        const k: unknown = prop.children?.[0]?.value;
        // A repeated key counts once, where it was first written (its value is the last one, as JSON.parse does).
        if (typeof k === 'string' && !keys.includes(k)) keys.push(k);
      }
      return keys;
    },
  };
}

/** Parses TOML. Throws ConfigError('MCPI_CONFIG_SYNTAX') naming file, line and column. */
export function parseToml(text: string, file: string, show: ShowPath = (f) => f): ParsedDocument {
  let value: unknown;
  try {
    value = parseTomlText(text);
  } catch (e) {
    if (e instanceof TomlError) {
      // smol-toml's message is "Invalid TOML document: <why>\n\n<code frame>": keep the why.
      const why = e.message.replace(/^Invalid TOML document:\s*/, '').split('\n')[0];
      throw new ConfigError('MCPI_CONFIG_SYNTAX', `${show(file)}:${e.line}:${e.column}: not valid TOML: ${why}`, {
        file,
        line: e.line,
        column: e.column,
        cause: e,
      });
    }
    throw new ConfigError('MCPI_CONFIG_SYNTAX', `${show(file)}: not valid TOML: ${(e as Error).message}`, { file, cause: e });
  }
  return {
    value,
    positionOf: () => undefined,
    keysOf(p) {
      let v: unknown = value;
      for (const k of p) v = v && typeof v === 'object' ? (v as Record<string | number, unknown>)[k] : undefined;
      return v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : undefined;
    },
  };
}
