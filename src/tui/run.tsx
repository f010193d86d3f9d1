/**
 * Entry point of the interactive inspector (the only module the CLI imports from src/tui,
 * dynamically, so that ink and react load only for the TUI).
 */
import type { InspectorClient } from '../client/types.js';
import type { ListenFilter } from '../protocol/types.js';
import type { ConnectHooks, RootProps } from './Root.js';
import type { TuiServices } from './context/services.js';
import type { TermSize } from './hooks/useTerminalSize.js';
import { LEAVE_ALT, firstFrame } from './connection/firstFrame.js';

export type { ConnectHooks } from './Root.js';

export interface RunTuiOptions {
  /**
   * Connects to the server, reporting wire messages, stderr lines and warnings through the
   * hooks from the start (the TUI shows them while connecting too).
   */
  connect: (hooks: ConnectHooks) => Promise<InspectorClient>;
  /** What the user asked to inspect (URL or command line), shown until the server names itself. */
  targetLabel: string;
  /** Poll `tools/list` every `pollMs` ms (±20% jitter) to catch changes nobody announced; 0/undefined: off. */
  pollMs?: number;
  /** Least ms between two re-fetches of the tool list (ListenSessionOptions.minRefetchIntervalMs); default 50. Ignored with `services`. */
  minRefetchIntervalMs?: number;
  /** Initial `subscriptions/listen` filter; default: every list the server says can change. */
  listenFilter?: ListenFilter;
  /** Emit colors (false under NO_COLOR / --no-color). */
  color: boolean;
  /** Streams (tests); default: process.stdin / process.stdout. */
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  /** Records the session's traffic (the `W` key; started at once when it was given a file): src/cli/tui-recorder.ts. */
  recorder?: import('./context/services.js').TuiRecorder;
  /** Replaces the real services (tests). */
  services?: TuiServices;
  /** Fixed size (tests); default: the terminal's, following resizes. */
  size?: Partial<TermSize>;
  /** Restart requests from outside (`--restart-on-change`), see RootProps.restartOn. */
  restartOn?: RootProps['restartOn'];
  /** Whose history of calls to keep (src/state/call-history.ts historyServerKey); absent: none kept. Ignored with `services`. */
  history?: import('../state/call-history.js').HistoryServer;
  /** The roots offered at first (`--root`, the config entry's `roots`); edited in the TUI. */
  roots?: readonly import('../protocol/mrtr.js').Root[];
}

/**
 * Runs the full-screen inspector until the user quits.
 *
 * Renders in the terminal's alternate screen buffer (restored on every exit path: quit,
 * crash, SIGINT/SIGTERM/SIGHUP, process exit), connects through `opts.connect`, and before
 * returning always calls `client.close()` once (which stops a spawned stdio server), also
 * when the user quits while the connection is still being made.
 *
 * On a TTY the connecting screen is drawn at once, before Ink and React load (see
 * src/tui/connection/firstFrame.ts), and the connection is started while they load (connectEarly).
 *
 * Unless NODE_ENV is set, it is set to `production` before React loads (React's development
 * build renders about twice as slowly). On a TTY, CI / CONTINUOUS_INTEGRATION are hidden
 * while Ink loads (Ink would otherwise draw only on exit).
 *
 * @returns the exit code, from the map the CLI uses (src/protocol/exit-codes.ts): 0 after a normal quit;
 * the code of the connection error when the user quits after a failed connection (2 JSON-RPC,
 * 3 transport); 130 when the user quits while still connecting (the connect is cancelled, as
 * Ctrl-C cancels it in the CLI); 64 without a TTY; 70 when the UI crashed; 129/130/143 after
 * SIGHUP/SIGINT/SIGTERM.
 */
export async function runTui(opts: RunTuiOptions): Promise<number> {
  if (process.env.NODE_ENV === undefined) process.env.NODE_ENV = 'production';
  // Ink draws nothing but the last frame when it believes it runs in CI (it reads CI /
  // CONTINUOUS_INTEGRATION once, when loaded). On a real terminal the user is present:
  // hide those variables while Ink loads, then put them back.
  const tty = (opts.stdin ?? process.stdin).isTTY && (opts.stdout ?? process.stdout).isTTY;
  const hidden: Record<string, string> = {};
  if (tty) {
    for (const k of ['CI', 'CONTINUOUS_INTEGRATION']) {
      const v = process.env[k];
      if (v !== undefined) {
        hidden[k] = v;
        delete process.env[k];
      }
    }
  }
  // Loading Ink and React takes ~0.1–0.3 s: show the connecting screen first (drawn without
  // them), and connect meanwhile, not after.
  const stdout = opts.stdout ?? process.stdout;
  const early = tty ? drawFirstFrame(stdout, opts) : undefined;
  const connect = tty ? connectEarly(opts.connect) : opts.connect;
  let startTui: typeof import('./main.js').startTui;
  try {
    ({ startTui } = await import('./main.js'));
  } catch (e) {
    early?.leave();
    throw e;
  } finally {
    Object.assign(process.env, hidden);
    early?.handOver();
  }
  return startTui({ ...opts, connect }, { firstFrameShown: early !== undefined });
}

/**
 * Draws the connecting screen (src/tui/connection/firstFrame.ts) on `stdout` in the alternate screen,
 * before Ink loads. Until `handOver()` (startTui takes over the screen and its restoring),
 * a SIGINT/SIGTERM/SIGHUP or the process exiting restores the user's screen first; `leave()`
 * restores it at once (Ink failed to load).
 */
function drawFirstFrame(stdout: NodeJS.WriteStream, opts: RunTuiOptions): { handOver(): void; leave(): void } {
  stdout.write(firstFrame(opts.targetLabel, opts.size?.columns ?? stdout.columns ?? 80, opts.color));
  let left = false;
  const leave = () => {
    if (left) return;
    left = true;
    stdout.write(LEAVE_ALT);
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  // As the default action would, the signal ends the process: after the screen is restored.
  const onSignal = (sig: NodeJS.Signals) => {
    leave();
    handOver();
    process.kill(process.pid, sig);
  };
  const handOver = () => {
    process.off('exit', leave);
    for (const s of signals) process.off(s, onSignal);
  };
  process.once('exit', leave);
  for (const s of signals) process.once(s, onSignal);
  return { handOver, leave };
}

/**
 * Starts `connect` at once with hooks that buffer what they are told, and returns a connect
 * function whose first call hands those buffered events (then the live ones) to the real
 * hooks and resolves with that same connection; later calls (retries) connect anew.
 */
export function connectEarly(connect: (hooks: ConnectHooks) => Promise<InspectorClient>): (hooks: ConnectHooks) => Promise<InspectorClient> {
  let target: ConnectHooks | undefined;
  const buffered: Array<(h: ConnectHooks) => void> = [];
  const relay = (fn: (h: ConnectHooks) => void) => (target ? fn(target) : buffered.push(fn));
  const abort = new AbortController();
  const early = connect({
    onWire: (e) => relay((h) => h.onWire(e)),
    onStderr: (l) => relay((h) => h.onStderr(l)),
    onWarning: (m) => relay((h) => h.onWarning(m)),
    onFinding: (f) => relay((h) => h.onFinding(f)),
    onInfo: (m) => relay((h) => h.onInfo(m)),
    onAuth: (a) => relay((h) => h.onAuth?.(a)),
    // A legacy server may ask (roots/list) before the UI is up: the round waits for it.
    input: {
      answer: (round, signal) =>
        new Promise((res, rej) =>
          relay((h) => {
            if (h.input) void h.input.answer(round, signal).then(res, rej);
            else rej(new Error('the inspector cannot answer input requests'));
          }),
        ),
    },
    signal: abort.signal,
  });
  early.catch(() => undefined); // observed by the first caller
  let used = false;
  return (hooks) => {
    if (used) return connect(hooks);
    used = true;
    target = hooks;
    if (hooks.signal?.aborted) abort.abort();
    else hooks.signal?.addEventListener('abort', () => abort.abort(), { once: true });
    for (const fn of buffered.splice(0)) fn(hooks);
    return early;
  };
}
