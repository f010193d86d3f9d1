/**
 * The registry entry of `proxy`: name, summary, options and help (cheap: it loads for `--help`
 * and for every other command); the body, ./proxy.ts, is imported when it runs.
 */
import type { CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import { Option } from 'commander';
import { addAuthOptions, addRecordOptions } from '../options.js';
import { TRANSPORTS } from '../target.js';
import type { ProxyFlags } from './proxy.js';

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** `mcp-inspect proxy [--record FILE] [--inject FAULT]… -- CMD ARGS…`. */
export const proxy: CommandSpec<ProxyFlags> = {
  name: 'proxy',
  description:
    'sit between a host (Claude Desktop, Cursor, VS Code…) and a server, invisibly, and record what they say (--record FILE); or bridge a stdio host to an HTTP server',
  configure: (cmd) =>
    addAuthOptions(
      addRecordOptions(
        cmd
          .usage('[options] -- command args…  |  [options] URL  |  --http PORT [options] (URL | -- command args…)')
          .argument('[url]', 'the URL of an HTTP server: alone, the stdio ↔ HTTP bridge; with --http, the server to forward to')
          .option('--http [port]', 'an HTTP proxy in front of the server at URL, listening on this port (0 or omitted: any free port)')
          .option('--host <address>', 'the address the HTTP proxy listens on', '127.0.0.1'),
        'the conversation',
      )
        .option('--name <name>', "the name mcp-inspect attach knows this proxy by (default: the server command's or the URL's host)")
        .option('--no-announce', 'do not announce the proxy for mcp-inspect attach (no socket in the runtime folder)')
        .option('--header <header>', "bridge (proxy URL): HTTP header 'Name: value' sent on every request (repeatable)", collect)
        .option('--bearer <token>', 'bridge: send Authorization: Bearer TOKEN instead of the OAuth login (default: $MCP_BEARER_TOKEN)')
        .addOption(new Option('--transport <transport>', 'bridge: skip transport detection for the URL').choices([...TRANSPORTS]))
        .option(
          '--inject <fault>',
          'cause a fault on purpose: delay=MS, error-rate=P, close-mid-response; over HTTP also drop-get-stream, expire-session (repeatable)',
          collect,
        ),
    ).addHelpText(
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
proofs refuses a proxy on another origin: use the bridge for such servers.

With --http PORT -- CMD a stdio server is served over Streamable HTTP: a legacy host's
initialize opens a session (Mcp-Session-Id) with a server process of its own (a stdio
server holds one connection's state: its initialize, log level, subscriptions), which ends
with the session (DELETE) or the proxy; modern (2026-07-28) requests are stateless and share
one process. The GET stream carries a session's unsolicited messages.

The bridge (proxy URL, no --http) is for hosts that only spawn commands: the host speaks
stdio to mcp-inspect, which speaks Streamable HTTP (or HTTP+SSE, found as mcp-inspect's own
client finds it) to URL, both eras: a legacy host's initialize opens a session that the
bridge keeps (Mcp-Session-Id, the GET stream), a modern host's requests are stateless POSTs
with the headers the era needs. The server's JSON text reaches the host as it came, one line
each. OAuth is mcp-inspect's own (auth login's token store): a 401 logs in through a browser
(--browser CMD, $BROWSER or the desktop's); with none it exits 4 saying to run
mcp-inspect auth login URL first.

Examples:
  mcp-inspect proxy --record session.ndjson -- node server.js
  mcp-inspect proxy --record s.ndjson --redact /arguments/apiKey -- npx -y some-mcp-server
  mcp-inspect proxy --http 3001 --record s.ndjson http://127.0.0.1:3000/mcp
  mcp-inspect proxy --http 3001 -- node server.js      a stdio server over HTTP
  mcp-inspect proxy --record s.ndjson https://mcp.example.com/mcp   the bridge
  mcp-inspect attach                       the running proxies; attach NAME to watch one
  mcp-inspect replay session.ndjson        re-send the host's requests, compare the answers
  mcp-inspect mock session.ndjson          a fake server from the recording

${exitCodesHelp()}`,
    ),
  run: async (inv, words, flags) => (await import('./proxy.js')).proxyBody(inv, words, flags),
};
