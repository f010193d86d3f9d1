/**
 * `servers --wrap NAME` / `--unwrap NAME`: the config change that routes a configured stdio
 * server through `mcp-inspect proxy` (its command becomes `mcp-inspect`, its command line goes
 * after `proxy … --`), and back. Pure: computes the new file text with jsonc-parser's edits,
 * which keep the file's comments and layout; the command writes it (with a backup).
 */
import { applyEdits, modify, parse } from 'jsonc-parser';
import { ConfigError, type ConfigSource, type ServerEntry } from './types.js';
import { isObject } from '../util/json.js';

/** A stdio command line. */
export interface CommandLine {
  command: string;
  args: string[];
}

/** The command a wrapped entry runs. */
export const PROXY_COMMAND = 'mcp-inspect';

/** The path of the servers object in the document of `source` (JSON files only); throws ConfigError for a TOML file. */
export function serversPath(source: ConfigSource, text: string): string[] {
  if (source.client === 'codex' || /\.toml$/i.test(source.file))
    throw new ConfigError(
      'MCPI_CONFIG_SHAPE',
      `${source.file} is a TOML file: --wrap edits JSON config files only; change the entry by hand (command = "mcp-inspect", args = ["proxy", "--", …])`,
      {
        file: source.file,
      },
    );
  const m = /^projects\[(".*")\]\.mcpServers$/.exec(source.section ?? '');
  if (m) return ['projects', JSON.parse(m[1]) as string, 'mcpServers'];
  if (source.client === 'vscode') return ['servers'];
  if (source.client === 'file') {
    const root: unknown = parse(text);
    return isObject(root) && root.mcpServers === undefined && root.servers !== undefined ? ['servers'] : ['mcpServers'];
  }
  return ['mcpServers'];
}

/** True when `command` is mcp-inspect and `args` start with `proxy`. */
export function isWrapped(line: CommandLine): boolean {
  return /(^|[\\/])mcp-inspect(\.cmd|\.js)?$/.test(line.command) && line.args[0] === 'proxy' && line.args.includes('--');
}

/**
 * The command line of `entry` through the proxy (`record`: a `--record FILE` for it), with
 * `--name NAME` so that `mcp-inspect attach` lists it under the entry's name. Throws
 * ConfigError for an HTTP entry or one already wrapped.
 */
export function wrapped(name: string, entry: ServerEntry, record?: string): CommandLine {
  if (entry.transport !== 'stdio' || !entry.command)
    throw new ConfigError(
      'MCPI_CONFIG_SHAPE',
      `${name} is an HTTP server: --wrap routes stdio servers; for HTTP run mcp-inspect proxy --http PORT ${entry.url ?? 'URL'} and point the entry's url at it`,
    );
  const line = { command: entry.command, args: entry.args ?? [] };
  if (isWrapped(line)) throw new ConfigError('MCPI_CONFIG_SHAPE', `${name} already runs through mcp-inspect proxy (--unwrap ${name} undoes it)`);
  return { command: PROXY_COMMAND, args: ['proxy', '--name', name, ...(record ? ['--record', record] : []), '--', line.command, ...line.args] };
}

/** The command line the proxy of a wrapped entry runs; throws ConfigError when the entry is not wrapped. */
export function unwrapped(name: string, entry: ServerEntry): CommandLine {
  const line = { command: entry.command ?? '', args: entry.args ?? [] };
  if (!isWrapped(line)) throw new ConfigError('MCPI_CONFIG_SHAPE', `${name} does not run through mcp-inspect proxy: nothing to unwrap`);
  const rest = line.args.slice(line.args.indexOf('--') + 1);
  if (!rest.length) throw new ConfigError('MCPI_CONFIG_SHAPE', `${name} runs mcp-inspect proxy with no server command after --`);
  return { command: rest[0], args: rest.slice(1) };
}

/** `text` with the entry `name` under `path` running `line` instead (comments and layout kept). Pure. */
export function withCommandLine(text: string, path: readonly string[], name: string, line: CommandLine): string {
  const fmt = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: text.includes('\r\n') ? '\r\n' : '\n' } };
  let out = applyEdits(text, modify(text, [...path, name, 'command'], line.command, fmt));
  out = applyEdits(out, modify(out, [...path, name, 'args'], line.args, fmt));
  return out;
}
