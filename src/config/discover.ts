/**
 * Discovery: every server of every config file searched (see configLocations), or of the one
 * explicit file (`--config FILE`, else `$MCP_INSPECT_CONFIG`), and the choice of one by name.
 * A broken file is reported, not fatal for the others. File reading is the injected
 * `ctx.readFile`; the rest is pure.
 */
import { readCodexEntry, readEntry, readInputs, describe, type EntryPlace } from './entry.js';
import { claudeJsonPath, configLocations, explicitLocations, pathFor, showPath, type ConfigFormat, type ConfigLocation } from './locations.js';
import { parseJsonc, parseToml, type ParsedDocument } from './parse.js';
import { ConfigError, type ConfigContext, type ConfigInput, type ConfigSource, type DiscoveredServer } from './types.js';

/** A place searched, and whether a file was there. */
export interface SearchedLocation extends ConfigLocation {
  found: boolean;
}

/** Everything discovery saw. */
export interface Discovery {
  /** In search order (within a file, in the order written). */
  entries: DiscoveredServer[];
  /** Files that could not be read or parsed, sets of the wrong shape, invalid entries (also on their entry). */
  errors: ConfigError[];
  searched: SearchedLocation[];
  /** Set when an explicit file replaced discovery. */
  explicit?: { file: string; via: '--config' | 'MCP_INSPECT_CONFIG' };
}

/** The server chosen by name, and what it hides. */
export interface FoundServer {
  server: DiscoveredServer;
  /** Entries of the same name that lose to it, in search order (worth a warning). */
  shadows: DiscoveredServer[];
  /** Problems elsewhere in the configs (worth a warning: the server may also be in a broken file). */
  errors: ConfigError[];
}

interface LoadedFile {
  doc?: ParsedDocument;
  error?: ConfigError;
  found: boolean;
}

/**
 * Reads every config file searched (or the explicit one) and lists its servers.
 * Never throws for a file's problems: they go to `errors` (an invalid entry is also listed,
 * with `error` set). Disabled entries are listed with `disabled: true`. Every entry but the
 * winner of its name gets `shadowedBy` (see {@link findServer} for who wins).
 */
export function discoverServers(ctx: ConfigContext): Discovery {
  const show = (f: string) => showPath(f, ctx);
  const explicitFile = ctx.configFile ?? (ctx.env.MCP_INSPECT_CONFIG?.trim() ? ctx.env.MCP_INSPECT_CONFIG : undefined);
  const explicit =
    explicitFile !== undefined
      ? {
          file: pathFor(ctx.platform).resolve(ctx.cwd, explicitFile),
          via: ctx.configFile !== undefined ? ('--config' as const) : ('MCP_INSPECT_CONFIG' as const),
        }
      : undefined;
  const locations = explicit ? explicitLocations(explicit.file, ctx) : configLocations(ctx);
  const files = new Map<string, LoadedFile>();
  const errors: ConfigError[] = [];
  const entries: DiscoveredServer[] = [];
  const searched: SearchedLocation[] = [];

  const load = (loc: ConfigLocation): LoadedFile => {
    const cached = files.get(loc.file);
    if (cached) return cached;
    let loaded: LoadedFile;
    let text: string | undefined;
    try {
      text = ctx.readFile(loc.file);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      const why = err.code === 'EACCES' || err.code === 'EPERM' ? 'permission denied' : err.code === 'EISDIR' ? 'it is a folder' : err.message;
      loaded = { found: true, error: new ConfigError('MCPI_CONFIG_READ', `cannot read ${show(loc.file)}: ${why}`, { file: loc.file, cause: e }) };
      files.set(loc.file, loaded);
      errors.push(loaded.error!);
      return loaded;
    }
    if (text === undefined) {
      loaded = { found: false };
      if (explicit) {
        const how = explicit.via === '--config' ? '--config' : '$MCP_INSPECT_CONFIG';
        loaded.error = new ConfigError('MCPI_CONFIG_READ', `cannot read ${how} ${show(loc.file)}: no such file`, { file: loc.file });
        errors.push(loaded.error);
      }
      files.set(loc.file, loaded);
      return loaded;
    }
    try {
      const toml = loc.format === 'codex' || (loc.format === 'any' && /\.toml$/i.test(loc.file));
      loaded = { found: true, doc: toml ? parseToml(text, loc.file, show) : parseJsonc(text, loc.file, show) };
    } catch (e) {
      loaded = { found: true, error: e as ConfigError };
      errors.push(loaded.error!);
    }
    files.set(loc.file, loaded);
    return loaded;
  };

  let claude: ReturnType<typeof claudeProjectState> | null = null;
  for (const loc of locations) {
    const file = load(loc);
    searched.push({ ...loc, found: file.found });
    if (!file.doc) continue;
    const set = serverSet(file.doc, loc, ctx, !!explicit);
    if (set instanceof ConfigError) {
      errors.push(set);
      continue;
    }
    if (!set) continue;
    const source: ConfigSource = { client: loc.client, file: loc.file, scope: loc.scope, workspaceFolder: loc.workspaceFolder };
    if (set.section) source.section = set.section;
    // ~/.claude.json is the first place searched, so it is loaded by now.
    if (claude === null) claude = explicit ? undefined : claudeProjectState(files.get(claudeJsonPath(ctx))?.doc, ctx);
    for (const name of set.names) {
      const place: EntryPlace = { file: loc.file, name, path: [...set.path, name], doc: file.doc, show };
      const raw = (set.servers as Record<string, unknown>)[name];
      const found: DiscoveredServer = { name, source, inputs: set.inputs, disabled: false };
      try {
        found.entry = set.toml ? readCodexEntry(raw, place) : readEntry(raw, place);
        found.disabled = !!found.entry.disabled || (loc.client === 'claude-code' && !!claude?.disabled(name, loc));
      } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        found.error = e;
        errors.push(e);
      }
      entries.push(found);
    }
  }

  const winners = new Map<string, DiscoveredServer>();
  for (const e of entries) {
    const w = winners.get(e.name);
    if (!w || (w.disabled && !e.disabled)) winners.set(e.name, e);
  }
  for (const e of entries) {
    const w = winners.get(e.name)!;
    if (w !== e) e.shadowedBy = w.source;
  }
  const out: Discovery = { entries, errors, searched };
  if (explicit) out.explicit = explicit;
  return out;
}

interface ServerSet {
  servers: object;
  names: string[];
  /** The path of the servers object in the document. */
  path: (string | number)[];
  inputs: ConfigInput[];
  section?: string;
  toml: boolean;
}

/** The servers object a location's format names; undefined when the file has none (normal for a discovered file). */
function serverSet(doc: ParsedDocument, loc: ConfigLocation, ctx: ConfigContext, explicit: boolean): ServerSet | ConfigError | undefined {
  const show = (f: string) => showPath(f, ctx);
  const root = doc.value;
  if (root === undefined) return explicit ? new ConfigError('MCPI_CONFIG_SHAPE', `${show(loc.file)} is empty`, { file: loc.file }) : undefined;
  if (!isObject(root))
    return new ConfigError('MCPI_CONFIG_SHAPE', `${show(loc.file)}: the file must hold an object (got ${describe(root)})`, {
      file: loc.file,
      ...doc.positionOf([]),
    });
  const format: ConfigFormat = loc.format;
  let path: (string | number)[];
  let section: string | undefined;
  let toml = false;
  if (format === 'codex' || (format === 'any' && /\.toml$/i.test(loc.file))) {
    path = ['mcp_servers'];
    toml = true;
  } else if (format === 'vscode') path = ['servers'];
  else if (format === 'mcpServers' || format === 'claude-user') {
    path = ['mcpServers'];
    if (format === 'claude-user') section = 'mcpServers';
  } else if (format === 'claude-project') {
    const key = projectKey(root.projects, ctx);
    if (key === undefined) return undefined;
    path = ['projects', key, 'mcpServers'];
    section = `projects[${JSON.stringify(key)}].mcpServers`;
  } else {
    path = root.mcpServers !== undefined ? ['mcpServers'] : ['servers'];
  }
  let servers: unknown = root;
  for (const k of path) servers = isObject(servers) ? servers[k as string] : undefined;
  if (servers === undefined || servers === null) {
    if (!explicit || format === 'claude-project' || format === 'claude-user') return undefined;
    const want = toml ? '[mcp_servers.NAME] tables' : format === 'any' ? 'neither "mcpServers" nor "servers"' : `no "${path.join('.')}"`;
    return new ConfigError('MCPI_CONFIG_SHAPE', `${show(loc.file)} has ${toml ? `no ${want}` : want}`, { file: loc.file });
  }
  if (!isObject(servers)) {
    const pos = doc.positionOf(path);
    const where = pos ? `${show(loc.file)}:${pos.line}:${pos.column}` : show(loc.file);
    return new ConfigError('MCPI_CONFIG_SHAPE', `${where}: "${path.join('.')}" must be an object of servers (got ${describe(servers)})`, {
      file: loc.file,
      ...pos,
    });
  }
  const set: ServerSet = {
    servers,
    names: doc.keysOf(path) ?? Object.keys(servers),
    path,
    inputs: loc.format === 'vscode' || (format === 'any' && !toml) ? readInputs(root.inputs) : [],
    toml,
  };
  if (section) set.section = section;
  return set;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The key of `~/.claude.json`'s `projects` map for the cwd. Claude Code writes absolute
 * paths (forward slashes on Windows); compare them normalized, case-insensitively on Windows
 * and macOS.
 */
function projectKey(projects: unknown, ctx: Pick<ConfigContext, 'cwd' | 'platform'>): string | undefined {
  if (!isObject(projects)) return undefined;
  const P = pathFor(ctx.platform);
  const fold = ctx.platform === 'win32' || ctx.platform === 'darwin';
  const norm = (p: string) => {
    let s = P.resolve(p).replace(/\\/g, '/');
    if (s.length > 1 && s.endsWith('/')) s = s.slice(0, -1);
    return fold ? s.toLowerCase() : s;
  };
  const want = norm(ctx.cwd);
  if (Object.hasOwn(projects, P.resolve(ctx.cwd))) return P.resolve(ctx.cwd);
  return Object.keys(projects).find((k) => k && norm(k) === want);
}

/**
 * Claude Code's per-project switches in `~/.claude.json`: `disabledMcpjsonServers` (servers of
 * `.mcp.json` the user declined) and `disabledMcpServers` (servers turned off in `/mcp`).
 */
function claudeProjectState(doc: ParsedDocument | undefined, ctx: ConfigContext): { disabled(name: string, loc: ConfigLocation): boolean } | undefined {
  const root = doc?.value;
  if (!isObject(root)) return undefined;
  const key = projectKey(root.projects, ctx);
  const project = key === undefined ? undefined : (root.projects as Record<string, unknown>)[key];
  if (!isObject(project)) return undefined;
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const mcpjson = list(project.disabledMcpjsonServers);
  const any = list(project.disabledMcpServers);
  return {
    disabled: (name, loc) => any.includes(name) || (loc.format === 'mcpServers' && mcpjson.includes(name)),
  };
}

/**
 * Picks the server named `name` (case-sensitive): the first in search order wins, except
 * that an enabled entry wins over a disabled one (a disabled entry is used only when it is
 * the only kind of that name). `name` undefined is allowed with an explicit file that holds
 * exactly one enabled server. Throws ConfigError: 'MCPI_CONFIG_UNKNOWN_SERVER' (listing the
 * names found, and the files that could not be read), the explicit file's own error, or
 * the winner's entry error ('MCPI_CONFIG_SHAPE').
 */
export function findServer(name: string | undefined, ctx: ConfigContext, discovery: Discovery = discoverServers(ctx)): FoundServer {
  const show = (f: string) => showPath(f, ctx);
  const { entries, errors, explicit } = discovery;
  const fileErrors = errors.filter((e) => e.server === undefined);
  if (explicit && fileErrors.length && !entries.length) throw fileErrors[0];
  const names = [...new Set(entries.map((e) => e.name))];
  const where = explicit ? show(explicit.file) : 'the config files searched';
  const broken = fileErrors.length
    ? `; ${fileErrors.length === 1 ? 'a config file' : `${fileErrors.length} config files`} could not be read: ${fileErrors[0].message}`
    : '';
  let matches: DiscoveredServer[];
  if (name === undefined) {
    const enabled = entries.filter((e) => !e.disabled);
    const how = explicit ? `${where} has ${enabled.length} servers; pick one with --server NAME` : 'no server given; pick one with --server NAME';
    if (!explicit || enabled.length !== 1) throw new ConfigError('MCPI_CONFIG_UNKNOWN_SERVER', `${how} (${names.join(', ') || 'none found'})${broken}`);
    matches = [enabled[0]];
  } else {
    matches = entries.filter((e) => e.name === name);
  }
  if (!matches.length) {
    const found = names.length
      ? `it has: ${names.join(', ')}`
      : explicit
        ? 'it has none'
        : `no servers were found (searched: ${discovery.searched
            .map((s) => show(s.file))
            .filter((f, i, a) => a.indexOf(f) === i)
            .join(', ')})`;
    throw new ConfigError('MCPI_CONFIG_UNKNOWN_SERVER', `no server named ${JSON.stringify(name)} in ${where}; ${found}${broken}`);
  }
  const server = matches.find((e) => !e.disabled) ?? matches[0];
  if (server.error) throw server.error;
  return {
    server,
    shadows: matches.filter((e) => e !== server),
    errors: errors.filter((e) => e !== server.error && !(e.server === server.name && e.file === server.source.file)),
  };
}

/** `~/.cursor/mcp.json (Cursor, user)`, for listings and warnings. */
export function describeSource(source: ConfigSource, ctx: Pick<ConfigContext, 'home' | 'platform'>): string {
  const section = source.section && source.section !== 'mcpServers' ? ` ${source.section}` : '';
  return `${showPath(source.file, ctx)}${section} (${CLIENT_NAMES[source.client]}, ${source.scope})`;
}

/** Display names of the clients. */
export const CLIENT_NAMES: Record<ConfigSource['client'], string> = {
  'claude-code': 'Claude Code',
  'claude-desktop': 'Claude Desktop',
  cursor: 'Cursor',
  vscode: 'VS Code',
  windsurf: 'Windsurf',
  codex: 'Codex',
  file: 'config file',
};

/** The warning for a server that shadows others: `server "x" from A is used; it shadows B, C`. */
export function shadowWarning(found: FoundServer, ctx: Pick<ConfigContext, 'home' | 'platform'>): string | undefined {
  if (!found.shadows.length) return undefined;
  return `server "${found.server.name}" from ${describeSource(found.server.source, ctx)} is used; it shadows ${found.shadows.map((s) => describeSource(s.source, ctx) + (s.disabled ? ' [disabled]' : '')).join(', ')}`;
}
