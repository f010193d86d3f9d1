/**
 * `mcp-inspect demo` (a scripted tour of the built-in demo server) and `mcp-inspect demo-server`
 * (the demo server alone, over stdio or HTTP on 127.0.0.1).
 */
import { UsageError } from '../../protocol/errors.js';
import type { Invocation, CommandSpec } from '../command.js';
import { describeServer } from './discover.js';
import { listTools } from './tools.js';
import { callTool } from './call.js';
import { runListen } from './listen.js';
import { MAX_TIMER_MS, positiveNumber } from '../options.js';
import { EXIT } from '../exit.js';

export interface DemoFlags {
  duration: string;
  color?: boolean;
}

/** The body of `demo` (its spec, with the help: ./demo.spec.ts). */
export const demoBody: CommandSpec<DemoFlags>['run'] = (inv, _words, flags) => runDemo(inv, flags);

export interface DemoServerFlags {
  http?: string | boolean;
  changeEvery: string;
}

/** The body of `demoServer` (its spec, with the help: ./demo.spec.ts). */
export const demoServerBody: CommandSpec<DemoServerFlags>['run'] = (_inv, _words, flags) => runDemoServer(flags);

/** The scripted tour: discover, tools, a call and a listen against the demo server over HTTP, for people (no --json). */
export async function runDemo(inv: Invocation, flags: DemoFlags): Promise<number> {
  const duration = positiveNumber(flags.duration, '--duration', 'seconds', Math.floor(MAX_TIMER_MS / 1000))!;
  const [{ startDemoServer }, { withSession }, { makeOut, present }] = await Promise.all([
    import('../../demo/server.js'),
    import('../session.js'),
    import('../output.js'),
  ]);
  const out = makeOut({ color: flags.color });
  const server = await startDemoServer({ transport: 'http', port: 0, changeIntervalMs: 3000 });
  const url = server.url!;
  const heading = (n: number, title: string, cmd: string) => {
    out.line('');
    out.line(out.c.bold(`── ${n}/4 ${title} `.padEnd(60, '─')));
    out.line(out.c.dim(`$ mcp-inspect ${cmd}`));
  };
  try {
    out.line(out.c.dim(`The demo server is running at ${url}; it changes its tool list every 3 s.`));
    return await withSession(inv, url, [], { color: flags.color, quiet: true }, async (s) => {
      heading(1, 'discover', `discover ${url}`);
      present(describeServer(s), s.out, s.findings);
      heading(2, 'tools', `tools ${url}`);
      present(await listTools(s, {}), s.out, s.findings);
      heading(3, 'call', `call ${url} add a=2 b=3`);
      present(await callTool(s, 'add', ['a=2', 'b=3'], {}), s.out, s.findings);
      heading(4, `listen (${duration} s)`, `listen ${url} --duration ${duration}`);
      const code = present(await runListen(s, { duration: String(duration) }), s.out, s.findings);
      out.line('');
      out.line(
        out.c.dim(
          `Try it yourself: mcp-inspect demo-server --http 3000, then mcp-inspect ${url.replace(/:\d+\//, ':3000/')} (interactive) or any command above.`,
        ),
      );
      return code;
    });
  } finally {
    await server.close();
  }
}

/** The demo server alone: over stdio until stdin closes, or over HTTP on 127.0.0.1 until a signal. */
export async function runDemoServer(flags: DemoServerFlags): Promise<number> {
  const { startDemoServer } = await import('../../demo/server.js');
  const changeIntervalMs = Number(flags.changeEvery);
  if (!Number.isFinite(changeIntervalMs) || changeIntervalMs < 0) throw new UsageError(`--change-every must be a number of ms ≥ 0 (got ${flags.changeEvery})`);
  if (flags.http === undefined) {
    const server = await startDemoServer({ transport: 'stdio', changeIntervalMs });
    // Ends when the client closes stdin (server.done) or on a signal.
    await Promise.race([
      server.done,
      new Promise<void>((resolve) => {
        process.once('SIGTERM', resolve);
        process.once('SIGINT', resolve);
      }),
    ]);
    await server.close();
    return EXIT.ok;
  }
  const port = flags.http === true ? 0 : Number(flags.http);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--http takes a port number (got ${flags.http})`);
  let server;
  try {
    server = await startDemoServer({ transport: 'http', port, changeIntervalMs, log: (l) => process.stderr.write(l + '\n') });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new UsageError(`port ${port} is already in use; pick another with --http PORT, or --http 0 for any free port`);
    throw e;
  }
  process.stdout.write(`${server.url}\n`);
  process.stderr.write(`mcp-inspect demo server (MCP 2026-07-28); tool list changes every ${changeIntervalMs} ms; Ctrl-C to stop\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.close();
  return EXIT.ok;
}
