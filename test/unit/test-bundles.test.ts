// The test helper that bundles the programs the suite starts hundreds of times
// (test/helpers/bundles.ts): a bundle runs as its program does, from V8's code cache after its
// first start, and a program the script form cannot hold is bundled as an ES module instead.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { get, type IncomingMessage } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { bundle, type BundleSpec } from '../helpers/bundles.js';
import { removeTree } from '../helpers/files.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpi-bundles-test-'));
afterAll(() => removeTree(dir));

/** Writes program `name` (an ES module) and its bundle; resolves with the bundle's path. */
async function bundled(name: string, source: string, host?: BundleSpec['host']): Promise<string> {
  const entry = join(dir, 'src', name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'mark.mjs'), 'export const mark = 42;\n');
  return bundle({ entry, contents: source, out: join(dir, 'out', name), ...(host ? { host } : {}) });
}

function run(path: string, ...args: string[]) {
  return spawnSync(process.execPath, [path, ...args], { encoding: 'utf8', timeout: 60_000 });
}

describe('test bundles', () => {
  it('run as the program with its arguments, imports, import.meta.url and top-level await, then from the code cache', async () => {
    const out = await bundled(
      'prog.mjs',
      `#!/usr/bin/env node
import { createServer } from 'node:http';
import process from 'node:process';
import * as path from 'node:path';
import { mark } from '../mark.mjs';
const later = await new Promise((resolve) => setTimeout(() => resolve('awaited'), 1));
const { default: os } = await import('node:os');
process.stdout.write(JSON.stringify({
  args: process.argv.slice(2),
  self: path.basename(new URL(import.meta.url).pathname),
  server: typeof createServer,
  later,
  mark,
  os: typeof os.cpus,
  strict: (function () { return this; })() === undefined,
}) + '\\n');
`,
    );
    expect(existsSync(`${out}.body.js`)).toBe(true);
    const want = { args: ['a', 'b c'], self: 'prog.mjs', server: 'function', later: 'awaited', mark: 42, os: 'function', strict: true };
    const first = run(out, 'a', 'b c');
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout)).toEqual(want);
    // The first start wrote the cache before it ended; the second one takes it (a rejected cache would be written again: another inode).
    const cache = statSync(`${out}.body.js.v8cache`);
    expect(cache.size).toBeGreaterThan(0);
    const second = run(out, 'a', 'b c');
    expect(second.status).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual(want);
    expect(statSync(`${out}.body.js.v8cache`).ino).toBe(cache.ino);
  });

  it('end with the status and the message of a program that throws at its top level', async () => {
    const out = await bundled('throws.mjs', `await Promise.resolve();\nthrow new Error('no config here');\n`);
    const r = run(out);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('no config here');
  });

  it('are ES modules for a program that keeps another import.meta', async () => {
    const out = await bundled('meta.mjs', `console.log(typeof import.meta.resolve);\n`);
    expect(existsSync(`${out}.body.js`)).toBe(false);
    expect(run(out).stdout).toBe('function\n');
  });
});

const HOST = fileURLToPath(new URL('../helpers/fixture-host.mjs', import.meta.url));
const RELAY = fileURLToPath(new URL('../helpers/fixture-relay.mjs', import.meta.url));

/**
 * A program whose `--stdio` and `--http` starts the fixture host serves (test/helpers/fixture-host.mjs).
 * `--http [--port N]`: an HTTP server on 127.0.0.1 whose every answer stays open (`LISTENING <port>` on stdout).
 */
const HOSTED = `#!/usr/bin/env node
import process from 'node:process';
import { createServer } from 'node:http';
globalThis.sessions = (globalThis.sessions ?? 0) + 1;
let local = 0;
process.stderr.write('started ' + process.argv.slice(2).join(',') + '\\n');
if (process.argv.includes('--term')) process.on('SIGTERM', () => { process.stdout.write('term\\n'); process.exit(0); });
if (process.argv.includes('--http')) {
  const server = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).write('open\\n'));
  const port = process.argv.includes('--port') ? Number(process.argv[process.argv.indexOf('--port') + 1]) : 0;
  server.listen(port, '127.0.0.1', () => process.stdout.write('LISTENING ' + server.address().port + '\\n'));
} else {
  let input = '';
  process.stdin.on('data', (d) => (input += d));
  process.stdin.on('end', () => {
    local += 1;
    setTimeout(() => {
      console.log(JSON.stringify({ input, sessions: globalThis.sessions, local, env: process.env.MCPI_HOST_TEST, cwd: process.cwd() }));
      process.exit(3);
      process.stdout.write('after exit\\n');
    }, 1);
  });
}
`;

/** Starts `node <path> …args` with stdin piped; resolves with its outcome once it ends. */
function start(path: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, [path, ...args], { env, cwd: dir });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  // Once it has said so on stderr (or ended without).
  const started = new Promise<void>((resolve) => {
    child.stderr.on('data', () => stderr.includes('started') && resolve());
    child.once('close', () => resolve());
  });
  return { child, done, started };
}

describe('the fixture host', () => {
  let host: ChildProcess | undefined;
  afterAll(() => {
    host?.kill();
  });

  it('serves a stub started with --stdio: its argv, env, cwd, stdin, stdout, stderr and exit status are the session’s; module state is per session; without a host the stub runs the program', async () => {
    const socket = join(dir, 'host.sock');
    const out = await bundled('hosted.mjs', HOSTED, { socket, name: 'hosted.mjs', relay: RELAY });
    const env = { ...process.env, MCPI_HOST_TEST: 'from the stub' };
    const session = async (...args: string[]) => {
      const s = start(out, ['--stdio', ...args], env);
      s.child.stdin?.end('some input');
      return s.done;
    };

    // No host listening: the stub runs the program itself.
    const alone = await session();
    expect(alone).toMatchObject({ code: 3, signal: null, stderr: 'started --stdio\n' });
    expect(JSON.parse(alone.stdout)).toEqual({ input: 'some input', sessions: 1, local: 1, env: 'from the stub', cwd: dir });

    host = spawn(process.execPath, [HOST, socket, join(dir, 'out'), 'hosted.mjs'], { stdio: ['pipe', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => host?.stdout?.on('data', (d: Buffer) => d.toString().includes('READY') && resolve()));
    const first = await session('a b');
    const second = await session();
    expect(first).toMatchObject({ code: 3, signal: null, stderr: 'started --stdio,a b\n' });
    // One process served both (its globalThis), each with module state of its own; nothing runs after exit().
    expect(JSON.parse(first.stdout)).toEqual({ input: 'some input', sessions: 1, local: 1, env: 'from the stub', cwd: dir });
    expect(JSON.parse(second.stdout)).toEqual({ input: 'some input', sessions: 2, local: 1, env: 'from the stub', cwd: dir });
  });

  it('hands a signal to the session’s listener, and ends the stub by the signal when the session has none', async () => {
    const out = join(dir, 'out', 'hosted.mjs');
    const heard = start(out, ['--stdio', '--term']);
    await heard.started;
    heard.child.kill('SIGTERM');
    expect(await heard.done).toMatchObject({ code: 0, signal: null, stdout: 'term\n' });

    const deaf = start(out, ['--stdio']);
    await deaf.started;
    deaf.child.kill('SIGTERM');
    expect(await deaf.done).toMatchObject({ code: null, signal: 'SIGTERM', stdout: '' });
  });

  it('closes a session’s HTTP server and its connections when it ends: the port is free again once the stub has exited; a port taken ends the session', async () => {
    const out = join(dir, 'out', 'hosted.mjs');
    /** Starts `--http [--port N]` and resolves once it listens, with its port and an answer whose stream stays open. */
    const serve = async (port = 0) => {
      const s = start(out, ['--http', '--port', String(port)]);
      const listening = await new Promise<number>((resolve, reject) => {
        let text = '';
        s.child.stdout.on('data', (d: Buffer) => {
          const m = /LISTENING (\d+)/.exec((text += d.toString()));
          if (m) resolve(Number(m[1]));
        });
        s.child.once('close', () => reject(new Error('the stub ended before it listened')));
      });
      const answer = await new Promise<IncomingMessage>((resolve, reject) => get(`http://127.0.0.1:${listening}/`, resolve).once('error', reject));
      const broken = new Promise<void>((resolve) => answer.socket.once('close', () => resolve()));
      return { ...s, port: listening, broken };
    };

    // The signal's end (no listener): the open answer breaks, and the same port listens again at once.
    const first = await serve();
    first.child.kill('SIGTERM');
    expect(await first.done).toMatchObject({ code: null, signal: 'SIGTERM' });
    await first.broken;
    const second = await serve(first.port);
    expect(second.port).toBe(first.port);

    // A stub killed outright: the host sees its socket close and ends the session the same way.
    second.child.kill('SIGKILL');
    expect(await second.done).toMatchObject({ signal: 'SIGKILL' });
    await second.broken;
    const third = await serve(first.port);
    // Its port taken: the session ends as the process would, with the error (exit 1).
    const taken = start(out, ['--http', '--port', String(first.port)]);
    const crashed = await taken.done;
    expect(crashed).toMatchObject({ code: 1, stdout: '' });
    expect(crashed.stderr).toContain('EADDRINUSE');
    third.child.kill('SIGTERM');
    await third.done;
  });

  it('leaves its socket to a host already there (another run of the checkout), and once stopped ends after its open sessions', async () => {
    const socket = join(dir, 'host.sock');
    const out = join(dir, 'out', 'hosted.mjs');
    const second = spawnSync(process.execPath, [HOST, socket, join(dir, 'out'), 'hosted.mjs'], { encoding: 'utf8', timeout: 60_000 });
    expect(second).toMatchObject({ status: 0, stdout: 'SHARED\n' });

    const open = start(out, ['--stdio', 'open']);
    await open.started;
    const hostExit = new Promise<number | null>((resolve) => host?.once('exit', (code) => resolve(code)));
    host?.kill('SIGTERM');
    // No longer listening: a new stub runs the program itself (a process of its own: sessions 1).
    while (existsSync(socket)) await new Promise((r) => setTimeout(r, 20));
    const later = start(out, ['--stdio']);
    later.child.stdin?.end('later');
    expect(JSON.parse((await later.done).stdout)).toMatchObject({ input: 'later', sessions: 1 });
    // The open session is still served, and the host ends with it.
    open.child.stdin?.end('still served');
    const done = await open.done;
    expect(done).toMatchObject({ code: 3, stderr: 'started --stdio,open\n' });
    const served = JSON.parse(done.stdout) as { input: string; sessions: number };
    expect(served.input).toBe('still served');
    expect(served.sessions).toBeGreaterThan(1); // the host's count: not a process of its own
    expect(await hostExit).toBe(0);
    host = undefined;
  });
});
