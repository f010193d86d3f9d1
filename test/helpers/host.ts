// A host that is not mcp-inspect, for tests of `proxy` and `attach`: the official SDK v1 client
// (test/fixtures/sdk-host.mjs) spawns a command as a desktop host spawns a server, and does
// what the test tells it on its stdin (list, prompts, call NAME, quit), printing one line per
// command done. Every process it started is tracked, so a test can check none is left.
import { spawn } from 'node:child_process';
import { descendantsNow, waitAllGone } from './cli.js';
import { fixturePath } from './servers.js';
import { HANG_MS } from './wait.js';

/** A running host (see {@link startHost}). */
export interface Host {
  pid: number;
  /** Sends one command line (`list`, `prompts`, `call NAME`, `quit`). */
  send(line: string): void;
  /** Resolves once stdout matches `re` after what earlier waits consumed; rejects when the host exits first or after `timeoutMs`. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  stdout(): string;
  stderr(): string;
  /** Sends `quit`, waits for the exit; resolves with its code and the pids still alive (none expected). */
  quit(): Promise<{ code: number | null; leftover: number[] }>;
}

/** Starts `node sdk-host.mjs -- command args…` with `env` added to ours; resolves once it printed READY (connected through the command). */
export async function startHost(command: string[], env: Record<string, string> = {}): Promise<Host> {
  const proc = spawn(process.execPath, [fixturePath('sdk-host.mjs'), '--', ...command], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let consumed = 0;
  const seen = new Set<number>();
  const scan = setInterval(() => {
    for (const p of descendantsNow(proc.pid!)) seen.add(p);
  }, 40);
  const exited = new Promise<number | null>((r) => proc.once('close', (code) => r(code)));
  void exited.then(() => clearInterval(scan));
  proc.stdout.setEncoding('utf8');
  proc.stderr.setEncoding('utf8');
  proc.stdout.on('data', (s: string) => (out += s));
  proc.stderr.on('data', (s: string) => (err += s));
  proc.stdin.on('error', () => undefined);
  const host: Host = {
    pid: proc.pid!,
    send: (line) => proc.stdin.write(`${line}\n`),
    stdout: () => out,
    stderr: () => err,
    waitFor: async (re, timeoutMs = HANG_MS) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = re.exec(out.slice(consumed));
        if (m) {
          consumed += m.index + m[0].length;
          return m;
        }
        if (proc.exitCode !== null || proc.signalCode !== null || Date.now() > deadline)
          throw new Error(
            `the host ${proc.exitCode !== null ? `exited (${proc.exitCode})` : 'timed out'} before matching ${re}\n--- stdout ---\n${out}\n--- stderr ---\n${err}`,
          );
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    quit: async () => {
      proc.stdin.end('quit\n');
      const code = await exited;
      return { code, leftover: await waitAllGone(seen, 10_000) };
    },
  };
  await host.waitFor(/^READY$/m, 60_000);
  return host;
}
