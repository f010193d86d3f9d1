/**
 * The registry entry of `proxy`: name, summary, options and help (cheap: it loads for `--help`
 * and for every other command); the body, ./proxy.ts, is imported when it runs.
 */
import type { CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import type { ProxyFlags } from './proxy.js';

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** `mcp-inspect proxy [--record FILE] [--inject FAULT]… -- CMD ARGS…`. */
export const proxy: CommandSpec<ProxyFlags> = {
  name: 'proxy',
  description: 'sit between a host (Claude Desktop, Cursor, VS Code…) and a stdio server, invisibly, and record what they say (--record FILE)',
  configure: (cmd) =>
    cmd
      .usage('[options] -- command args…  |  --http PORT [options] URL')
      .argument('[url]', 'with --http: the URL of the server to forward to')
      .option('--http [port]', 'an HTTP proxy in front of the server at URL, listening on this port (0 or omitted: any free port)')
      .option('--host <address>', 'the address the HTTP proxy listens on', '127.0.0.1')
      .option('--record <file>', 'write the conversation to this file (NDJSON, format mcp-inspect/recording@1)')
      .option(
        '--redact <pointer>',
        'in the recording, mask the value at this JSON pointer into params and results, e.g. /arguments/password (repeatable)',
        collect,
      )
      .option('--max-record-bytes <size>', 'stop recording once the file reaches this size (bytes, or 64k, 10M…)')
      .option('--name <name>', 'the name mcp-inspect attach knows this proxy by (default: the server command\'s or the URL\'s host)')
      .option('--no-announce', 'do not announce the proxy for mcp-inspect attach (no socket in the runtime folder)')
      .option(
        '--inject <fault>',
        'cause a fault on purpose: delay=MS, error-rate=P, close-mid-response; over HTTP also drop-get-stream, expire-session (repeatable)',
        collect,
      )
      .addHelpText(
        'after',
        `
Put it in front of the command of a server in your host's config: the host then spawns
mcp-inspect, which spawns the server and copies the bytes both ways unchanged. It prints
nothing of its own on stdout, passes its whole environment and the server's stderr through,
and exits with the server's exit code. When the host closes stdin or signals the proxy, the
server is ended (stdin closed, then SIGTERM, then SIGKILL). A server that cannot be started
exits 3.

Faults (--inject, for seeing how a host copes; each is marked in the recording):
  delay=MS             hold each server message MS ms
  error-rate=P         answer a share P (0 to 1) of the host's requests with a JSON-RPC error
                       instead of forwarding them
  close-mid-response   cut the first response after part of its line and close stdout
                       (over HTTP: after part of its body)
  drop-get-stream      HTTP: refuse the host's GET stream (405)
  expire-session       HTTP: answer the next request carrying an Mcp-Session-Id with 404

Watch it live: every proxy announces itself (a socket only you can open, in
$XDG_RUNTIME_DIR/mcp-inspect), and mcp-inspect attach lists the running ones; attach NAME
shows the host's traffic in the inspector, attach NAME --json prints it as NDJSON.

Over HTTP (--http PORT URL) the proxy prints its own URL (same path as URL) and forwards
every path, header and body to URL's origin, SSE streamed as it comes, sessions apart; it
listens on 127.0.0.1 and checks Host and Origin. Authorization is forwarded and never
recorded in clear; a host that checks the protected resource's "resource" or sends DPoP
proofs refuses a proxy on another origin.

Examples:
  mcp-inspect proxy --record session.ndjson -- node server.js
  mcp-inspect proxy --record s.ndjson --redact /arguments/apiKey -- npx -y some-mcp-server
  mcp-inspect proxy --http 3001 --record s.ndjson http://127.0.0.1:3000/mcp
  mcp-inspect attach                       the running proxies; attach NAME to watch one
  mcp-inspect replay session.ndjson        re-send the host's requests, compare the answers
  mcp-inspect mock session.ndjson          a fake server from the recording

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./proxy.js')).proxyBody(inv, words, flags),
};
