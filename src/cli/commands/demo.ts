/**
 * `mcp-inspect demo` (a scripted tour of the built-in demo server) and `mcp-inspect demo-server`
 * (the demo server alone, over stdio or HTTP on 127.0.0.1).
 */
import { startDemoServer } from '../../demo/server.js';
import { UsageError } from '../../protocol/errors.js';
import { withSession } from '../session.js';
import { runDiscover } from './discover.js';
import { runTools } from './tools.js';
import { runCall } from './call.js';
import { runListen } from './listen.js';
import { makeOut } from '../output.js';
import { MAX_TIMER_MS, positiveNumber } from '../options.js';

export async function runDemo(flags: { duration: string; color?: boolean }): Promise<number> {
  const duration = positiveNumber(flags.duration, '--duration', 'seconds', Math.floor(MAX_TIMER_MS / 1000))!;
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
    return await withSession(url, [], { color: flags.color, quiet: true }, async (s) => {
      heading(1, 'discover', `discover ${url}`);
      await runDiscover(s);
      heading(2, 'tools', `tools ${url}`);
      await runTools(s, {});
      heading(3, 'call', `call ${url} add a=2 b=3`);
      await runCall(s, 'add', ['a=2', 'b=3'], {});
      heading(4, `listen (${duration} s)`, `listen ${url} --duration ${duration}`);
      const code = await runListen(s, { duration: String(duration) });
      out.line('');
      out.line(out.c.dim(`Try it yourself: mcp-inspect demo-server --http 3000, then mcp-inspect ${url.replace(/:\d+\//, ':3000/')} (interactive) or any command above.`));
      return code;
    });
  } finally {
    await server.close();
  }
}

export async function runDemoServer(flags: { http?: string | boolean; changeEvery: string }): Promise<number> {
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
    return 0;
  }
  const port = flags.http === true ? 0 : Number(flags.http);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--http takes a port number (got ${flags.http})`);
  let server;
  try {
    server = await startDemoServer({ transport: 'http', port, changeIntervalMs, log: (l) => process.stderr.write(l + '\n') });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new UsageError(`port ${port} is already in use; pick another with --http PORT, or --http 0 for any free port`);
    throw e;
  }
  process.stdout.write(`${server.url}\n`);
  process.stderr.write(`mcp-inspect demo server (MCP 2026-07-28); tool list changes every ${changeIntervalMs} ms; Ctrl-C to stop\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.close();
  return 0;
}
