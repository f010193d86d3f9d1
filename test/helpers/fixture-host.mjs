#!/usr/bin/env node
// The fixture host: one Node process of the test run in which the SDK fixture servers serve
// their stdio and HTTP sessions, warm. A stdio start of modern-server.mjs cost ~0.3 s of CPU, of
// which a bare Node start is ~0.06: the rest was loading the SDK and zod and running them cold (a
// flat profile of interpreted code), and the tests start these servers ~200 times a run over
// stdio, mostly through the CLI under test, and ~90 times over HTTP. A fixture's stub (its
// bundle's runner, test/helpers/bundles.ts) started with `--stdio` or `--http` connects here
// instead of running the bundle itself, and relays its stdin, stdout, stderr, exit status and
// signals (test/helpers/fixture-relay.mjs). The CLI still spawns a real process and talks to it
// over real pipes (or to its port); the server is the same SDK code, run here as the body of the
// fixture's bundle, once per session. The HTTP servers a session creates (its `node:http`) and
// their connections are closed when the session ends, before the stub exits: the port is free
// again and a client's streams break, as when a process ends.
//
// A session is one call of the bundle's body with a `process` of its own (argv, env, cwd, stdin,
// stdout, stderr, exit, signal listeners), its own `console`, and timers that end with it: the
// body is compiled once, with those names as its parameters, so that every free use of them in
// the fixture, the SDK and zod is the session's (the bundle takes `node:process` through its
// `require`, which gives the session's too). Module state (a fixture's tool variant, its
// listeners) is the session's, as it was the process's. `process.exit()` ends the session: the
// stub exits with that code. A signal with no listener in the session ends it as that signal
// would end the process.
//
// Frames, both ways: a type byte, a 4-byte big-endian length, the payload.
//   stub → host: 0 header (JSON {fixture, argv, env, cwd}), 1 stdin bytes, 2 stdin's end, 3 signal (its name)
//   host → stub: 1 stdout bytes, 2 stderr bytes, 3 exit (a code, or a signal's name)
//
// Usage: node fixture-host.mjs <socket path> <bundle folder> <fixture>…   (prints `READY` on stdout once
// listening, or `SHARED` and exits when another host already listens there)
import { EventEmitter } from 'node:events';
import { Console } from 'node:console';
import http from 'node:http';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { frame, readFrames } from './fixture-relay.mjs';

const [socketPath, dir, ...hosted] = process.argv.slice(2);
if (!socketPath || !dir || hosted.length === 0) {
  process.stderr.write('usage: fixture-host.mjs <socket path> <bundle folder> <fixture>…\n');
  process.exit(2);
}

/** The names a session's body is given besides the bundle's own `require` and `import.meta.url`. */
const SESSION_NAMES = ['process', 'console', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate'];
/** How a script bundle's body begins (test/helpers/bundles.ts scriptFiles). */
const BODY_HEAD = '(async function (require, __mcpiImportMetaUrl) {';

/** fixture (relative name, e.g. `surface/modern-surface.mjs`) → its body, compiled once. */
const bodies = new Map();
function bodyOf(fixture) {
  let body = bodies.get(fixture);
  if (!body) {
    const file = join(dir, `${fixture}.body.js`);
    const text = readFileSync(file, 'utf8');
    if (!text.startsWith(BODY_HEAD)) throw new Error(`${file} is not a script bundle's body`);
    const head = `(async function (require, __mcpiImportMetaUrl, ${SESSION_NAMES.join(', ')}) {`;
    body = new Script(head + text.slice(BODY_HEAD.length), { filename: file }).runInThisContext();
    bodies.set(fixture, body);
  }
  return body;
}

/** Thrown by a session's `process.exit()`, so that nothing after it runs (as in a process). */
const EXIT = Symbol('fixture-host: session exit');

function session(sock) {
  let dead = false;
  let started = false;
  const send = (type, payload) => {
    if (!dead) sock.write(frame(type, payload));
  };
  const timers = new Set();
  const immediates = new Set();
  const signals = new EventEmitter();
  const stdin = new PassThrough();
  const writable = (type) =>
    new Writable({
      write(chunk, _encoding, done) {
        send(type, chunk);
        done();
      },
    });
  const stdout = writable(1);
  const stderr = writable(2);
  // The session's HTTP servers (`--http`) and their connections: a process's end closes them
  // at once, so the session's end does too (a port is free again, a client's stream breaks).
  const servers = new Set();
  const sockets = new Set();
  const sessionHttp = {
    ...http,
    createServer: (...args) => {
      const server = http.createServer(...args);
      // An 'error' nobody listens for (a port already taken) crashes a process: end the session so.
      const emit = server.emit;
      server.emit = function (event, ...rest) {
        if (event === 'error' && server.listenerCount('error') === 0) {
          crash(rest[0]);
          return false;
        }
        return emit.call(this, event, ...rest);
      };
      servers.add(server);
      server.on('connection', (s) => {
        sockets.add(s);
        s.once('close', () => sockets.delete(s));
      });
      server.once('close', () => servers.delete(server));
      return server;
    },
  };

  /**
   * Ends the session: the stub exits with `status` (a code, or a signal's name). Its HTTP
   * servers and connections are closed first, as a process's sockets close before its parent
   * sees it exit.
   */
  const finish = (status) => {
    if (dead) return;
    dispose();
    sock.end(frame(3, String(status)));
  };
  const dispose = () => {
    for (const s of sockets) s.destroy();
    for (const server of servers) server.close();
    sockets.clear();
    servers.clear();
    dead = true;
    for (const t of timers) clearTimeout(t);
    for (const i of immediates) clearImmediate(i);
    timers.clear();
    immediates.clear();
    signals.removeAllListeners();
    stdin.destroy();
  };

  // The session's `process`: the host's, but for what is the session's own (own properties
  // over the host's, several of which are getters).
  const fake = Object.create(process);
  const own = (props) => {
    for (const [k, value] of Object.entries(props)) Object.defineProperty(fake, k, { value, writable: true, configurable: true, enumerable: true });
  };
  own({
    stdin,
    stdout,
    stderr,
    exitCode: undefined,
    exit(code) {
      if (!dead) {
        signals.emit('exit', code ?? fake.exitCode ?? 0);
        finish(code ?? fake.exitCode ?? 0);
      }
      throw EXIT;
    },
  });
  for (const m of ['on', 'once', 'off', 'addListener', 'removeListener', 'removeAllListeners', 'prependListener', 'prependOnceListener']) {
    own({
      [m]: (...args) => {
        signals[m](...args);
        return fake;
      },
    });
  }
  for (const m of ['emit', 'listenerCount', 'listeners']) own({ [m]: (...args) => signals[m](...args) });
  const timer =
    (set) =>
    (fn, ms, ...args) => {
      const t = set(() => {
        if (set === setTimeout) timers.delete(t);
        if (!dead) fn(...args);
      }, ms);
      timers.add(t);
      return t;
    };
  const names = {
    console: new Console({ stdout, stderr }),
    setTimeout: timer(setTimeout),
    setInterval: timer(setInterval),
    clearTimeout: (t) => {
      timers.delete(t);
      clearTimeout(t);
    },
    clearInterval: (t) => {
      timers.delete(t);
      clearInterval(t);
    },
    setImmediate: (fn, ...args) => {
      const i = setImmediate(() => {
        immediates.delete(i);
        if (!dead) fn(...args);
      });
      immediates.add(i);
      return i;
    },
    clearImmediate: (i) => {
      immediates.delete(i);
      clearImmediate(i);
    },
  };

  const start = (header) => {
    const { fixture, argv, env, cwd } = JSON.parse(header.toString('utf8'));
    if (!hosted.includes(fixture)) throw new Error(`not a hosted fixture: ${fixture}`);
    const stub = join(dir, fixture);
    own({ argv: [process.execPath, stub, ...argv], argv0: 'node', env, cwd: () => cwd });
    const base = createRequire(stub);
    const require = (id) => (id === 'node:process' || id === 'process' ? fake : id === 'node:http' || id === 'http' ? sessionHttp : base(id));
    const body = bodyOf(fixture);
    const run = body(require, pathToFileURL(stub).href, fake, ...SESSION_NAMES.slice(1).map((n) => names[n]));
    run.catch(crash);
  };
  /** What an uncaught error does to a process: its stack on stderr, exit status 1. */
  const crash = (e) => {
    if (e === EXIT || dead) return;
    send(2, `${e instanceof Error ? e.stack : String(e)}\n`);
    finish(1);
  };

  readFrames(sock, (type, payload) => {
    try {
      if (type === 0 && !started) {
        started = true;
        start(payload);
      } else if (type === 1) stdin.write(payload);
      else if (type === 2) stdin.end();
      else if (type === 3) {
        const sig = payload.toString('utf8');
        if (signals.listenerCount(sig) > 0) signals.emit(sig, sig);
        else finish(sig);
      }
    } catch (e) {
      crash(e);
    }
  });
  sock.on('error', () => {});
  open.add(sock);
  sock.on('close', () => {
    if (!dead) dispose();
    open.delete(sock);
    if (stopping && open.size === 0) process.exit(0);
  });
}

// An error a session's callback throws (a timer, a stream listener) cannot be told apart from
// another session's here: it is said on the host's stderr, and the sessions go on.
process.on('uncaughtException', (e) => {
  if (e !== EXIT) process.stderr.write(`fixture-host: ${e instanceof Error ? e.stack : String(e)}\n`);
});
process.on('unhandledRejection', (e) => {
  if (e !== EXIT) process.stderr.write(`fixture-host: unhandled rejection: ${e instanceof Error ? e.stack : String(e)}\n`);
});

/** How long a stopped host goes on serving its open sessions, in ms. */
const DRAIN_MS = 30_000;
/** The stubs' connections (one a session). */
const open = new Set();
let stopping = false;
let ours; // the socket file this host made (its inode), removed at the end only if it still is

// Another test run of this checkout (the same bundle folder) may have a host listening here:
// it serves this run too (SHARED), rather than this host taking its socket over, which would
// lose the other's sessions when this run ends.
const shared = await new Promise((resolve) => {
  const probe = connect(socketPath);
  probe.once('connect', () => {
    probe.destroy();
    resolve(true);
  });
  probe.once('error', () => resolve(false));
});
if (shared) {
  process.stdout.write('SHARED\n');
  process.exit(0);
}
rmSync(socketPath, { force: true });
const server = createServer(session);
server.listen(socketPath, () => {
  ours = statSync(socketPath).ino;
  process.stdout.write('READY\n');
});
/**
 * Stops taking sessions and removes the socket; exits once the open sessions have ended (the
 * run that started it is over, but a run sharing it may still have sessions open), or after
 * DRAIN_MS at the latest: a stub left running must not keep it (and the output it inherited) open.
 */
const stop = () => {
  if (stopping) return;
  stopping = true;
  server.close();
  try {
    if (statSync(socketPath).ino === ours) rmSync(socketPath, { force: true });
  } catch {
    // Gone already.
  }
  if (open.size === 0) process.exit(0);
  setTimeout(() => process.exit(0), DRAIN_MS);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The run that started it is gone: stop too.
process.stdin.on('end', stop);
process.stdin.resume();
