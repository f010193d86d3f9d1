// The conformance suite's client scenarios with the client run in the test's own process:
// inProcessClient(kind) gives the command to pass to harness.ts runClientScenario. The suite
// starts relay.mjs as the client; the relay hands the scenario to this process over a Unix
// socket, clients.mjs's client runs here, and the relay writes what it wrote and exits with its
// code. Apart from harness.ts, which the global setup imports (this module imports the CLI
// helpers, which import vitest).
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.js';
import { removeTree } from '../helpers/files.js';
// @ts-expect-error untyped JS module (shared with the client scripts run by hand)
import { CLIENTS, clientEnv } from './clients.mjs';

/** The inputs and outputs of clients.mjs's clients (see its ClientInputs). */
type ConformanceClient = (o: {
  serverUrl: string;
  env: Record<string, string | undefined>;
  home: string;
  cli: (args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;
  out: (text: string) => void;
  err: (text: string) => void;
}) => Promise<number>;

const RELAY = fileURLToPath(new URL('./relay.mjs', import.meta.url));
let relaySocket: Promise<string> | undefined;

/**
 * The client command for harness.ts runClientScenario that runs clients.mjs's `kind` client (`auth`:
 * the auth/* scenarios, `core`: the others) in this process: the suite starts relay.mjs, which
 * hands the scenario over a Unix socket to this process, where each of the client's commands
 * runs as the other tests' CLI runs do (helpers/cli.ts runCli: main() of the built bundle in the
 * test's process, with its own environment, the config home a temporary folder per scenario),
 * and the relay then writes what the client wrote and exits with its code. Scenarios are run one
 * at a time. A client process per scenario (cli-client.mjs, cli-core-client.mjs) started Node and
 * loaded and compiled the CLI each time: ~1 s of CPU a scenario, against ~50 ms for the relay.
 * The socket is made on first use, in a temporary folder removed when the process exits.
 */
export async function inProcessClient(kind: 'auth' | 'core'): Promise<string> {
  relaySocket ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpi-relay-'));
    process.once('exit', () => removeTree(dir));
    const path = join(dir, 'client.sock');
    let queue: Promise<unknown> = Promise.resolve();
    // allowHalfOpen: the relay ends its side once it has sent the request, and still reads the answer.
    const server = createServer({ allowHalfOpen: true }, (conn) => {
      let text = '';
      conn.setEncoding('utf8');
      conn.on('error', () => undefined);
      conn.on('data', (d: string) => {
        if (text.includes('\n')) return; // the request is complete (one line)
        text += d;
        if (!text.includes('\n')) return;
        queue = queue.then(() =>
          serveClient(text).then(
            (r) => conn.end(JSON.stringify(r)),
            (e: unknown) =>
              conn.end(JSON.stringify({ code: 1, stdout: '', stderr: `relay host: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n` })),
          ),
        );
      });
    });
    server.listen(path);
    await once(server, 'listening');
    server.unref();
    return path;
  })();
  return [process.execPath, RELAY, await relaySocket, kind].map((a) => JSON.stringify(a)).join(' ');
}

/** Runs one scenario's client for the relay (`line`: its request, JSON); resolves with its exit code and what it wrote. */
async function serveClient(line: string) {
  const request = JSON.parse(line) as { kind: 'auth' | 'core'; serverUrl: string; env: Record<string, string> };
  const client = (CLIENTS as Record<string, ConformanceClient>)[request.kind];
  if (!client) throw new Error(`no client named ${request.kind}`);
  const home = mkdtempSync(join(tmpdir(), 'mcpi-conformance-client-'));
  let stdout = '';
  let stderr = '';
  try {
    const code = await client({
      serverUrl: request.serverUrl,
      env: request.env,
      home,
      cli: async (args) => {
        const r = await runCli(args, { env: clientEnv(home) as Record<string, string>, timeoutMs: 60_000 });
        return { code: r.code ?? 1, stdout: r.stdout, stderr: r.stderr + (r.timedOut ? 'relay host: the run timed out\n' : '') };
      },
      out: (t) => (stdout += t),
      err: (t) => (stderr += t),
    });
    return { code, stdout, stderr };
  } finally {
    removeTree(home);
  }
}
