/**
 * Resolving what the user pointed at into a {@link Target}: a URL, a command after `--`, or an
 * entry of an MCP config file (`{"mcpServers": …}` as in Claude Desktop and Cursor, `{"servers": …}`
 * as in VS Code).
 */
import { readFileSync, statSync } from 'node:fs';
import { UsageError } from '../protocol/errors.js';
import { redactUrl } from '../util/redact.js';
import type { Target } from '../client/types.js';

export interface TargetFlags {
  header?: string[];
  bearer?: string;
  env?: string[];
  cwd?: string;
  config?: string;
  server?: string;
}

/** True when `s` looks like an http(s) URL. */
export function isUrl(s: string | undefined): s is string {
  return !!s && /^https?:\/\//i.test(s);
}

/** Parses `Name: value` headers. Throws UsageError for a malformed one. */
export function parseHeaders(list: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) {
    const i = h.indexOf(':');
    const name = i > 0 ? h.slice(0, i).trim() : '';
    // The value is not echoed: a malformed header is often a token pasted without its name.
    if (!name || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name))
      throw new UsageError(`--header must look like 'Name: value' (got ${i > 0 ? `an invalid name ${JSON.stringify(name.slice(0, 40))}` : 'no colon'})`);
    const value = h.slice(i + 1).trim();
    if (!isHeaderValue(value)) throw new UsageError(`--header ${name}: the value has characters a header cannot carry (control characters or non-ASCII)`);
    out[name] = value;
  }
  return out;
}

/** True when `v` can be sent as an HTTP header value (visible ASCII, space, tab). */
function isHeaderValue(v: string): boolean {
  return /^[\t\x20-\x7e]*$/.test(v);
}

/** Parses `K=V` environment pairs. */
export function parseEnv(list: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of list) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new UsageError(`--env must look like KEY=VALUE (got ${JSON.stringify(kv)})`);
    out[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return out;
}

function httpTarget(url: string, flags: TargetFlags, configHeaders: Record<string, string> = {}): Target {
  try {
    new URL(url);
  } catch {
    throw new UsageError(`not a valid URL: ${url}`);
  }
  const headers = { ...configHeaders, ...parseHeaders(flags.header) };
  const token = flags.bearer ?? process.env.MCP_BEARER_TOKEN;
  if (token && !isHeaderValue(token.trim()))
    throw new UsageError(`the bearer token (${flags.bearer ? '--bearer' : 'MCP_BEARER_TOKEN'}) has characters a header cannot carry (a newline?)`);
  if (token && !Object.keys(headers).some((k) => k.toLowerCase() === 'authorization')) headers.Authorization = `Bearer ${token.trim()}`;
  return { kind: 'http', url, headers };
}

/**
 * Builds the target from a URL operand, the words after `--`, or `--config/--server`.
 * Throws UsageError when none or more than one is given, or the config is unusable.
 */
export function resolveTarget(url: string | undefined, command: string[], flags: TargetFlags): Target {
  const given = [url ? 'a URL' : '', command.length ? 'a command after --' : '', flags.config ? '--config' : ''].filter(Boolean);
  if (given.length > 1) throw new UsageError(`give one server: ${given.join(' and ')} were both given`);
  if (url) {
    if (flags.env?.length || flags.cwd) throw new UsageError('--env and --cwd apply to a spawned server (a command after --), not to a URL');
    if (!isUrl(url))
      throw new UsageError(
        `expected an http(s) URL, got ${JSON.stringify(url)}; to run a local server, put its command after --, e.g. mcp-inspect tools -- node server.js`,
      );
    return httpTarget(url, flags);
  }
  if (command.length) {
    if (flags.header?.length || flags.bearer) throw new UsageError('--header and --bearer apply to HTTP servers; a spawned server gets --env K=V instead');
    const [cmd, ...args] = command;
    return { kind: 'stdio', command: cmd, args, env: parseEnv(flags.env), cwd: checkCwd(flags.cwd) };
  }
  if (flags.config) return fromConfig(flags);
  throw new UsageError(
    'no server given: pass a URL (mcp-inspect tools http://127.0.0.1:3000/mcp), a command after -- (mcp-inspect tools -- node server.js), or --config FILE --server NAME',
  );
}

interface ConfigEntry {
  type?: string;
  command?: string;
  args?: unknown[];
  env?: Record<string, unknown>;
  cwd?: string;
  url?: string;
  headers?: Record<string, unknown>;
}

function fromConfig(flags: TargetFlags): Target {
  let text: string;
  try {
    text = readFileSync(flags.config!, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read --config ${flags.config}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  let doc: { mcpServers?: Record<string, ConfigEntry>; servers?: Record<string, ConfigEntry> };
  try {
    doc = JSON.parse(text) as typeof doc;
  } catch (e) {
    throw new UsageError(`--config ${flags.config} is not valid JSON: ${(e as Error).message}`);
  }
  const servers = doc?.mcpServers ?? doc?.servers;
  if (!servers || typeof servers !== 'object' || Array.isArray(servers))
    throw new UsageError(`--config ${flags.config} has neither "mcpServers" nor "servers"`);
  const names = Object.keys(servers);
  let name = flags.server;
  if (!name) {
    if (names.length !== 1)
      throw new UsageError(`--config ${flags.config} has ${names.length} servers; pick one with --server NAME (${names.join(', ') || 'none'})`);
    name = names[0]!;
  }
  const entry = servers[name];
  if (entry !== undefined && (entry === null || typeof entry !== 'object' || Array.isArray(entry)))
    throw new UsageError(`server ${name} in ${flags.config} is not an object`);
  if (!entry) throw new UsageError(`no server named ${JSON.stringify(name)} in ${flags.config}; it has: ${names.join(', ') || 'none'}`);
  const type = entry.type?.toLowerCase();
  if (entry.url || type === 'http' || type === 'streamable-http' || type === 'sse') {
    if (!entry.url) throw new UsageError(`server ${name} in ${flags.config} has type ${type} but no url`);
    if (typeof entry.url !== 'string') throw new UsageError(`server ${name} in ${flags.config}: "url" must be a string`);
    if (entry.headers !== undefined && (typeof entry.headers !== 'object' || entry.headers === null || Array.isArray(entry.headers)))
      throw new UsageError(`server ${name} in ${flags.config}: "headers" must be an object`);
    if (type === 'sse') throw new UsageError(`server ${name} uses the deprecated HTTP+SSE transport (type "sse"), which mcp-inspect does not speak`);
    return httpTarget(entry.url, flags, stringRecord(entry.headers));
  }
  if (!entry.command) throw new UsageError(`server ${name} in ${flags.config} has neither "command" nor "url"`);
  const bad = (field: string, want: string) => new UsageError(`server ${name} in ${flags.config}: "${field}" must be ${want}`);
  if (typeof entry.command !== 'string') throw bad('command', 'a string');
  if (entry.args !== undefined && (!Array.isArray(entry.args) || entry.args.some((a) => typeof a !== 'string' && typeof a !== 'number')))
    throw bad('args', 'an array of strings');
  if (entry.env !== undefined && (typeof entry.env !== 'object' || entry.env === null || Array.isArray(entry.env))) throw bad('env', 'an object of strings');
  if (entry.cwd !== undefined && typeof entry.cwd !== 'string') throw bad('cwd', 'a string');
  return {
    kind: 'stdio',
    command: entry.command,
    args: (entry.args ?? []).map(String),
    env: { ...stringRecord(entry.env), ...parseEnv(flags.env) },
    cwd: checkCwd(flags.cwd ?? entry.cwd),
  };
}

/** A working directory must exist before spawning (else the spawn error reads "command not found"). */
function checkCwd(cwd: string | undefined): string | undefined {
  if (cwd === undefined) return undefined;
  let ok = false;
  try {
    ok = statSync(cwd).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) throw new UsageError(`--cwd ${cwd}: no such directory`);
  return cwd;
}

function stringRecord(r: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(r ?? {})) if (v !== undefined && v !== null) out[k] = String(v);
  return out;
}

/** A short label of the target for headers and messages. */
export function targetLabel(t: Target): string {
  return t.kind === 'http' ? redactUrl(t.url) : [t.command, ...t.args].join(' ');
}
