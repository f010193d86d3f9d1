/**
 * Where the popular clients keep their MCP servers, per OS, in the documented search order:
 * project before user; within a scope Claude Code, Claude Desktop, Cursor, VS Code, Windsurf,
 * Codex. Pure: paths are computed from the injected cwd, home, platform and env.
 */
import path from 'node:path';
import type { ClientId, ConfigContext, ConfigScope } from './types.js';

/**
 * How a file holds its servers:
 * - `mcpServers`: `{"mcpServers": {NAME: entry}}` (Claude Desktop, Cursor, Windsurf, `.mcp.json`);
 * - `vscode`: `{"servers": {…}, "inputs": [...]}`;
 * - `claude-user` / `claude-project`: `~/.claude.json`, its top-level `mcpServers` or
 *   `projects[<cwd>].mcpServers` (Claude Code's "local" scope);
 * - `codex`: TOML `[mcp_servers.NAME]` tables;
 * - `any`: an explicit file of unknown client: `mcpServers` or `servers`, TOML by extension.
 */
export type ConfigFormat = 'mcpServers' | 'vscode' | 'claude-user' | 'claude-project' | 'codex' | 'any';

/** One place searched. */
export interface ConfigLocation {
  client: ClientId;
  scope: ConfigScope;
  /** Absolute. */
  file: string;
  format: ConfigFormat;
  /** `${workspaceFolder}` for entries of this place (absolute). */
  workspaceFolder: string;
}

/** The path module for the context's platform, so Windows paths are computed right on any OS. */
export function pathFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** The per-user application-data folder: `%APPDATA%`, `~/Library/Application Support`, `$XDG_CONFIG_HOME` or `~/.config`. */
export function appDataDir(ctx: Pick<ConfigContext, 'home' | 'platform' | 'env'>): string {
  const P = pathFor(ctx.platform);
  if (ctx.platform === 'win32') return nonEmpty(ctx.env.APPDATA) ?? P.join(ctx.home, 'AppData', 'Roaming');
  if (ctx.platform === 'darwin') return P.join(ctx.home, 'Library', 'Application Support');
  const xdg = nonEmpty(ctx.env.XDG_CONFIG_HOME);
  return xdg && P.isAbsolute(xdg) ? xdg : P.join(ctx.home, '.config');
}

function nonEmpty(s: string | undefined): string | undefined {
  return s && s.trim() ? s : undefined;
}

/** `~/.claude.json`, or `$CLAUDE_CONFIG_DIR/.claude.json` when Claude Code is told to keep its config elsewhere. */
export function claudeJsonPath(ctx: Pick<ConfigContext, 'home' | 'platform' | 'env'>): string {
  const P = pathFor(ctx.platform);
  const dir = nonEmpty(ctx.env.CLAUDE_CONFIG_DIR);
  return P.join(dir ? P.resolve(ctx.home, dir) : ctx.home, '.claude.json');
}

/** `~/.codex/config.toml`, or `$CODEX_HOME/config.toml`. */
export function codexConfigPath(ctx: Pick<ConfigContext, 'home' | 'platform' | 'env'>): string {
  const P = pathFor(ctx.platform);
  const dir = nonEmpty(ctx.env.CODEX_HOME);
  return P.join(dir ? P.resolve(ctx.home, dir) : P.join(ctx.home, '.codex'), 'config.toml');
}

/**
 * Every place searched, in search order (the first entry of a name wins):
 *
 * | # | client | scope | file |
 * |---|---|---|---|
 * | 1 | claude-code | project | `~/.claude.json` → `projects[<cwd>].mcpServers` (Claude Code's "local" scope, which it puts before `.mcp.json`) |
 * | 2 | claude-code | project | `<cwd>/.mcp.json` |
 * | 3 | cursor | project | `<cwd>/.cursor/mcp.json` |
 * | 4 | vscode | project | `<cwd>/.vscode/mcp.json` |
 * | 5 | claude-code | user | `~/.claude.json` → `mcpServers` |
 * | 6 | claude-desktop | user | `<appdata>/Claude/claude_desktop_config.json` |
 * | 7 | cursor | user | `~/.cursor/mcp.json` |
 * | 8 | vscode | user | `<appdata>/Code/User/mcp.json` |
 * | 9 | windsurf | user | `~/.codeium/windsurf/mcp_config.json` |
 * | 10 | codex | user | `~/.codex/config.toml` |
 *
 * `<appdata>`: see {@link appDataDir}. Claude Desktop and Windsurf have no project files. A
 * project file that is also a user file (the cwd is the home folder) is listed once, as user.
 */
export function configLocations(ctx: Pick<ConfigContext, 'cwd' | 'home' | 'platform' | 'env'>): ConfigLocation[] {
  const P = pathFor(ctx.platform);
  const cwd = P.resolve(ctx.cwd);
  const home = ctx.home;
  const appData = appDataDir(ctx);
  const claudeJson = claudeJsonPath(ctx);
  const project = (client: ClientId, file: string, format: ConfigFormat): ConfigLocation => ({ client, scope: 'project', file, format, workspaceFolder: cwd });
  const user = (client: ClientId, file: string, format: ConfigFormat): ConfigLocation => ({ client, scope: 'user', file, format, workspaceFolder: cwd });
  const all = [
    project('claude-code', claudeJson, 'claude-project'),
    project('claude-code', P.join(cwd, '.mcp.json'), 'mcpServers'),
    project('cursor', P.join(cwd, '.cursor', 'mcp.json'), 'mcpServers'),
    project('vscode', P.join(cwd, '.vscode', 'mcp.json'), 'vscode'),
    user('claude-code', claudeJson, 'claude-user'),
    user('claude-desktop', P.join(appData, 'Claude', 'claude_desktop_config.json'), 'mcpServers'),
    user('cursor', P.join(home, '.cursor', 'mcp.json'), 'mcpServers'),
    user('vscode', P.join(appData, 'Code', 'User', 'mcp.json'), 'vscode'),
    user('windsurf', P.join(home, '.codeium', 'windsurf', 'mcp_config.json'), 'mcpServers'),
    user('codex', codexConfigPath(ctx), 'codex'),
  ];
  // Run from the home folder, `<cwd>/.cursor/mcp.json` is the user's own file: list it once, as the user's.
  const same = (a: string, b: string) => (ctx.platform === 'win32' || ctx.platform === 'darwin' ? a.toLowerCase() === b.toLowerCase() : a === b);
  return all.filter((l) => l.scope === 'user' || !all.some((u) => u.scope === 'user' && u.format === l.format && same(u.file, l.file)));
}

/** Folders that hold a project's config file rather than being the project (`<project>/.vscode/mcp.json`). */
const CONFIG_DIRS = new Set(['.vscode', '.cursor', '.codex', '.claude']);

/**
 * The place an explicit file (`--config`, `$MCP_INSPECT_CONFIG`) stands for. A path that is
 * one of the searched places keeps that place's client, scope and format (so
 * `--config ~/.claude.json` reads the same sets as discovery); any other file is a project
 * file of format `any` whose workspace folder is its folder (the parent of a `.vscode`,
 * `.cursor`, `.codex` or `.claude` folder). Returns one location, or two for `~/.claude.json`.
 */
export function explicitLocations(file: string, ctx: Pick<ConfigContext, 'cwd' | 'home' | 'platform' | 'env'>): ConfigLocation[] {
  const P = pathFor(ctx.platform);
  const abs = P.resolve(ctx.cwd, file);
  const same = (a: string, b: string) => (ctx.platform === 'win32' || ctx.platform === 'darwin' ? a.toLowerCase() === b.toLowerCase() : a === b);
  const known = configLocations(ctx)
    .filter((l) => same(l.file, abs))
    .map((l) => ({ ...l, file: abs }));
  if (known.length) return known;
  if (P.basename(abs) === '.claude.json') {
    return [
      { client: 'claude-code', scope: 'project', file: abs, format: 'claude-project', workspaceFolder: P.resolve(ctx.cwd) },
      { client: 'claude-code', scope: 'user', file: abs, format: 'claude-user', workspaceFolder: P.resolve(ctx.cwd) },
    ];
  }
  const dir = P.dirname(abs);
  const workspaceFolder = CONFIG_DIRS.has(P.basename(dir)) ? P.dirname(dir) : dir;
  return [{ client: 'file', scope: 'project', file: abs, format: 'any', workspaceFolder }];
}

/** A file as shown in messages: `~/…` under the home folder, else as is. */
export function showPath(file: string, ctx: Pick<ConfigContext, 'home' | 'platform'>): string {
  const P = pathFor(ctx.platform);
  const rel = P.relative(ctx.home, file);
  if (!rel || rel.startsWith('..') || P.isAbsolute(rel)) return file;
  return `~${P.sep}${rel}`;
}
