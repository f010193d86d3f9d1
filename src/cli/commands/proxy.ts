/**
 * `mcp-inspect proxy -- CMD ARGS…`: the body (its spec, with the help: ./proxy.spec.ts). The
 * wire code is src/record/proxy-stdio.ts; this parses the flags and hands over.
 */
import { UsageError } from '../../protocol/errors.js';
import { redactUrl } from '../../util/redact.js';
import { EXIT } from '../exit.js';
import type { CommandSpec } from '../command.js';
import { recordOptions, type RecordFlags } from './record-flags.js';
import type { RecordOptions } from '../../record/writer.js';
import { isUrl } from '../target.js';
import type { CommonFlags } from '../options.js';

/** The `--http` port (0: any free one); throws UsageError for anything else. */
function portOf(flags: ProxyFlags): number {
  const port = flags.http === true ? 0 : Number(flags.http);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--http takes a port number (got ${String(flags.http)})`);
  return port;
}

/** Prints the listener's URL, runs until SIGINT/SIGTERM, then `close()`s. */
async function untilSignal(url: string, what: string, close: () => Promise<void>): Promise<number> {
  process.stdout.write(`${url}\n`);
  process.stderr.write(`mcp-inspect proxy: ${url} → ${what}; Ctrl-C to stop\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await close();
  return EXIT.ok;
}

/** ` (watch it: mcp-inspect attach NAME)` for a proxy that was announced, else nothing. */
function watchNote(name: string | undefined): string {
  return name ? ` (watch it: mcp-inspect attach ${name})` : '';
}

/** Rethrows a listen error, EADDRINUSE as a UsageError naming the port. */
function listenError(e: unknown, port: number): never {
  if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
    throw new UsageError(`port ${port} is already in use; pick another with --http PORT, or --http 0 for any free port`);
  throw e;
}

/** `proxy --http PORT -- CMD`: a stdio server over Streamable HTTP (src/record/proxy-serve.ts), until SIGINT/SIGTERM. */
async function serveStdio(command: string[], flags: ProxyFlags): Promise<number> {
  if (flags.inject?.length) throw new UsageError('--inject applies to proxy -- CMD and proxy --http PORT URL, not to a stdio server served over HTTP');
  const port = portOf(flags);
  const { serveStdioOverHttp } = await import('../../record/proxy-serve.js');
  const warn = (s: string) => process.stderr.write(`mcp-inspect proxy: ${s}\n`);
  const [cmd, ...args] = command;
  const served = await serveStdioOverHttp({ command: cmd, args, port, host: flags.host, warn, ...tapOptions(flags) }).catch((e: unknown) =>
    listenError(e, port),
  );
  return untilSignal(served.url, command.join(' ') + watchNote(served.attachName), () => served.close());
}

/** `proxy --http PORT URL`: the HTTP proxy, until SIGINT/SIGTERM. */
async function httpProxy(command: string[], words: string[], flags: ProxyFlags): Promise<number> {
  if (command.length) {
    if (words.length) throw new UsageError('proxy --http PORT takes the URL of an HTTP server or a command after --, not both');
    return serveStdio(command, flags);
  }
  if (words.length !== 1 || !isUrl(words[0]))
    throw new UsageError('proxy --http PORT takes the URL of the server, e.g. mcp-inspect proxy --http 3001 http://127.0.0.1:3000/mcp');
  const port = portOf(flags);
  const [{ parseFaults }, { startHttpProxy }] = await Promise.all([import('../../record/faults.js'), import('../../record/proxy-http.js')]);
  const faults = parseFaults(flags.inject ?? [], 'http');
  const warn = (s: string) => process.stderr.write(`mcp-inspect: ${s}\n`);
  const proxy = await startHttpProxy({ upstream: words[0], port, host: flags.host, faults, warn, ...tapOptions(flags) }).catch((e: unknown) =>
    listenError(e, port),
  );
  return untilSignal(proxy.url, redactUrl(words[0]) + watchNote(proxy.attachName), () => proxy.close());
}

/**
 * `proxy [--record FILE] URL`: the stdio ↔ HTTP bridge (src/record/bridge.ts) until the host
 * closes stdin or signals; OAuth through the provider and token store of `auth login`. A 401
 * logs in when a person (a terminal), a `--browser` command or a desktop browser is there;
 * otherwise the bridge ends with exit 4 naming `mcp-inspect auth login URL`.
 */
async function bridge(url: string, flags: ProxyFlags): Promise<number> {
  if (flags.inject?.length) throw new UsageError('--inject applies to proxy -- CMD and proxy --http; the bridge (proxy URL) has no faults to inject');
  const [{ resolveTarget }, { authInteractive, authProviderFor, authorizationUrlLines }, { resolveBrowser }, { startBridge }, { sanitizeLine }] =
    await Promise.all([
      import('../target.js'),
      import('../auth-provider.js'),
      import('../../auth/browser.js'),
      import('../../record/bridge.js'),
      import('../../util/sanitize.js'),
    ]);
  const warn = (s: string) => process.stderr.write(`mcp-inspect proxy: ${s}\n`);
  const target = await resolveTarget(url, [], flags, { onWarning: warn });
  if (target.kind === 'stdio') throw new UsageError('proxy URL takes the URL of an HTTP server');
  const ctl = new AbortController();
  // The host spawned us: stdin is its pipe, never a terminal. A browser can still be opened on a desktop.
  const browser = resolveBrowser({ browser: typeof flags.browser === 'string' ? flags.browser : undefined, noBrowser: flags.browser === false });
  const auth = await authProviderFor(
    target,
    flags,
    {
      signal: ctl.signal,
      onInfo: warn,
      onWarning: warn,
      onAuthorizationUrl: (u, opened) => {
        for (const l of authorizationUrlLines(sanitizeLine(u), opened)) warn(l);
      },
    },
    { interactive: authInteractive(flags) || browser.kind !== 'none' },
  );
  const b = startBridge({
    url: target.url,
    headers: target.headers,
    auth,
    transport: target.kind === 'sse' ? 'sse' : target.transportFixed ? 'streamable-http' : undefined,
    warn,
    ...tapOptions(flags),
  });
  const onSignal = () => {
    ctl.abort();
    void b.close();
  };
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(s, onSignal);
  try {
    return await b.done;
  } finally {
    for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.off(s, onSignal);
  }
}

export interface ProxyFlags extends RecordFlags, CommonFlags {
  inject?: string[];
  http?: string | boolean;
  host: string;
  /** `--name`: what `attach` knows the proxy by. */
  name?: string;
  /** `--no-announce` sets it false. */
  announce?: boolean;
}

/** The recording and announcing options every form of the proxy takes: `--record` (and its flags), `--name`, `--no-announce`; `--redact` also applies to the attach stream alone. */
export function tapOptions(flags: ProxyFlags): { record?: RecordOptions; redact?: string[]; announce: { name?: string } | false } {
  const record = recordOptions(flags.record ? flags : { ...flags, redact: undefined });
  return { record, redact: flags.redact, announce: flags.announce === false ? false : { name: flags.name } };
}

/** The body of `proxy`. */
export const proxyBody: CommandSpec<ProxyFlags>['run'] = async (inv, words, flags) => {
  if (flags.http !== undefined) return httpProxy(inv.command, words, flags);
  if (words.length === 1 && isUrl(words[0])) {
    if (inv.command.length) throw new UsageError('give the URL of an HTTP server or a command after --, not both');
    return bridge(words[0], flags);
  }
  if (words.length)
    throw new UsageError(
      `proxy takes the server's command after --, e.g. mcp-inspect proxy --record s.ndjson -- node server.js (got ${words.map((w) => JSON.stringify(w)).join(' ')})`,
    );
  if (!inv.command.length) throw new UsageError('proxy needs the command of a stdio server after --, e.g. mcp-inspect proxy -- node server.js');
  const [{ parseFaults }, { runStdioProxy }] = await Promise.all([import('../../record/faults.js'), import('../../record/proxy-stdio.js')]);
  const faults = parseFaults(flags.inject ?? [], 'stdio');
  const [command, ...args] = inv.command;
  return runStdioProxy({ command, args, faults, ...tapOptions(flags) });
};
