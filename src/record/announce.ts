/**
 * A running proxy announces itself for `mcp-inspect attach` (issue 20 §2): a Unix socket with
 * mode 0600 in the user's runtime folder (src/state `runtimeDir`: `$XDG_RUNTIME_DIR/mcp-inspect`,
 * else a 0700 folder of our own), named after the server and made unique (`name.sock`,
 * `name-2.sock`…). It is removed when the proxy ends; the socket of a proxy that was killed
 * (nothing listens on it any more) is removed by the next proxy that wants the name and by
 * every listing.
 *
 * The protocol on the socket is NDJSON. The peer sends one line:
 * - `{"info": true}`: the proxy answers one line ({@link ProxyInfo}) and closes.
 * - `{"attach": {"backlog": true|false}}`: the proxy sends the recording's header line, then
 *   (with `backlog`) the lines so far that it still holds, then every line as it happens
 *   (the lines `--record` writes, see ./format.ts), until the proxy ends (the socket closes).
 *
 * An attacher never slows the proxy: each one has a bounded buffer, and lines that do not fit
 * are dropped and marked with a `{"t", "gap": {"lines": N}}` line once it drains.
 */
import { chmodSync, lstatSync, readdirSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { runtimeDir } from '../state/index.js';
import type { RecordedTarget, RecordedTransport } from './format.js';

/** What a listing says of one running proxy. */
export interface ProxyInfo {
  /** The name it announced itself with (the socket's file name without `.sock`). */
  name: string;
  /** The proxy's process id. */
  pid: number;
  target: RecordedTarget;
  transport: RecordedTransport;
  /** When the proxy started (ISO 8601). */
  started: string;
  /** How many viewers are attached now. */
  attachers: number;
  /** mcp-inspect's version in the proxy. */
  version: string;
  /** The socket's path. */
  socket: string;
}

/** What the proxy tells a new attacher first: the header line and the lines so far (each ending with a newline). */
export type AttachGreeting = (backlog: boolean) => string[];

/** The target of a proxy in one line: its command line or URL. Pure. */
export function proxyTarget(p: Pick<ProxyInfo, 'target'>): string {
  return 'url' in p.target ? p.target.url : [p.target.command, ...p.target.args].join(' ');
}

/** The most an attacher's socket may hold unsent (bytes) before lines are dropped for it. */
export const ATTACH_BUFFER_BYTES = 1024 * 1024;
/** The longest request line a peer may send (bytes). */
const MAX_HELLO = 4096;
/** ms a peer has to send its request line; a listing waits as long for the answer. */
export const HELLO_TIMEOUT_MS = 5000;
/** The longest name of a socket (characters, before `-N.sock`). */
const MAX_NAME = 40;

/** Programs that run the server named by their first plain argument (`npx -y pkg`, `node server.js`): the server is named after that argument. */
const LAUNCHERS = new Set([
  'node',
  'nodejs',
  'npx',
  'pnpx',
  'bunx',
  'bun',
  'deno',
  'tsx',
  'ts-node',
  'uv',
  'uvx',
  'pipx',
  'python',
  'python3',
  'py',
  'sh',
  'bash',
  'docker',
  'podman',
  'cmd',
]);
/** Sub-commands of launchers that come before the server's name (`uv run x`, `docker run img`). */
const LAUNCHER_VERBS = new Set(['run', 'x', 'exec', 'dlx', 'tool', '/c']);

/** `s` as a file name: letters, digits, `.`, `_`, `-` only, at most {@link MAX_NAME} characters; `server` when nothing is left. Pure. */
export function socketName(s: string): string {
  const clean = s
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .slice(0, MAX_NAME)
    .replace(/[.-]+$/, '');
  return clean || 'server';
}

/**
 * The name a proxy announces itself with (before it is made unique): `given` (the config
 * entry's name, `proxy --name`), else the URL's host (`127.0.0.1-3000`), else the command's
 * basename, or for a launcher (`node`, `npx`, `uvx`, `docker`…) the basename of the first
 * plain argument without its extension (`npx -y @scope/server-x` → `server-x`). Pure.
 */
export function proxyName(target: RecordedTarget, given?: string): string {
  if (given?.trim()) return socketName(given.trim());
  if ('url' in target) {
    try {
      return socketName(new URL(target.url).host);
    } catch {
      return 'server';
    }
  }
  const base = (p: string) => p.split(/[\\/]/).pop() ?? p;
  const cmd = base(target.command).replace(/\.(exe|cmd|bat)$/i, '');
  if (!LAUNCHERS.has(cmd.toLowerCase())) return socketName(cmd);
  const arg = target.args.find((a) => !a.startsWith('-') && !LAUNCHER_VERBS.has(a));
  if (!arg) return socketName(cmd);
  return socketName(base(arg.replace(/@[^@/]*$/, '')).replace(/\.(m?[jt]s|cjs|py|sh)$/i, ''));
}

/** One attached viewer. */
interface Attacher {
  sock: Socket;
  /** Lines dropped since the last gap line. */
  dropped: number;
}

/** A proxy's announcement: its socket, its attachers. */
export class Announcement {
  private readonly attachers = new Set<Attacher>();
  private closed = false;
  private readonly onExit = () => this.unlink();

  /** @internal use {@link announce}. */
  constructor(
    private readonly server: Server,
    /** The socket's path. */
    readonly socket: string,
    /** The name announced (the file name without `.sock`). */
    readonly name: string,
    private readonly info: Omit<ProxyInfo, 'name' | 'attachers' | 'socket'>,
    private readonly greeting: AttachGreeting,
    private readonly now: () => number,
  ) {
    process.once('exit', this.onExit);
    server.on('connection', (sock) => this.accept(sock));
  }

  /** How many viewers are attached. */
  get attached(): number {
    return this.attachers.size;
  }

  /** Sends `text` (one line with its newline) to every attacher, dropping it for those whose buffer is full. */
  broadcast(text: string): void {
    for (const a of this.attachers) this.send(a, text);
  }

  /** Stops announcing: the socket is removed and every attacher's stream ends (idempotent). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    process.off('exit', this.onExit);
    for (const a of this.attachers) a.sock.end();
    this.attachers.clear();
    this.server.close();
    this.unlink();
  }

  private unlink(): void {
    try {
      unlinkSync(this.socket);
    } catch {
      /* gone already */
    }
  }

  private send(a: Attacher, text: string): void {
    if (a.sock.writableLength > ATTACH_BUFFER_BYTES) {
      a.dropped++;
      return;
    }
    if (a.dropped) this.gap(a);
    a.sock.write(text);
  }

  private gap(a: Attacher): void {
    a.sock.write(JSON.stringify({ t: this.now(), gap: { lines: a.dropped } }) + '\n');
    a.dropped = 0;
  }

  /** Reads the peer's request line, then answers it (see the module's comment). */
  private accept(sock: Socket): void {
    sock.on('error', () => sock.destroy());
    sock.setTimeout(HELLO_TIMEOUT_MS, () => sock.destroy());
    let buf = '';
    const onData = (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl < 0) {
        if (buf.length > MAX_HELLO) sock.destroy();
        return;
      }
      sock.off('data', onData);
      sock.setTimeout(0);
      let req: { info?: unknown; attach?: { backlog?: unknown } } = {};
      try {
        req = JSON.parse(buf.slice(0, nl)) as typeof req;
      } catch {
        /* answered below */
      }
      if (this.closed) return void sock.end();
      if (req.attach) {
        const a: Attacher = { sock, dropped: 0 };
        // The greeting and the live lines join in this tick: no line is lost or repeated in between.
        for (const line of this.greeting(req.attach.backlog !== false)) this.send(a, line);
        this.attachers.add(a);
        sock.on('drain', () => {
          if (a.dropped) this.gap(a);
        });
        sock.once('close', () => this.attachers.delete(a));
        // An attacher only reads: what it sends after its request is ignored.
        sock.resume();
        return;
      }
      if (req.info) return void sock.end(JSON.stringify(this.describe()) + '\n');
      sock.end(JSON.stringify({ error: 'send {"info":true} or {"attach":{"backlog":true}} as the first line' }) + '\n');
    };
    sock.on('data', onData);
  }

  /** The listing's line for this proxy. */
  describe(): ProxyInfo {
    return { name: this.name, ...this.info, attachers: this.attachers.size, socket: this.socket };
  }
}

/** True when something answers on the socket at `p`; false when nothing listens there (a dead proxy's socket) or it is gone. */
function socketLive(p: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection(p);
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

/** Removes `p` when it is a socket nobody listens on (a proxy killed without cleaning up); true when it was removed. */
async function removeIfStale(p: string): Promise<boolean> {
  try {
    if (!lstatSync(p).isSocket()) return false;
  } catch {
    return false;
  }
  if (await socketLive(p)) return false;
  try {
    unlinkSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Listens on `p` with the socket file made 0600 (the folder is 0700 as well). Rejects with the listen error (EADDRINUSE…). */
function listenPrivate(server: Server, p: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    server.once('error', onError);
    // The umask makes the socket 0600 from its first instant; bind happens within listen().
    const old = process.umask(0o177);
    try {
      server.listen(p, () => {
        server.off('error', onError);
        try {
          chmodSync(p, 0o600);
        } catch {
          /* the umask made it so */
        }
        resolve();
      });
    } finally {
      process.umask(old);
    }
  });
}

/** What {@link announce} needs. */
export interface AnnounceOptions {
  /** The name wanted (see {@link proxyName}); `-2`, `-3`… is added while a live proxy holds it. */
  name: string;
  target: RecordedTarget;
  transport: RecordedTransport;
  /** When the proxy started (ISO 8601). */
  started: string;
  version: string;
  /** The lines a new attacher gets first (the header, and the lines so far when it asks for them). */
  greeting: AttachGreeting;
  /** ms since the recording's start, for gap lines. */
  now: () => number;
  /** The folder (default: src/state `runtimeDir()`). */
  dir?: string;
}

/**
 * Announces a proxy: listens on `<dir>/<name>.sock` (or the first free `<name>-N.sock`),
 * taking over the socket of a proxy that died without removing it. Resolves undefined when no
 * runtime folder can be used or no name is free: the proxy then runs unannounced (it must
 * work whatever the folder's state).
 */
export async function announce(opts: AnnounceOptions): Promise<Announcement | undefined> {
  const dir = opts.dir ?? runtimeDir();
  if (!dir) return undefined;
  const server = createServer({ pauseOnConnect: false });
  server.unref();
  for (let i = 1; i <= 50; i++) {
    const name = i === 1 ? opts.name : `${opts.name}-${i}`;
    const p = path.join(dir, `${name}.sock`);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await listenPrivate(server, p);
        const info = { pid: process.pid, target: opts.target, transport: opts.transport, started: opts.started, version: opts.version };
        return new Announcement(server, p, name, info, opts.greeting, opts.now);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') return undefined;
        // A dead proxy's socket: take the name over once; a live one keeps it.
        if (!(attempt === 0 && (await removeIfStale(p)))) break;
      }
    }
  }
  return undefined;
}

/** The sockets of `dir` (`*.sock`), by name. */
function socketFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.sock'))
      .sort();
  } catch {
    return [];
  }
}

/** Asks the proxy at `p` for its {@link ProxyInfo}; undefined when it does not answer (a dead proxy's socket, which is removed). */
export function proxyInfo(p: string, timeoutMs = HELLO_TIMEOUT_MS): Promise<ProxyInfo | undefined> {
  return new Promise((resolve) => {
    const c = createConnection(p);
    let buf = '';
    const done = (v: ProxyInfo | undefined) => {
      c.destroy();
      resolve(v);
    };
    c.setTimeout(timeoutMs, () => done(undefined));
    c.once('connect', () => c.write('{"info":true}\n'));
    c.on('data', (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      try {
        const info = JSON.parse(buf.slice(0, nl)) as ProxyInfo;
        done(typeof info.name === 'string' && typeof info.pid === 'number' ? info : undefined);
      } catch {
        done(undefined);
      }
    });
    c.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ECONNREFUSED') void removeIfStale(p).finally(() => done(undefined));
      else done(undefined);
    });
    c.once('end', () => done(undefined));
  });
}

/**
 * The proxies running now for this user (in the runtime folder, or `dir`), sorted by start.
 * Sockets of dead proxies are removed on the way.
 */
export async function listProxies(dir: string | undefined = runtimeDir()): Promise<ProxyInfo[]> {
  if (!dir) return [];
  const infos = await Promise.all(socketFiles(dir).map((f) => proxyInfo(path.join(dir, f))));
  return infos.filter((i): i is ProxyInfo => !!i).sort((a, b) => a.started.localeCompare(b.started) || a.name.localeCompare(b.name));
}

/**
 * Opens the live stream of the proxy at `socket` (see the module's comment): resolves with the
 * connected socket, the request already sent; its data is NDJSON (the header line first).
 * Rejects with the connect error (ENOENT: the proxy is gone; ECONNREFUSED: it died).
 */
export function openAttach(socket: string, backlog: boolean): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const c = createConnection(socket);
    c.once('error', reject);
    c.once('connect', () => {
      c.off('error', reject);
      c.write(JSON.stringify({ attach: { backlog } }) + '\n');
      resolve(c);
    });
  });
}
