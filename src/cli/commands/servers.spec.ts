/**
 * The registry entry of `servers`: name, summary, options and help (cheap: it loads for
 * `--help` and for every other command); the body, ./servers.ts, is imported when it runs.
 */
import { Option } from 'commander';
import type { CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import type { ServersFlags } from './servers.js';

/** `mcp-inspect servers [--config FILE] [--json]`. */
export const servers: CommandSpec<ServersFlags> = {
  name: 'servers',
  description: 'list the MCP servers configured for Claude Code, Claude Desktop, Cursor, VS Code, Windsurf and Codex',
  configure: (cmd) =>
    cmd
      .option('--config <file>', 'list this config file instead of discovering them (default: $MCP_INSPECT_CONFIG)')
      .option('--json', 'machine-readable JSON on stdout')
      .option('--no-color', 'no colors (NO_COLOR is honored too)')
      .option('--wrap <name>', 'print the config change that routes this stdio server through mcp-inspect proxy (--write applies it)')
      .option('--unwrap <name>', 'print the config change that undoes --wrap (--write applies it)')
      .option('--record <file>', 'with --wrap: the proxy records to this file')
      .option('--write', 'with --wrap/--unwrap: change the config file (the old one is kept as FILE.bak)')
      .addOption(new Option('--names', 'the usable server names, one per line (for shell completion)').hideHelp())
      .addHelpText(
        'after',
        `
Search order (the first entry of a name wins; project files before user files):
  project  ~/.claude.json projects[<cwd>], .mcp.json, .cursor/mcp.json, .vscode/mcp.json
  user     ~/.claude.json, Claude Desktop's claude_desktop_config.json, ~/.cursor/mcp.json,
           VS Code's user mcp.json, ~/.codeium/windsurf/mcp_config.json, ~/.codex/config.toml
A disabled entry is listed and used only when named and no enabled entry has its name.

Examples:
  mcp-inspect servers
  mcp-inspect tools --server github
  mcp-inspect servers --json | jq '.servers[] | select(.wins) | .name'
  mcp-inspect servers --wrap weather --record /tmp/weather.ndjson --write
  mcp-inspect servers --unwrap weather --write

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./servers.js')).serversBody(inv, words, flags),
};
