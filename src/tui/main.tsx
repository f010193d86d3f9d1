/**
 * The body of runTui (see run.tsx), loaded only after NODE_ENV is settled so that React
 * picks its production build.
 */
import { render, useStdout } from 'ink';
import { useEffect } from 'react';
import type { InspectorClient } from '../client/types.js';
import { Root, type ConnectHooks } from './Root.js';
import { ThemeContext, makeTheme } from './context/theme.js';
import { ServicesContext, defaultServices } from './context/services.js';
import { CallHistory } from '../state/call-history.js';
import type { RunTuiOptions } from './run.js';
import { EXIT, SIGNAL_EXIT, type EndingSignal } from '../protocol/exit-codes.js';
import { KITTY_DELETE_ALL } from './images/escapes.js';
import { overlayPictures, type InlinePicture, type OverlayState } from './images/inline.js';

import { CLEAR_HOME, ENTER_ALT, LEAVE_ALT } from './connection/firstFrame.js';

/** Any of the reserved-picture markers of src/tui/images/inline.ts. */
const MARKERS = /[\uE000-\uE003]/;

const withTimeout = <T,>(p: Promise<T>, ms: number): Promise<T | undefined> =>
  Promise.race([p, new Promise<undefined>((r) => setTimeout(() => r(undefined), ms).unref())]);

/**
 * Runs the full-screen inspector until the user quits (see runTui).
 *
 * Renders in the terminal's alternate screen buffer (restored on every exit path: quit,
 * crash, SIGINT/SIGTERM/SIGHUP, process exit), connects through `opts.connect`, and before
 * returning always calls `client.close()` once (which stops a spawned stdio server), also
 * when the user quits while the connection is still being made.
 *
 * `firstFrameShown`: runTui has entered the alternate screen and drawn the connecting screen.
 *
 * @returns the exit code (see runTui; the map is src/protocol/exit-codes.ts, shared with the CLI).
 */
export async function startTui(opts: RunTuiOptions, { firstFrameShown = false }: { firstFrameShown?: boolean } = {}): Promise<number> {
  const stdout = opts.stdout ?? process.stdout;
  const stdin = opts.stdin ?? process.stdin;
  if (!stdin.isTTY || !stdout.isTTY) {
    process.stderr.write(
      'mcp-inspect: the interactive inspector needs a terminal (stdin and stdout must be a TTY); use a subcommand such as `tools`, `call` or `listen` in scripts.\n',
    );
    return EXIT.usage;
  }

  let exitCode: number = EXIT.ok;
  let connecting: Promise<InspectorClient> | undefined;
  const closed = new WeakMap<InspectorClient, Promise<void>>();
  const closeClient = (c: InspectorClient): Promise<void> => {
    let p = closed.get(c);
    if (!p) {
      p = c.close().catch(() => {});
      closed.set(c, p);
    }
    return p;
  };
  const quitCtl = new AbortController();
  const connect = (hooks: ConnectHooks): Promise<InspectorClient> => {
    const p = opts.connect({ ...hooks, signal: quitCtl.signal });
    connecting = p;
    return p;
  };

  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    stdout.write((overlay.transmitted.size ? KITTY_DELETE_ALL : '') + LEAVE_ALT);
  };
  // The alternate screen shows runTui's first frame already: it is cleared in the same
  // write as Ink's first frame, so the screen never goes blank in between.
  if (firstFrameShown) clearOnFirstWrite(stdout);
  else stdout.write(ENTER_ALT);
  process.once('exit', restore);

  // A picture shown full-screen with a graphics protocol (services.showImage) is drawn outside
  // Ink's frame: meanwhile Ink keeps rendering but its writes are held back (dropped), and its
  // latest frame is drawn whole when the picture goes away.
  let held = false;
  let redraw: ((data: string) => void) | undefined;
  // Pictures drawn in the result view (services.setInlinePictures): each Ink frame is written
  // with their markers blanked, then the pictures at their cells (src/tui/images/inline.ts).
  let inline = new Map<number, InlinePicture>();
  const overlay: OverlayState = { transmitted: new Set(), placed: new Set() };
  const writeFrame = (chunk: unknown, ...rest: unknown[]): boolean => {
    const write = stdout.write.bind(stdout) as (...a: unknown[]) => boolean;
    // A frame may carry markers before its pictures are registered (the pane registers them in
    // an effect, after Ink wrote the frame): markers are always blanked, never shown.
    if (typeof chunk !== 'string' || (inline.size === 0 && overlay.placed.size === 0 && !MARKERS.test(chunk))) return write(chunk, ...rest);
    const o = overlayPictures(chunk, inline, overlay, chunk.includes('\n'));
    const ok = write(o.chunk, ...rest);
    if (o.after) stdout.write(o.after);
    return ok;
  };
  const setInlinePictures = (list: readonly InlinePicture[]) => {
    const was = inline;
    inline = new Map(list.map((p) => [p.id, p]));
    // The frame that reserved these cells is already out: have Ink draw it again, now with them.
    const changed = inline.size !== was.size || [...inline].some(([id, p]) => was.get(id)?.draw !== p.draw);
    if (changed && inline.size > 0) redraw?.('');
  };
  const inkStdout = new Proxy(stdout, {
    get(target, prop) {
      if (prop === 'write') return held ? () => true : writeFrame;
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  const showImage = (draw: (cols: number, rows: number) => string, footer: string) => {
    held = true;
    const cols = stdout.columns || 80;
    const rows = stdout.rows || 24;
    // Save the cursor (where Ink left it), clear, draw at the top left, the footer on the last row.
    stdout.write(`\u001b7\u001b[2J\u001b[H${draw(cols, rows - 1)}\u001b[${rows};1H${footer.slice(0, cols - 1)}`);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      stdout.write(`${KITTY_DELETE_ALL}\u001b[2J\u001b8`);
      held = false;
      // KITTY_DELETE_ALL freed the images' data too: the view's pictures are sent again.
      overlay.transmitted.clear();
      overlay.placed.clear();
      // Ink's own "write above the frame" path erases its frame and draws the latest one whole.
      redraw?.('');
    };
  };
  const given = opts.services ?? {
    ...defaultServices(undefined, { minRefetchIntervalMs: opts.minRefetchIntervalMs }),
    history: opts.history ? new CallHistory(opts.history) : undefined,
    recorder: opts.recorder,
  };
  const services = given.showImage ? given : { ...given, showImage, setInlinePictures };
  const instance = render(
    <ThemeContext.Provider value={makeTheme(opts.color)}>
      <ServicesContext.Provider value={services}>
        <StdoutBridge
          onReady={(w) => {
            redraw = w;
          }}
        />
        <Root
          connect={connect}
          targetLabel={opts.targetLabel}
          pollMs={opts.pollMs}
          listenFilter={opts.listenFilter}
          roots={opts.roots}
          size={opts.size}
          closeClient={closeClient}
          onExit={(code) => {
            exitCode = code;
          }}
          onQuitting={() => quitCtl.abort()}
          restartOn={opts.restartOn}
        />
      </ServicesContext.Provider>
    </ThemeContext.Provider>,
    { stdout: inkStdout, stdin, exitOnCtrlC: false, patchConsole: true, incrementalRendering: false, maxFps: 30 },
  );

  const onSignal = (sig: EndingSignal) => {
    exitCode = SIGNAL_EXIT[sig];
    instance.unmount();
  };
  const signals: EndingSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, onSignal);

  let crash: unknown;
  try {
    await instance.waitUntilExit();
  } catch (e) {
    crash = e;
    exitCode = EXIT.internal;
  } finally {
    for (const s of signals) process.off(s, onSignal);
    // Whatever ended the UI, the server must not outlive it: close the client, including
    // one whose connection was still being made when the user quit (that one is given up).
    quitCtl.abort();
    if (connecting) {
      const c = await withTimeout(
        connecting.catch(() => undefined),
        10_000,
      );
      if (c) await withTimeout(closeClient(c), 5_000);
    }
    instance.cleanup();
    restore();
    process.off('exit', restore);
  }
  if (crash !== undefined)
    process.stderr.write(`mcp-inspect: the interactive inspector crashed: ${crash instanceof Error ? (crash.stack ?? crash.message) : String(crash)}\n`);
  return exitCode;
}

/** Hands Ink's `write` (which erases the frame, writes, and draws the frame again) to startTui. */
function StdoutBridge({ onReady }: { onReady: (write: (data: string) => void) => void }) {
  const { write } = useStdout();
  useEffect(() => onReady(write), [write, onReady]);
  return null;
}

/** Makes the next write to `stream` (Ink's first) start with CLEAR_HOME, once. */
function clearOnFirstWrite(stream: NodeJS.WriteStream): void {
  const own = Object.prototype.hasOwnProperty.call(stream, 'write');
  const write = stream.write;
  stream.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
    if (own) stream.write = write;
    else delete (stream as { write?: unknown }).write;
    if (typeof chunk !== 'string') write.call(stream, CLEAR_HOME);
    return (write as (...a: unknown[]) => boolean).call(stream, typeof chunk === 'string' ? CLEAR_HOME + chunk : chunk, ...rest);
  };
}
