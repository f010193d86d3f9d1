/**
 * One server entry as a client wrote it → a validated {@link ServerEntry}. Unknown fields are
 * ignored (clients add their own: `alwaysAllow`, `autoApprove`, `timeout`…); known fields of
 * the wrong type are errors naming the file, line, column, server and field. Pure.
 */
import type { ParsedDocument, Position, ShowPath } from './parse.js';
import { ConfigError, ENTRY_TYPES, type ConfigInput, type EntryTransport, type EntryType, type OAuthEntry, type ServerEntry } from './types.js';

/** Where an entry sits, for messages. */
export interface EntryPlace {
  file: string;
  name: string;
  /** The path of the entry in the document (e.g. `['mcpServers', 'github']`). */
  path: (string | number)[];
  doc: ParsedDocument;
  show: ShowPath;
}

type Raw = Record<string, unknown>;

function isObject(v: unknown): v is Raw {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** Builds the error for `field` of the entry at `place` (the entry itself when field is empty). */
export function entryError(place: EntryPlace, field: (string | number)[], what: string): ConfigError {
  const pos: Position | undefined = place.doc.positionOf([...place.path, ...field]) ?? place.doc.positionOf(place.path);
  const where = pos ? `${place.show(place.file)}:${pos.line}:${pos.column}` : place.show(place.file);
  const label = field.length ? `: "${field.join('.')}"` : '';
  return new ConfigError('MCPI_CONFIG_SHAPE', `${where}: server "${place.name}"${label} ${what}`, { file: place.file, ...pos, server: place.name });
}

/**
 * Validates and normalizes an entry in the common JSON shape (Claude Code, Claude Desktop,
 * Cursor, VS Code, Windsurf; our `roots` and `oauth`). Throws ConfigError('MCPI_CONFIG_SHAPE').
 */
export function readEntry(raw: unknown, place: EntryPlace): ServerEntry {
  if (!isObject(raw)) throw entryError(place, [], `must be an object (got ${describe(raw)})`);
  const bad = (field: string, what: string) => entryError(place, [field], what);
  const str = (field: string): string | undefined => {
    const v = raw[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw bad(field, `must be a string (got ${describe(v)})`);
    return v;
  };

  let type: EntryType | undefined;
  if (raw.type !== undefined && raw.type !== null) {
    if (typeof raw.type !== 'string') throw bad('type', `must be a string (got ${describe(raw.type)})`);
    const t = raw.type.toLowerCase();
    if (!(ENTRY_TYPES as readonly string[]).includes(t))
      throw bad('type', `is ${JSON.stringify(raw.type)}, which mcp-inspect does not know (known: ${ENTRY_TYPES.join(', ')})`);
    type = t as EntryType;
  }
  const command = str('command');
  const url = str('url');
  const serverUrl = str('serverUrl');
  if (url !== undefined && serverUrl !== undefined && url !== serverUrl) throw bad('serverUrl', 'differs from "url"; keep one');
  const theUrl = url ?? serverUrl;
  const urlField = url !== undefined ? 'url' : 'serverUrl';

  let transport: EntryTransport;
  if (type === 'stdio') {
    if (!command) throw entryError(place, [], `has type "stdio" but no "command"`);
    transport = 'stdio';
  } else if (type) {
    if (!theUrl) throw entryError(place, [], `has type "${type}" but no "url"`);
    transport = type === 'sse' ? 'sse' : 'http';
  } else if (command && theUrl) {
    throw entryError(place, [], `has both "command" and "${urlField}"; say which with "type": "stdio" or "http"`);
  } else if (command) {
    transport = 'stdio';
  } else if (theUrl) {
    transport = 'http';
  } else {
    throw entryError(place, [], 'has neither "command" nor "url"');
  }
  if (command !== undefined && !command.trim()) throw bad('command', 'is empty');

  const entry: ServerEntry = { transport };
  if (type) entry.type = type;
  if (transport === 'stdio') {
    entry.command = command!;
    const args = raw.args;
    if (args !== undefined && args !== null) {
      if (!Array.isArray(args)) throw bad('args', `must be an array of strings (got ${describe(args)})`);
      entry.args = args.map((a, i) => {
        if (typeof a === 'string') return a;
        if (typeof a === 'number' || typeof a === 'boolean') return String(a);
        throw entryError(place, ['args', i], `must be a string (got ${describe(a)})`);
      });
    }
    const env = stringMap(raw.env, 'env', place);
    if (env) entry.env = env;
    const envFile = str('envFile');
    if (envFile !== undefined) entry.envFile = envFile;
    const cwd = str('cwd');
    if (cwd !== undefined) entry.cwd = cwd;
  } else {
    entry.url = theUrl!;
    const headers = stringMap(raw.headers, 'headers', place);
    if (headers) entry.headers = headers;
  }
  if (raw.disabled !== undefined && raw.disabled !== null) {
    if (typeof raw.disabled !== 'boolean') throw bad('disabled', `must be true or false (got ${describe(raw.disabled)})`);
    if (raw.disabled) entry.disabled = true;
  }
  const roots = raw.roots;
  if (roots !== undefined && roots !== null) {
    if (!Array.isArray(roots)) throw bad('roots', `must be an array of paths (got ${describe(roots)})`);
    entry.roots = roots.map((r, i) => {
      if (typeof r !== 'string' || !r.trim()) throw entryError(place, ['roots', i], `must be a path (got ${describe(r)})`);
      return r;
    });
  }
  if (raw.oauth !== undefined && raw.oauth !== null) entry.oauth = readOAuth(raw.oauth, place);
  return entry;
}

function readOAuth(raw: unknown, place: EntryPlace): OAuthEntry {
  if (!isObject(raw)) throw entryError(place, ['oauth'], `must be an object (got ${describe(raw)})`);
  const out: OAuthEntry = {};
  for (const key of ['clientId', 'clientSecret', 'clientMetadataUrl'] as const) {
    const v = raw[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw entryError(place, ['oauth', key], `must be a string (got ${describe(v)})`);
    out[key] = v;
  }
  if (raw.scopes !== undefined && raw.scopes !== null) {
    // A space-separated string is how OAuth writes scopes; accept it besides an array.
    if (typeof raw.scopes === 'string') out.scopes = raw.scopes.split(/\s+/).filter(Boolean);
    else if (Array.isArray(raw.scopes) && raw.scopes.every((s) => typeof s === 'string')) out.scopes = raw.scopes;
    else throw entryError(place, ['oauth', 'scopes'], `must be an array of strings (got ${describe(raw.scopes)})`);
  }
  if (raw.callbackPort !== undefined && raw.callbackPort !== null) {
    if (typeof raw.callbackPort !== 'number' || !Number.isInteger(raw.callbackPort) || raw.callbackPort < 0 || raw.callbackPort > 65535) {
      throw entryError(place, ['oauth', 'callbackPort'], `must be a port number (got ${describe(raw.callbackPort)})`);
    }
    out.callbackPort = raw.callbackPort;
  }
  return out;
}

/** An object of strings; numbers and booleans are written as text; null values are left out. */
function stringMap(raw: unknown, field: string, place: EntryPlace): Record<string, string> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) throw entryError(place, [field], `must be an object of strings (got ${describe(raw)})`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === null || v === undefined) continue;
    if (typeof v === 'string') out[k] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
    else throw entryError(place, [field, k], `must be a string (got ${describe(v)})`);
  }
  return out;
}

/**
 * Maps a Codex `[mcp_servers.NAME]` table onto the common shape, then validates it:
 * `http_headers` → headers, `env_http_headers = {Header = "ENV"}` → `Header: ${env:ENV}`,
 * `bearer_token_env_var = "ENV"` → `Authorization: Bearer ${env:ENV}`, `enabled = false` →
 * disabled, `[….oauth] client_id` → oauth.clientId, `scopes` → oauth.scopes.
 * Codex speaks stdio and streamable HTTP only, so a `url` is `http`.
 */
export function readCodexEntry(raw: unknown, place: EntryPlace): ServerEntry {
  if (!isObject(raw)) throw entryError(place, [], `must be a table (got ${describe(raw)})`);
  const common: Raw = {};
  for (const k of ['command', 'args', 'env', 'cwd', 'url', 'roots']) if (raw[k] !== undefined) common[k] = raw[k];
  if (raw.url !== undefined) {
    const headers: Record<string, unknown> = {};
    if (raw.http_headers !== undefined) {
      if (!isObject(raw.http_headers)) throw entryError(place, ['http_headers'], `must be a table of strings (got ${describe(raw.http_headers)})`);
      Object.assign(headers, raw.http_headers);
    }
    if (raw.env_http_headers !== undefined) {
      if (!isObject(raw.env_http_headers))
        throw entryError(place, ['env_http_headers'], `must be a table of variable names (got ${describe(raw.env_http_headers)})`);
      for (const [h, envName] of Object.entries(raw.env_http_headers)) {
        if (typeof envName !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(envName))
          throw entryError(place, ['env_http_headers', h], `must name an environment variable (got ${describe(envName)})`);
        headers[h] = `\${env:${envName}}`;
      }
    }
    if (raw.bearer_token_env_var !== undefined) {
      const v = raw.bearer_token_env_var;
      if (typeof v !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v))
        throw entryError(place, ['bearer_token_env_var'], `must name an environment variable (got ${describe(v)})`);
      headers.Authorization = `Bearer \${env:${v}}`;
    }
    if (Object.keys(headers).length) common.headers = headers;
  }
  if (raw.enabled !== undefined) {
    if (typeof raw.enabled !== 'boolean') throw entryError(place, ['enabled'], `must be true or false (got ${describe(raw.enabled)})`);
    if (!raw.enabled) common.disabled = true;
  }
  const oauth: Raw = {};
  if (isObject(raw.oauth)) {
    if (raw.oauth.client_id !== undefined) oauth.clientId = raw.oauth.client_id;
    if (raw.oauth.client_secret !== undefined) oauth.clientSecret = raw.oauth.client_secret;
  }
  if (raw.scopes !== undefined) oauth.scopes = raw.scopes;
  if (Object.keys(oauth).length) common.oauth = oauth;
  return readEntry(common, place);
}

/**
 * Reads a VS Code `inputs` array. Entries without a string `id` are skipped (VS Code would
 * not use them either); returns the valid declarations.
 */
export function readInputs(raw: unknown): ConfigInput[] {
  if (!Array.isArray(raw)) return [];
  const out: ConfigInput[] = [];
  for (const i of raw) {
    if (!isObject(i) || typeof i.id !== 'string' || !i.id) continue;
    const input: ConfigInput = { id: i.id, type: typeof i.type === 'string' ? i.type : 'promptString' };
    if (typeof i.description === 'string') input.description = i.description;
    if (i.password === true) input.password = true;
    if (typeof i.default === 'string') input.default = i.default;
    if (Array.isArray(i.options)) {
      // pickString options are strings or {label, value}.
      const options = i.options
        .map((o) => (typeof o === 'string' ? o : isObject(o) && typeof o.value === 'string' ? o.value : undefined))
        .filter((o): o is string => o !== undefined);
      if (options.length) input.options = options;
    }
    out.push(input);
  }
  return out;
}

/** A short description of a JSON value's kind, for messages. */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `the text ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  return `${typeof v === 'number' ? 'the number' : typeof v} ${String(v)}`;
}
