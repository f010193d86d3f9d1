/**
 * A discovered server → what the client connects to, after variable substitution. The only
 * reads are the entry's `envFile` (through the injected `ctx.readFile`) and the prompt for
 * `${input:ID}` values (the injected `ctx.prompt`).
 */
import { parseDotenv } from './dotenv.js';
import { pathFor, showPath } from './locations.js';
import { redactUrl } from '../util/redact.js';
import { inputIdsIn, substitute, type VariableScope } from './variables.js';
import { ConfigError, type ConfigInput, type ConfigSource, type DiscoveredServer, type OAuthEntry, type ResolveContext, type ServerEntry } from './types.js';

/**
 * What to connect to. `stdio` and `http` are the client's `Target` shapes (src/client/types.ts);
 * `sse` is the 2024-11-05 HTTP+SSE transport (`type: "sse"`), which skips transport detection.
 * `env` is added to the inherited environment.
 */
export type ConfigTarget =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: 'http'; url: string; headers: Record<string, string> }
  | { kind: 'sse'; url: string; headers: Record<string, string> };

/** A server ready to use: its target and our own fields, every variable substituted. */
export interface ResolvedServer {
  name: string;
  source: ConfigSource;
  /** The entry as written (variables not substituted), e.g. to tell an explicit `type` from a guessed one. */
  entry: ServerEntry;
  target: ConfigTarget;
  /** Absolute paths (relative ones resolved against the workspace folder); `file://` URIs kept as written. */
  roots?: string[];
  oauth?: OAuthEntry;
}

/** One string field of an entry and where it sits. */
interface Field {
  field: string;
  value: string;
}

function stringFields(e: ServerEntry): Field[] {
  const out: Field[] = [];
  const add = (field: string, value: string | undefined) => {
    if (value !== undefined) out.push({ field, value });
  };
  add('command', e.command);
  e.args?.forEach((a, i) => add(`args[${i}]`, a));
  for (const [k, v] of Object.entries(e.env ?? {})) add(`env.${k}`, v);
  add('envFile', e.envFile);
  add('cwd', e.cwd);
  add('url', e.url);
  for (const [k, v] of Object.entries(e.headers ?? {})) add(`headers.${k}`, v);
  e.roots?.forEach((r, i) => add(`roots[${i}]`, r));
  if (e.oauth) {
    add('oauth.clientId', e.oauth.clientId);
    add('oauth.clientSecret', e.oauth.clientSecret);
    add('oauth.clientMetadataUrl', e.oauth.clientMetadataUrl);
    e.oauth.scopes?.forEach((s, i) => add(`oauth.scopes[${i}]`, s));
  }
  return out;
}

/**
 * Gathers the value of every `${input:ID}` the entry uses, each once: the given
 * `ctx.inputs` value, else the answer of `ctx.prompt` (when given: interactive), else the
 * input's declared `default`, else ConfigError('MCPI_CONFIG_INPUT') naming the input and
 * `--config-input ID=VALUE`. An id not declared in the file's `inputs` is still asked
 * (masked, since nothing says it is not a secret).
 */
export async function gatherInputs(server: DiscoveredServer, ctx: ResolveContext): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  if (!server.entry) return values;
  for (const { field, value } of stringFields(server.entry)) {
    for (const id of inputIdsIn(value)) {
      if (id in values) continue;
      const given = ctx.inputs?.[id];
      if (given !== undefined) {
        values[id] = given;
        continue;
      }
      const declared: ConfigInput = server.inputs.find((i) => i.id === id) ?? { id, type: 'promptString', password: true };
      if (ctx.prompt) {
        values[id] = await ctx.prompt(declared);
        continue;
      }
      if (declared.default !== undefined) {
        values[id] = declared.default;
        continue;
      }
      const what = declared.description ? ` (${declared.description})` : '';
      throw new ConfigError(
        'MCPI_CONFIG_INPUT',
        `server "${server.name}" (${showPath(server.source.file, ctx)}), "${field}": \${input:${id}}${what} has no value; pass it with --config-input ${id}=VALUE (mcp-inspect asks for it only when stdin and stderr are terminals)`,
        { file: server.source.file, server: server.name, inputId: id },
      );
    }
  }
  return values;
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
const URI = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Substitutes every variable of the server's entry (command, args, env values, envFile,
 * cwd, url, header values, roots, oauth) and builds its target. Relative `cwd`, `envFile` and
 * `roots` are resolved against the workspace folder; `envFile` variables come first and the
 * entry's own `env` wins over them.
 * Throws ConfigError: the entry's own error ('MCPI_CONFIG_SHAPE'), 'MCPI_CONFIG_VARIABLE'
 * (undefined variable), 'MCPI_CONFIG_INPUT' (no value for an input), 'MCPI_CONFIG_READ'
 * (envFile missing), 'MCPI_CONFIG_SYNTAX' (envFile not dotenv), 'MCPI_CONFIG_SHAPE' (a url
 * that is not http(s), a header value a header cannot carry).
 */
export async function resolveEntry(server: DiscoveredServer, ctx: ResolveContext): Promise<ResolvedServer> {
  if (server.error || !server.entry)
    throw server.error ?? new ConfigError('MCPI_CONFIG_SHAPE', `server "${server.name}" has no usable entry`, { server: server.name });
  const entry = server.entry;
  const P = pathFor(ctx.platform);
  const shownFile = showPath(server.source.file, ctx);
  const scope: VariableScope = {
    env: ctx.env,
    platform: ctx.platform,
    userHome: ctx.home,
    workspaceFolder: server.source.workspaceFolder,
    inputs: await gatherInputs(server, ctx),
  };
  const sub = (field: string, value: string) => substitute(value, scope, { server: server.name, file: server.source.file, field, shownFile });
  const subMap = (field: string, m: Record<string, string> | undefined) =>
    Object.fromEntries(Object.entries(m ?? {}).map(([k, v]) => [k, sub(`${field}.${k}`, v)]));
  const bad = (field: string, what: string) =>
    new ConfigError('MCPI_CONFIG_SHAPE', `server "${server.name}" (${shownFile}), "${field}": ${what}`, { file: server.source.file, server: server.name });
  const inFolder = (p: string) => P.resolve(server.source.workspaceFolder, p);

  let target: ConfigTarget;
  if (entry.transport === 'stdio') {
    const env: Record<string, string> = {};
    if (entry.envFile !== undefined) {
      const file = inFolder(sub('envFile', entry.envFile));
      let text: string | undefined;
      try {
        text = ctx.readFile(file);
      } catch (e) {
        throw new ConfigError(
          'MCPI_CONFIG_READ',
          `server "${server.name}" (${shownFile}), "envFile": cannot read ${showPath(file, ctx)}: ${(e as Error).message}`,
          { file, server: server.name, cause: e },
        );
      }
      if (text === undefined)
        throw new ConfigError('MCPI_CONFIG_READ', `server "${server.name}" (${shownFile}), "envFile": ${showPath(file, ctx)} does not exist`, {
          file,
          server: server.name,
        });
      Object.assign(env, parseDotenv(text, file, showPath(file, ctx)));
    }
    Object.assign(env, subMap('env', entry.env));
    target = { kind: 'stdio', command: sub('command', entry.command!), args: (entry.args ?? []).map((a, i) => sub(`args[${i}]`, a)), env };
    if (entry.cwd !== undefined) target.cwd = inFolder(sub('cwd', entry.cwd));
  } else {
    const url = sub('url', entry.url!);
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) throw bad('url', `${JSON.stringify(redactUrl(url))} is not an http(s) URL`);
    const headers = subMap('headers', entry.headers);
    for (const [k, v] of Object.entries(headers)) {
      if (!HEADER_NAME.test(k)) throw bad(`headers.${k}`, 'is not a valid header name');
      // The value is not echoed: it is often a secret.
      if (!HEADER_VALUE.test(v)) throw bad(`headers.${k}`, 'the value has characters a header cannot carry (control characters, a newline or non-ASCII)');
    }
    target = { kind: entry.transport, url, headers };
  }
  const out: ResolvedServer = { name: server.name, source: server.source, entry, target };
  if (entry.roots)
    out.roots = entry.roots.map((r, i) => {
      const v = sub(`roots[${i}]`, r);
      return URI.test(v) ? v : inFolder(v);
    });
  if (entry.oauth) {
    const o = entry.oauth;
    const oauth: OAuthEntry = {};
    if (o.clientId !== undefined) oauth.clientId = sub('oauth.clientId', o.clientId);
    if (o.clientSecret !== undefined) oauth.clientSecret = sub('oauth.clientSecret', o.clientSecret);
    if (o.clientMetadataUrl !== undefined) oauth.clientMetadataUrl = sub('oauth.clientMetadataUrl', o.clientMetadataUrl);
    if (o.scopes) oauth.scopes = o.scopes.map((s, i) => sub(`oauth.scopes[${i}]`, s));
    if (o.callbackPort !== undefined) oauth.callbackPort = o.callbackPort;
    out.oauth = oauth;
  }
  return out;
}
