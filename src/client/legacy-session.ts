/**
 * Legacy HTTP sessions: renewing a session the server forgot (a new `initialize`, a resync,
 * the one retry), and the GET stream for server-initiated messages (opened after
 * `initialize`, re-opened when it ends). Reaches the handshake and the lists through the
 * callbacks McpClient gives it (no import of era.ts or lists.ts values).
 * spec: 2025-11-25 basic/transports#session-management, basic/transports#listening-for-messages-from-the-server
 */
import { TransportError, describeError } from '../protocol/errors.js';
import { getStreamFailed } from '../check/rules/http.js';
import type { LegacyHooks } from './era.js';
import type { RpcCore } from './rpc.js';
import type { ListSnapshot, ListenEvent, ResyncResult, SessionRenewal } from './types.js';

/** SessionRenewal.method when the legacy GET stream found the session gone. */
const GET_STREAM = 'the GET stream';
/** A legacy GET stream that ends sooner than this after opening is not re-opened at once (no tight loop). */
const GET_STREAM_MIN_LIFE_MS = 1_000;

/** What a renewal needs from the rest of the client. */
export interface RenewalSteps {
  /** The legacy `initialize` handshake again (era.ts Handshake.initLegacy). */
  initialize(version: string): Promise<void>;
  /** The lists last fetched (lists.ts Lists.snapshot). */
  snapshot(): ListSnapshot;
  /** Re-fetches every list and diffs it against `before` (lists.ts Lists.resync). */
  resync(before: ListSnapshot): Promise<ResyncResult>;
}

/**
 * The legacy session of one client. Installs itself as `core.onSessionExpired`; McpClient
 * gives it to the Handshake as its LegacyHooks and routes the transport's onServerStreamEnd here.
 */
export class LegacySession implements LegacyHooks {
  /** The renewal in progress, shared by the requests that hit the dead session. */
  private renewing: Promise<SessionRenewal> | undefined;
  /** The Mcp-Session-Id the running renewal replaces. */
  private renewalOf: string | undefined;
  /** The Mcp-Session-Id `initialize` gave. */
  private sessionIdAtInit: string | undefined;
  /** When the GET stream was last opened (ms since the epoch). */
  private getStreamOpenedAt = 0;
  /** Legacy listens in progress, told when the session was renewed. */
  private renewalListeners = new Set<(ev: ListenEvent) => void>();
  /** A renewal that happened while no legacy listen was running, for the next one. */
  private unheardRenewal: ListenEvent | undefined;

  constructor(
    private readonly core: RpcCore,
    private readonly steps: RenewalSteps,
  ) {
    core.onSessionExpired = (method, e, sentSession) => this.sessionExpired(method, e, sentSession);
  }

  /** LegacyHooks: remembers the session `initialize` started. */
  sessionStarted(): void {
    this.sessionIdAtInit = this.core.transport.sessionId;
  }

  /** LegacyHooks: opens the GET stream where the transport has one; a failure is a finding (`core.legacyGetStream` false). */
  async ready(): Promise<void> {
    const { transport } = this.core;
    if (transport.capabilities.serverStream && transport.openServerStream) {
      this.getStreamOpenedAt = Date.now();
      this.core.legacyGetStream = await transport.openServerStream().catch((e: unknown) => {
        this.core.report(getStreamFailed(describeError(e, 'inline')));
        return false;
      });
    }
  }

  /**
   * Listens to renewals (a `session` ListenEvent each) until the returned function is called.
   * A renewal nobody heard (no listen was running) is handed to the first listener at once.
   */
  onRenewal(listener: (ev: ListenEvent) => void): () => void {
    const unheard = this.unheardRenewal;
    this.unheardRenewal = undefined;
    if (unheard) listener(unheard);
    this.renewalListeners.add(listener);
    return () => this.renewalListeners.delete(listener);
  }

  /**
   * RpcCore's SessionExpiredHandler: a request sent on the old session waits for a running
   * renewal (one of the renewal's own fails with `e`), else starts one unless another request
   * renewed the session already. Resolves when the request may be retried once.
   */
  private async sessionExpired(method: string, e: TransportError, sentSession: string | undefined): Promise<void> {
    if (this.renewing) {
      if (sentSession !== this.renewalOf) throw e;
      await this.renewing;
    } else if (!this.core.transport.sessionId || this.core.transport.sessionId === sentSession) {
      await this.renew(method, e);
    } // else: another request renewed the session already; retry on the new one.
  }

  /**
   * The server no longer knows the session (`e`: MCPI_SESSION_EXPIRED, for a request of
   * `method`). Starts a new session with a new `initialize` (same version), opens its GET
   * stream, re-syncs every list against the old ones, says so (onWarning, onSessionRenewed,
   * legacy listens), and resolves; the caller retries its request once. Concurrent callers
   * share one renewal. Rejects when the new initialize fails.
   * spec: 2025-11-25 basic/transports#session-management ("start a new session")
   */
  private renew(method: string, e: TransportError): Promise<SessionRenewal> {
    this.renewing ??= (async () => {
      const { core } = this;
      const before = this.steps.snapshot();
      const oldSession = this.sessionIdAtInit?.slice(0, 8);
      this.renewalOf = this.sessionIdAtInit;
      core.transport.resetSession?.();
      try {
        await this.steps.initialize(core.version);
        if (!core.closedForGood) core.closedReason = undefined;
        const resync = await this.steps.resync(before);
        const newSession = core.transport.sessionId?.slice(0, 8);
        const then = method === GET_STREAM ? 're-opened the GET stream' : `retried ${method}`;
        const message = `${e.message}: started a new session${newSession ? ` (${newSession}…)` : ''} with initialize and ${then}; ${resync.summary}`;
        const renewal: SessionRenewal = { time: Date.now(), status: e.status ?? 404, oldSession, newSession, method, resync, message };
        core.opts.onWarning?.(message);
        core.opts.onSessionRenewed?.(renewal);
        const ev: ListenEvent = { type: 'session', time: renewal.time, message, renewal };
        // No listen running (the watch waits to reconnect): the next listen tells it.
        if (this.renewalListeners.size) for (const l of this.renewalListeners) l(ev);
        else this.unheardRenewal = ev;
        return renewal;
      } finally {
        this.renewalOf = undefined;
      }
    })().finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  /**
   * The transport's onServerStreamEnd: the legacy GET stream ended. Unless it lived less than
   * GET_STREAM_MIN_LIFE_MS, it is re-opened at once: when the server answers that the session
   * is gone, the session is renewed (and legacy listens hear a `session` event, not a drop);
   * when it cannot be re-opened, the close listeners hear the drop with both reasons.
   */
  async onServerStreamEnd(reason: string): Promise<void> {
    const { core } = this;
    if (core.era === 'legacy' && core.transport.openServerStream && !core.closedForGood && Date.now() - this.getStreamOpenedAt >= GET_STREAM_MIN_LIFE_MS) {
      try {
        await this.reopenServerStream();
        return;
      } catch (e) {
        reason = `${reason}; re-opening it failed: ${describeError(e, 'inline')}`;
      }
    }
    core.closedReason = reason;
    for (const l of core.closeListeners) l(reason);
  }

  /**
   * Re-opens the legacy GET stream, renewing the session when the server has forgotten it
   * (then resolves true: the renewal told the listens; false: simply re-opened). Throws
   * TransportError when it cannot (MCPI_CLOSED when the server no longer offers one).
   */
  async reopenServerStream(): Promise<boolean> {
    const { core } = this;
    try {
      this.getStreamOpenedAt = Date.now();
      const ok = await core.transport.openServerStream!();
      core.legacyGetStream = ok;
      if (!ok) throw new TransportError('MCPI_CLOSED', 'the server no longer offers a GET stream');
      if (!core.closedForGood) core.closedReason = undefined;
      return false;
    } catch (e) {
      if (e instanceof TransportError && e.code === 'MCPI_SESSION_EXPIRED') {
        await this.renew(GET_STREAM, e);
        return true;
      }
      throw e;
    }
  }
}
