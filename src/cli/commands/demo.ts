/**
 * `mcp-inspect demo` (a scripted tour of the built-in demo server, each step a command line of mcp-inspect itself) and `mcp-inspect demo-server`
 * (the demo server alone, over stdio or HTTP on 127.0.0.1).
 */
import { UsageError } from '../../protocol/errors.js';
import type { Invocation, CommandSpec } from '../command.js';
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
  conformance?: boolean;
}

/** The body of `demoServer` (its spec, with the help: ./demo.spec.ts). */
export const demoServerBody: CommandSpec<DemoServerFlags>['run'] = (_inv, _words, flags) => runDemoServer(flags);

/**
 * Runs `mcp-inspect ARGS` in this process (as a child would, without a second start-up) through
 * the invocation's `main` (importing main.ts here would close an import cycle); resolves with its exit code.
 */
async function runSelf(inv: Invocation, args: string[], color: boolean | undefined): Promise<number> {
  if (!inv.main) throw new Error('demo: the invocation carries no main');
  return inv.main([...args, ...(color === false ? ['--no-color'] : [])]);
}

/**
 * The scripted tour, for people (no --json): the demo server over HTTP on 127.0.0.1, then
 * eight commands against it, each run as `mcp-inspect …` (in this process) with its command line shown:
 * discover, tools, a call with an image, a resource read and a subscription update, a
 * prompt, an input round answered with `--elicit`, and `--duration` seconds of listen with
 * the live diffs of the tool, prompt and resource lists. Returns the first non-zero exit code.
 */
export async function runDemo(inv: Invocation, flags: DemoFlags): Promise<number> {
  const duration = positiveNumber(flags.duration, '--duration', 'seconds', Math.floor(MAX_TIMER_MS / 1000))!;
  const [{ startDemoServer }, { makeOut }] = await Promise.all([import('../../demo/server.js'), import('../output.js')]);
  const out = makeOut({ color: flags.color });
  const server = await startDemoServer({ transport: 'http', port: 0, changeIntervalMs: 2000, conformance: false });
  const url = server.url!;
  const steps: { title: string; args: string[] }[] = [
    { title: 'discover', args: ['discover', url] },
    { title: 'tools', args: ['tools', url] },
    { title: 'a call with an image', args: ['call', url, 'picture'] },
    { title: 'a resource', args: ['resources', url, 'read', 'demo://clock'] },
    { title: 'its next update', args: ['listen', url, '--resource', 'demo://clock', '--count', '1'] },
    { title: 'a prompt', args: ['prompts', url, 'get', 'greet', 'name=Ada', 'style=pirate'] },
    { title: 'an input round', args: ['call', url, 'ask_name', '--elicit', 'form={"name":"Ada","colour":"green"}'] },
    { title: `live diffs (${duration} s)`, args: ['listen', url, '--tools', '--prompts', '--resources', '--duration', String(duration)] },
  ];
  const shell = (a: string) => (/^[\w./:=-]+$/.test(a) ? a : `'${a}'`);
  let code: number = EXIT.ok;
  try {
    out.line(out.c.dim(`The demo server is running at ${url}; its tool, prompt and resource lists change every 2 s.`));
    for (const [i, step] of steps.entries()) {
      if (inv.signal) break;
      out.line('');
      out.line(out.c.bold(`── ${i + 1}/${steps.length} ${step.title} `.padEnd(60, '─')));
      out.line(out.c.dim(`$ mcp-inspect ${step.args.map(shell).join(' ')}`));
      const c = await runSelf(inv, step.args, flags.color);
      if (c !== EXIT.ok && code === EXIT.ok) code = c;
    }
    out.line('');
    out.line(out.c.dim('Try it yourself: mcp-inspect demo-server --http 3000, then mcp-inspect http://127.0.0.1:3000/mcp (interactive) or any command above.'));
    return code;
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
    const server = await startDemoServer({ transport: 'stdio', changeIntervalMs, ...(flags.conformance ? { conformance: true } : {}) });
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
    server = await startDemoServer({
      transport: 'http',
      port,
      changeIntervalMs,
      log: (l) => process.stderr.write(l + '\n'),
      ...(flags.conformance ? { conformance: true } : {}),
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new UsageError(`port ${port} is already in use; pick another with --http PORT, or --http 0 for any free port`);
    throw e;
  }
  process.stdout.write(`${server.url}\n`);
  process.stderr.write(
    `mcp-inspect demo server (MCP 2026-07-28, and 2025-11-25 sessions for clients that send initialize); lists change every ${changeIntervalMs} ms; Ctrl-C to stop\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.close();
  return EXIT.ok;
}
