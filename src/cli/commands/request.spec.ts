/**
 * The registry entry of `request`: name, summary, options and help (cheap: it loads for
 * `--help` and for every other command); the body, ./request.ts, is imported when it runs.
 */
import { addCommonOptions, type CommonFlags } from '../options.js';
import { TARGET_HELP, type CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import { INPUT_HELP } from '../input-options.js';
import type { RequestFlags } from './request.js';

/** `mcp-inspect request <method> [params-json] [target]`. */
export const request: CommandSpec<CommonFlags & RequestFlags> = {
  name: 'request',
  description: 'send one request of any method (ping, logging/setLevel, completion/complete, a vendor method) and print the raw result',
  configure: (cmd) =>
    addCommonOptions(cmd)
      .usage('[target] <method> [params-json] [options]  |  <method> [params-json] [options] -- command args…')
      .argument('[words...]', 'the URL (unless the server is given after -- or by --config), the method, then its params as a JSON object')
      .option('--params <json|@file|->', 'the params object as JSON, from a file (@file.json) or stdin (-)')
      .addHelpText(
        'after',
        `
The request goes through the same connection as every command (era detection, OAuth,
--header, input rounds); the era's _meta is added (and --meta KEY=JSON entries). The
result is printed as received (--json: {"method", "params", "result", "elapsedMs"}). A
JSON-RPC error exits 2; a tools/call result with isError: true exits 1.
${INPUT_HELP}
${TARGET_HELP}

Examples:
  mcp-inspect request tools/list '{"cursor":"page-2"}' http://127.0.0.1:3000/mcp
  mcp-inspect request ping -- node legacy-server.js     # ping, logging/setLevel: 2025-11-25 servers
  mcp-inspect request logging/setLevel '{"level":"debug"}' -- node legacy-server.js
  mcp-inspect request completion/complete '{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"style","value":"p"}}' http://127.0.0.1:3000/mcp
  mcp-inspect request acme/status --meta acme.example/trace='"t-1"' --json http://127.0.0.1:3000/mcp

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./request.js')).requestBody(inv, words, flags),
};
