// The baseline for `mcp-inspect tools` over stdio: the fewest lines that do the same round
// trips (spawn, server/discover, tools/list with pagination, close stdin, wait for exit) and
// print one line per tool. No validation, no error handling, no era detection.
//
//   node bench/minimal-client.mjs COMMAND ARGS…
//
// As a module, connectMinimal() is the same client for other benches (bench/load.mjs).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '0' },
};

/**
 * Spawns `command args` and returns `rpc(method, params)` (resolves with the whole response
 * message) and `close()` (ends stdin, resolves when the process exited). `detached`: the
 * server in a session of its own, as mcp-inspect spawns it (bench/load.mjs --same-spawn).
 */
export function connectMinimal(command, args, { detached = false } = {}) {
  // The server gets the environment hosts give (and mcp-inspect, src/transport/spawn-env.ts):
  // with the whole environment, a variable Node reads at its start (NODE_EXTRA_CA_CERTS: ~50 ms
  // to parse a system bundle) would slow this client's server and not mcp-inspect's.
  const env = Object.fromEntries(
    ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'].filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]),
  );
  const proc = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'], detached, env });
  const pending = new Map();
  createInterface({ input: proc.stdout }).on('line', (line) => {
    const m = JSON.parse(line);
    if (m.id !== undefined && pending.has(m.id)) {
      pending.get(m.id)(m);
      pending.delete(m.id);
    }
  });
  let id = 0;
  const rpc = (method, params = {}) =>
    new Promise((resolve) => {
      const n = ++id;
      pending.set(n, resolve);
      proc.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: n, method, params: { ...params, _meta: meta } }) + '\n');
    });
  const close = () => {
    proc.stdin.end();
    return new Promise((r) => proc.once('exit', r));
  };
  return { rpc, close };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, ...args] = process.argv.slice(2);
  const { rpc, close } = connectMinimal(command, args);
  await rpc('server/discover');
  let cursor;
  do {
    const r = await rpc('tools/list', cursor ? { cursor } : {});
    for (const t of r.result.tools) process.stdout.write(`${t.name} ${t.description ?? ''}\n`);
    cursor = r.result.nextCursor;
  } while (cursor);
  await close();
}
