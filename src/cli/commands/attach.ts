/**
 * `mcp-inspect attach [NAME]`: the body (its spec, with the help: ./attach.spec.ts). Without a
 * name it lists the running proxies (src/record/announce.ts); with one it streams that proxy's
 * traffic as NDJSON (`--json`) or opens the inspector on it as a viewer (./attach-view.ts).
 */
import { UsageError } from '../../protocol/errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { ProxyInfo } from '../../record/announce.js';
import type { CommandSpec } from '../command.js';
import { EXIT } from '../exit.js';
import { onStdoutClosed } from '../stdout.js';

export interface AttachFlags {
  json?: boolean;
  /** `--no-backlog` sets it false. */
  backlog?: boolean;
  color?: boolean;
}

/** The list as text: one proxy a line (name, pid, transport, attachers, start, target), or how to start one. */
function listText(proxies: ProxyInfo[], dirs: readonly string[], now: number, proxyTarget: (p: ProxyInfo) => string): string {
  if (!proxies.length)
    return `no mcp-inspect proxy is running (none announced in ${dirs.join(', ')}); start one with mcp-inspect proxy -- CMD, or put it in a host's config (mcp-inspect servers --wrap NAME)\n`;
  const ago = (iso: string) => {
    const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
    return s < 60 ? `${s}s ago` : s < 3600 ? `${Math.floor(s / 60)}m ago` : `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m ago`;
  };
  const rows = proxies.map((p) => [sanitizeLine(p.name), String(p.pid), p.transport, String(p.attachers), ago(p.started), sanitizeLine(proxyTarget(p))]);
  const head = ['NAME', 'PID', 'TRANSPORT', 'ATTACHED', 'STARTED', 'TARGET'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)].join('\n') + '\n';
}

/**
 * The proxy named `name`: the one with exactly that name, else the only one whose name starts
 * with it. Throws UsageError naming the running ones when none or several match.
 */
export function pickProxy(proxies: readonly ProxyInfo[], name: string): ProxyInfo {
  const exact = proxies.find((p) => p.name === name);
  if (exact) return exact;
  const starts = proxies.filter((p) => p.name.startsWith(name));
  if (starts.length === 1) return starts[0];
  const names = proxies.map((p) => p.name).join(', ');
  if (starts.length > 1)
    throw new UsageError(`${JSON.stringify(name)} names several running proxies (${starts.map((p) => p.name).join(', ')}): give the whole name`);
  throw new UsageError(
    proxies.length
      ? `no running proxy is named ${JSON.stringify(name)}; running: ${names} (mcp-inspect attach lists them)`
      : `no running proxy is named ${JSON.stringify(name)}: no mcp-inspect proxy is running`,
  );
}

/** `attach NAME --json`: the proxy's NDJSON on stdout until it ends (0) or a signal (Ctrl-C 0, SIGTERM 143, SIGHUP 129). */
async function streamJson(p: ProxyInfo, backlog: boolean): Promise<number> {
  const { openAttach } = await import('../../record/announce.js');
  let sock;
  try {
    sock = await openAttach(p.socket, backlog);
  } catch (e) {
    throw new UsageError(`the proxy ${p.name} ended before it could be attached (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const s = sock;
  return new Promise<number>((resolve) => {
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    const finish = (code: number) => {
      for (const sig of signals) process.off(sig, onSignal);
      unwatch();
      s.destroy();
      resolve(code);
    };
    const onSignal = (sig: NodeJS.Signals) => finish(sig === 'SIGINT' ? EXIT.ok : sig === 'SIGTERM' ? EXIT.SIGTERM : EXIT.SIGHUP);
    for (const sig of signals) process.once(sig, onSignal);
    const unwatch = onStdoutClosed(() => finish(EXIT.ok));
    // The proxy's lines are NDJSON already: copied as they come, with stdout's back-pressure (the proxy drops lines for us, never waits).
    s.on('data', (chunk: Buffer) => {
      if (!process.stdout.write(chunk)) {
        s.pause();
        process.stdout.once('drain', () => s.resume());
      }
    });
    s.once('close', () => finish(EXIT.ok));
    s.on('error', () => undefined);
  });
}

/** The body of `attach`. */
export const attachBody: CommandSpec<AttachFlags>['run'] = async (inv, words, flags) => {
  if (inv.command.length) throw new UsageError('attach watches a running proxy: it takes its name, not a command after --');
  if (words.length > 1) throw new UsageError(`attach takes one proxy name (got ${words.map((w) => JSON.stringify(w)).join(' ')})`);
  const [{ listProxies, proxyTarget }, { runtimeDirCandidates }] = await Promise.all([import('../../record/announce.js'), import('../../state/index.js')]);
  // Every folder a proxy may have used: a host may spawn it with an environment of its own
  // (no XDG_RUNTIME_DIR), and it then announces itself in the next one.
  const dirs = runtimeDirCandidates();
  const proxies = (await Promise.all(dirs.map((d) => listProxies(d))))
    .flat()
    .sort((a, b) => a.started.localeCompare(b.started) || a.name.localeCompare(b.name));
  if (!words.length) {
    process.stdout.write(flags.json ? JSON.stringify({ proxies }) + '\n' : listText(proxies, dirs, Date.now(), proxyTarget));
    return EXIT.ok;
  }
  const p = pickProxy(proxies, words[0]);
  if (flags.json) return streamJson(p, flags.backlog !== false);
  const { attachInspector } = await import('../attach-view.js');
  return attachInspector(p, { backlog: flags.backlog !== false, color: flags.color });
};
