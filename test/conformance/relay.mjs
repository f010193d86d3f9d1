#!/usr/bin/env node
// The client command the conformance suite runs in the tests: `relay.mjs SOCKET KIND <server-url>`
// hands the scenario to the test's process (in-process-client.ts, listening on the Unix socket
// SOCKET), which runs clients.mjs's KIND client there, and then writes what that client
// wrote and exits with its exit code, as the client's own process would. It passes the
// server URL and the scenario's variables (MCP_CONFORMANCE_*, MCPI_CONFORMANCE_*), nothing else.
// A start of this is a bare Node start (~50 ms of CPU); a client process of its own started
// Node, loaded the CLI's bundle and compiled what each command loads (~1 s of CPU a scenario).
import { connect } from 'node:net';

const [socketPath, kind] = process.argv.slice(2);
const serverUrl = process.argv.at(-1);
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => /^MCPI?_CONFORMANCE_/.test(k)));
let answer = '';
const socket = connect(socketPath);
socket.setEncoding('utf8');
socket.on('data', (d) => (answer += d));
socket.on('error', (e) => {
  process.stderr.write(`relay: ${e.message}\n`);
  process.exit(1);
});
socket.on('end', () => {
  let r;
  try {
    r = JSON.parse(answer);
  } catch {
    process.stderr.write(`relay: no answer from the test process (${answer.length} bytes)\n`);
    process.exit(1);
  }
  process.stderr.write(r.stderr, () => process.stdout.write(r.stdout, () => process.exit(r.code)));
});
socket.end(`${JSON.stringify({ kind, serverUrl, env })}\n`);
