/**
 * `mcp-inspect attach NAME`: the inspector as a viewer of a running proxy. Reads the proxy's
 * attach stream (src/record/announce.ts), turns its lines into the host's view
 * (src/client/host-view.ts) and hands the TUI a client that sends nothing
 * (src/client/viewer.ts) and a watch made of the lists the host fetched. R attaches again.
 */
import type { Socket } from 'node:net';
import { HostView } from '../client/host-view.js';
import { ViewerClient } from '../client/viewer.js';
import { TransportError, UsageError } from '../protocol/errors.js';
import { openAttach, proxyTarget, type ProxyInfo } from '../record/announce.js';
import type { ConnectHooks } from '../tui/run.js';

/** The longest line taken from the stream (a bigger one is skipped with a warning). */
const MAX_LINE = 64 * 1024 * 1024;

/**
 * Attaches to `p` and resolves with the viewer once the header line arrived; the lines so far
 * (with `backlog`) and the live ones follow through `hooks` and the viewer's events. Rejects
 * with TransportError when the proxy is gone or ends before its header.
 */
export async function attachViewer(p: ProxyInfo, backlog: boolean, hooks: ConnectHooks): Promise<ViewerClient> {
  let sock: Socket;
  try {
    sock = await openAttach(p.socket, backlog);
  } catch (e) {
    throw new TransportError('MCPI_CONNECT', `the proxy ${p.name} is not running any more (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, {
      cause: e,
    });
  }
  const view = new HostView(
    {
      wire: (e) => hooks.onWire(e),
      stderr: (l) => hooks.onStderr(l),
      warning: (m) => hooks.onWarning(m),
      finding: (f) => hooks.onFinding(f),
      // Called only once lines arrive, after the viewer below exists.
      event: (e) => v.feed(e),
    },
    p.name,
  );
  const v = new ViewerClient(view, () => sock.destroy(), p.name);
  return new Promise<ViewerClient>((resolve, reject) => {
    let buf = '';
    let skipping = false;
    const onAbort = () => {
      sock.destroy();
      reject(new TransportError('MCPI_CANCELLED', 'cancelled while attaching'));
    };
    hooks.signal?.addEventListener('abort', onAbort, { once: true });
    const take = (text: string) => {
      if (!text.trim()) return;
      let line: unknown;
      try {
        line = JSON.parse(text);
      } catch {
        return hooks.onWarning(`the proxy sent a line that is not JSON; skipped: ${text.slice(0, 80)}`);
      }
      const was = view.started;
      view.line(line);
      if (!was && view.started) {
        hooks.signal?.removeEventListener('abort', onAbort);
        resolve(v);
      }
    };
    sock.setEncoding('utf8');
    sock.on('data', (chunk: string) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const text = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (skipping) skipping = false;
        else take(text);
      }
      if (buf.length > MAX_LINE) {
        hooks.onWarning(`the proxy sent a line over ${MAX_LINE} bytes; skipped`);
        buf = '';
        skipping = true;
      }
    });
    sock.on('error', () => undefined);
    sock.once('close', () => {
      hooks.signal?.removeEventListener('abort', onAbort);
      if (!view.started) reject(new TransportError('MCPI_CLOSED', `the proxy ${p.name} ended before it sent anything`));
      v.end(`the proxy ${p.name} ended`);
    });
  });
}

/** Opens the inspector on the proxy `p` (see the module's comment); resolves to its exit code. Throws UsageError without a terminal. */
export async function attachInspector(p: ProxyInfo, o: { backlog: boolean; color?: boolean }): Promise<number> {
  if (!process.stdout.isTTY || !process.stdin.isTTY)
    throw new UsageError(`the inspector needs a terminal; in scripts use mcp-inspect attach ${p.name} --json (the traffic as NDJSON)`);
  const [{ runTui }, { defaultServices }, { colorEnabled }, { tuiRecorder }] = await Promise.all([
    import('../tui/run.js'),
    import('../tui/context/services.js'),
    import('./output.js'),
    import('./tui-recorder.js'),
  ]);
  const services = defaultServices();
  // W records what the viewer sees: the host's traffic, the host as the host.
  const recorder = tuiRecorder({ target: p.target, transport: p.transport });
  const code = await runTui({
    targetLabel: `${p.name} (attached: ${proxyTarget(p)})`,
    color: colorEnabled(process.stdout, o.color),
    connect: (hooks) => attachViewer(p, o.backlog, hooks),
    services: {
      ...services,
      recorder,
      // The watch is the host's lists: nothing is fetched, nothing is polled.
      listenSession: (client, opts) => (client instanceof ViewerClient ? client.hostEvents(opts.signal) : services.listenSession(client, opts)),
    },
  });
  recorder.stop();
  return code;
}
