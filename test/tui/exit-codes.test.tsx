/**
 * The TUI's exit codes come from the CLI's map (src/cli/exit.ts): a cancelled connect, a
 * transport failure, a usage error, a JSON-RPC error and our own bug give the same code
 * from both faces.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { Root } from '../../src/tui/Root.js';
import type { ListenSessionEvent } from '../../src/client/types.js';
import { McpError, TransportError, UsageError } from '../../src/protocol/errors.js';
import { EXIT, exitCodeFor } from '../../src/cli/exit.js';
import { Feed, fakeServices, press, renderWith, waitFor } from './helpers.js';

afterEach(() => cleanup());

/** Renders Root with a connect that fails with `error` (or never settles), quits with q, resolves to the exit code. */
async function quitCode(error?: unknown): Promise<number> {
  let code: number | undefined;
  // The value under test may be anything a connect can throw, not only an Error.
  // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
  const fail = () => Promise.reject(error);
  const r = renderWith(
    <Root
      connect={() => (error === undefined ? new Promise(() => undefined) : fail())}
      targetLabel="node server.js"
      onExit={(c) => (code = c)}
      size={{ columns: 100, rows: 30 }}
    />,
    fakeServices(new Feed<ListenSessionEvent>()),
  );
  await waitFor(r, (f) => f.includes(error === undefined ? 'Connecting' : 'Could not connect'));
  await press(r, 'q');
  await waitFor(r, () => code !== undefined);
  return code!;
}

describe('TUI exit codes = CLI exit codes', () => {
  it('a cancelled connect: quitting while connecting exits 130, as Ctrl-C while connecting does in the CLI', async () => {
    const cli = exitCodeFor(new TransportError('MCPI_CANCELLED', 'cancelled'));
    expect(cli).toBe(EXIT.SIGINT);
    expect(await quitCode()).toBe(cli);
    // A connect that failed as cancelled (no longer 3).
    expect(await quitCode(new TransportError('MCPI_CANCELLED', 'cancelled'))).toBe(cli);
  });

  it('a transport failure, a usage error, a JSON-RPC error, a bug', async () => {
    for (const e of [
      new TransportError('MCPI_SPAWN', 'spawn nosuchcmd ENOENT'),
      new UsageError('--timeout must be a positive number'),
      new McpError({ code: -32601, message: 'nope' }),
      new TypeError('oops'),
    ]) {
      expect(await quitCode(e)).toBe(exitCodeFor(e));
    }
    expect(exitCodeFor(new TypeError('oops'))).toBe(EXIT.internal);
  });
});
