/**
 * The registry entry of `auth`: name, summary, options and help (cheap: it loads for
 * `--help` and for every other command); the body, ./auth.ts, is imported when it runs.
 */
import { UsageError } from '../../protocol/errors.js';
import type { CommandSpec } from '../command.js';
import { isUrl } from '../target.js';
import type { AuthFlags } from './auth.js';
import { addAuthOptions } from '../options.js';
import { exitCodesHelp } from '../exit.js';

const ACTIONS = ['login', 'status', 'logout'] as const;

/** `mcp-inspect auth <login|status|logout> [url]`. */
export const auth: CommandSpec<AuthFlags> = {
  name: 'auth',
  description: 'log in to an OAuth-protected server, show stored tokens (status), forget them (logout)',
  configure: (cmd) =>
    addAuthOptions(cmd)
      .argument('<action>', `${ACTIONS.join(' | ')}`)
      .argument('[url]', 'URL of the server (login, logout; optional for status)')
      .option('--all', 'logout: forget every stored server')
      .option('--explain', 'login: show each step with its evidence; on failure the step that failed and what the spec expected')
      .option('--config <file>', 'login: read the server (and its "oauth" settings) from an MCP config file')
      .option('--server <name>', 'the server entry to use from --config')
      .option('--trust-project', 'use a project config entry that sends secrets without asking (default: $MCP_INSPECT_TRUST_PROJECT=1)')
      .option('--json', 'machine-readable JSON on stdout')
      .option('--trace', 'write the OAuth exchange to stderr (secrets masked)')
      .option('--quiet', 'fewer messages on stderr')
      .option('--no-color', 'no colors (NO_COLOR is honored too)')
      .addHelpText(
        'after',
        `
Tokens live in $XDG_CONFIG_HOME/mcp-inspect/oauth/ (default ~/.config/mcp-inspect/oauth/),
one file per server, mode 0600. Other commands use them from the first request and log in
on demand when interactive (stdin and stderr are terminals, or --browser is given);
otherwise they exit 4 and print the auth login command to run.

Examples:
  mcp-inspect auth login https://mcp.example.com/mcp
  mcp-inspect auth login https://mcp.example.com/mcp --client-id my-app --scope 'files:read files:write'
  mcp-inspect auth login http://127.0.0.1:3000/mcp --no-browser
  mcp-inspect auth login https://mcp.example.com/mcp --explain
  mcp-inspect auth login https://mcp.example.com/mcp --client-credentials --client-id svc --client-key svc.pem
  mcp-inspect auth login https://mcp.example.com/mcp --client-id workload --assertion /var/run/secrets/token
  mcp-inspect auth status --json
  mcp-inspect auth logout --all

${exitCodesHelp()}`,
      ),
  run: async (inv, given, flags) => {
    // The URL before the action too (`auth URL login`), as other commands take the target anywhere.
    const words = given.length === 2 && isUrl(given[0]) && !isUrl(given[1]) ? [given[1], given[0]] : given;
    const action = words[0];
    if (!(ACTIONS as readonly string[]).includes(action ?? '')) throw new UsageError(`auth: unknown action ${JSON.stringify(action)} (${ACTIONS.join(', ')})`);
    return (await import('./auth.js')).authBody(inv, words, flags);
  },
};
