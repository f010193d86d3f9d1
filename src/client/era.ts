/**
 * Era detection and the first exchange: `server/discover` (modern) or the `initialize`
 * handshake (legacy), the stdio race between them, and the server's description. The pure
 * verdict is protocol/era.ts's; this module owns the requests, the race and its timer.
 * spec: basic/versioning#backward-compatibility-with-initialization-based-versions,
 *       basic/transports/stdio#backward-compatibility, basic/transports/streamable-http#backward-compatibility
 */
import { LEGACY_VERSIONS, METHOD, isModernVersion } from '../protocol/constants.js';
import { classifyProbe, type ProbeOutcome } from '../protocol/era.js';
import { McpError, TransportError, describeError } from '../protocol/errors.js';
import { serverInfoOf } from '../protocol/meta.js';
import type { DiscoverResult, Implementation, JsonObject, ServerCapabilities } from '../protocol/types.js';
import { setLevelFailed, unknownNegotiatedVersion } from '../check/rules/lifecycle.js';
import { isObject } from '../util/json.js';
import { sanitizeLine } from '../util/sanitize.js';
import { CLIENT_INFO, type RpcCore } from './rpc.js';
import { LEGACY_FALLBACK_HINT } from '../protocol/legacy-hint.js';

export { LEGACY_FALLBACK_HINT };

/** Default ms `server/discover` is given alone on stdio before `initialize` is sent as well. */
const DEFAULT_PROBE_TIMEOUT_MS = 5_000;

/** Errors of an HTTP `initialize` POST (the last step before trying HTTP+SSE). */
const initializeErrors = new WeakSet<object>();

/**
 * True for an error thrown by the legacy `initialize` POST over Streamable HTTP (the last step
 * of detection): connect() tries HTTP+SSE only after such a refusal.
 */
export function isInitializeError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && initializeErrors.has(e);
}

/** What a legacy session start needs from legacy-session.ts (kept as hooks: no import back). */
export interface LegacyHooks {
  /** The `initialize` result arrived and the transport took the session (called before `notifications/initialized`). */
  sessionStarted(): void;
  /** The description is set: open the GET stream where the transport has one. */
  ready(): Promise<void>;
}

/**
 * The handshake of one client: `init()` once at connect, `initLegacy()` again for a renewed
 * legacy session, `rediscover()` for a modern resync. Sets `core.era`, `core.version` and
 * `core.desc`.
 */
export class Handshake {
  constructor(
    private readonly core: RpcCore,
    private readonly legacy: LegacyHooks,
  ) {}

  /**
   * Era detection and the first exchange. `--era`/`--protocol-version` skip the probe. HTTP:
   * `server/discover`; a 400/404/405 without a modern error body means legacy. stdio: the probe
   * is `server/discover`; a non-modern error means legacy; with no answer within the probe
   * timeout (5 s) `initialize` is sent as well and whichever succeeds first decides, so a slow
   * modern server is not mistaken for a silent legacy one. Throws McpError / TransportError.
   */
  async init(): Promise<void> {
    const { opts } = this.core;
    const forced = opts.era ?? (opts.protocolVersion ? (isModernVersion(opts.protocolVersion) ? 'modern' : 'legacy') : undefined);
    if (forced === 'legacy') return this.initLegacy(opts.protocolVersion && !isModernVersion(opts.protocolVersion) ? opts.protocolVersion : undefined);
    if (forced === 'modern') return this.useDiscover(await this.discoverRequest());
    // Without a per-request answer a legacy server may stay silent on the probe: race it.
    if (!this.core.transport.capabilities.perRequestStreams) return this.detectByRace();
    try {
      return this.useDiscover(await this.discoverRequest());
    } catch (e) {
      return this.fallBack(e);
    }
  }

  /** Modern: fetches `server/discover` again and replaces the description. Throws McpError / TransportError. spec: server/discover */
  async rediscover(signal?: AbortSignal): Promise<void> {
    this.useDiscover(await this.discoverRequest(signal));
  }

  /** After a failed discover: legacy when classifyProbe says so (with the version -32022 named, if any), else rethrow. */
  private async fallBack(e: unknown): Promise<void> {
    const outcome = probeOutcomeOf(e, this.core.version);
    // HTTP+SSE answers on one shared stream, as stdio does (its POST statuses say nothing about the era).
    const verdict = outcome ? classifyProbe(outcome, this.core.transport.kind === 'http' ? 'http' : 'stdio') : { era: 'error' as const };
    if (verdict.era !== 'legacy') throw e;
    if (verdict.version) {
      const supported = outcome?.kind === 'rpc-error' ? (outcome.data as JsonObject | undefined)?.supported : undefined;
      this.core.opts.onInfo?.(
        `the server supports only legacy versions (${sanitizeLine(JSON.stringify(supported))}); using initialize with ${verdict.version}`,
      );
      return this.initLegacy(verdict.version);
    }
    this.core.opts.onInfo?.(
      `server/discover was not understood (${describeError(e, 'inline')}): a legacy server; using the initialize handshake${LEGACY_FALLBACK_HINT}`,
    );
    return this.initLegacy(undefined);
  }

  /**
   * The probe where a silent server is possible (stdio): `server/discover` alone for the probe
   * timeout; then `initialize` as well, and whichever succeeds first decides.
   */
  private async detectByRace(): Promise<void> {
    const { opts } = this.core;
    const probeMs = Math.min(opts.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS, this.core.timeoutMs);
    const probeCtl = new AbortController();
    const probe = this.discoverRequest(probeCtl.signal);
    probe.catch(() => undefined);
    // A request timeout no longer than the probe window: the probe's own timeout ends the window,
    // and it goes as any failed probe (fallBack). A timer of the same length beside it made the
    // path (and the message) depend on which of two timers ran first.
    if (probeMs >= this.core.timeoutMs) {
      let answer: DiscoverResult;
      try {
        answer = await probe;
      } catch (e) {
        return this.fallBack(e);
      }
      return this.useDiscover(answer);
    }
    let timer: NodeJS.Timeout | undefined;
    const early = await Promise.race([
      probe.then(
        (ok) => ({ ok }),
        (err: unknown) => ({ err }),
      ),
      new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), probeMs))),
    ]);
    clearTimeout(timer);
    if (early && 'ok' in early) return this.useDiscover(early.ok);
    if (early && 'err' in early) return this.fallBack(early.err);
    opts.onInfo?.(
      `no answer to server/discover within ${probeMs} ms; sending initialize as well (a legacy server may ignore unknown methods, a modern one may be slow to start)`,
    );
    const initCtl = new AbortController();
    const requested = LEGACY_VERSIONS[0];
    const init = this.core.request(
      METHOD.initialize,
      { protocolVersion: requested, capabilities: this.core.capabilities('legacy'), clientInfo: CLIENT_INFO },
      { plain: true, signal: initCtl.signal },
    );
    init.catch(() => undefined);
    const winner = await Promise.any([probe.then((modern) => ({ modern })), init.then((legacy) => ({ legacy }))]).catch((agg: AggregateError) => {
      throw agg.errors[1] ?? agg.errors[0];
    });
    if ('modern' in winner) {
      initCtl.abort();
      return this.useDiscover(winner.modern);
    }
    probeCtl.abort();
    opts.onInfo?.(`the server answered initialize: a legacy server${LEGACY_FALLBACK_HINT}`);
    return this.finishLegacy(winner.legacy, requested);
  }

  /** Sends `server/discover` (modern `_meta`; one retry on -32022 with a modern version). */
  private async discoverRequest(signal?: AbortSignal): Promise<DiscoverResult> {
    return (await this.core.request(METHOD.discover, {}, { signal })) as DiscoverResult;
  }

  /** Checks a DiscoverResult and makes the client modern. Throws TransportError (MCPI_BAD_RESPONSE). spec: server/discover */
  private useDiscover(result: DiscoverResult): void {
    if (
      !Array.isArray(result.supportedVersions) ||
      typeof result.capabilities !== 'object' ||
      result.capabilities === null ||
      Array.isArray(result.capabilities)
    ) {
      throw new TransportError('MCPI_BAD_RESPONSE', 'the server/discover result lacks supportedVersions (an array) or capabilities (an object)');
    }
    this.core.era = 'modern';
    this.core.desc = {
      era: 'modern',
      protocolVersion: this.core.version,
      supportedVersions: result.supportedVersions.filter((v) => typeof v === 'string'),
      serverInfo: implementationOf(serverInfoOf(result)),
      capabilities: result.capabilities,
      instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
      ttlMs: typeof result.ttlMs === 'number' ? result.ttlMs : undefined,
      cacheScope: typeof result.cacheScope === 'string' ? result.cacheScope : undefined,
      transport: this.core.transport.kind,
      raw: result,
      fetchedAt: Date.now(),
    };
  }

  /**
   * The legacy `initialize` handshake with `version` (default: the newest legacy one), then
   * `notifications/initialized`. Throws McpError / TransportError (an HTTP one is marked for
   * isInitializeError). spec: 2025-11-25 basic/lifecycle
   */
  async initLegacy(version: string | undefined): Promise<void> {
    const requested = version ?? LEGACY_VERSIONS[0];
    const result = await this.core
      .request(METHOD.initialize, { protocolVersion: requested, capabilities: this.core.capabilities('legacy'), clientInfo: CLIENT_INFO }, { plain: true })
      .catch((e: unknown) => {
        // Marks the refusal connect() may answer by trying HTTP+SSE.
        if (e instanceof TransportError && this.core.transport.kind === 'http') initializeErrors.add(e);
        throw e;
      });
    return this.finishLegacy(result, requested);
  }

  /** Takes an `initialize` result: the negotiated version, the session, `initialized`, the log level, the description. */
  private async finishLegacy(result: JsonObject, requested: string): Promise<void> {
    const { core } = this;
    core.era = 'legacy';
    const negotiated = typeof result.protocolVersion === 'string' ? result.protocolVersion : requested;
    if (!(LEGACY_VERSIONS as readonly string[]).includes(negotiated)) core.report(unknownNegotiatedVersion(negotiated, requested));
    core.version = negotiated;
    if (core.transport.capabilities.session) core.transport.useLegacySession?.(negotiated);
    this.legacy.sessionStarted();
    await core.transport.notify({ jsonrpc: '2.0', method: METHOD.initialized });
    const caps = isObject(result.capabilities) ? (result.capabilities as ServerCapabilities) : {};
    const level = core.logLevel;
    if (level && caps.logging) {
      await core.request('logging/setLevel', { level }).catch((e: unknown) => core.report(setLevelFailed(level, describeError(e, 'inline'))));
    }
    core.desc = {
      era: 'legacy',
      protocolVersion: negotiated,
      supportedVersions: [negotiated],
      serverInfo: implementationOf(result.serverInfo),
      capabilities: caps,
      instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
      transport: core.transport.kind,
      raw: result,
      fetchedAt: Date.now(),
    };
    await this.legacy.ready();
  }
}

/** A serverInfo object with string name/version, or undefined for anything else a server sends. */
function implementationOf(v: unknown): Implementation | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as JsonObject;
  if (typeof o.name !== 'string') return undefined;
  return {
    ...o,
    name: o.name,
    version: typeof o.version === 'string' ? o.version : o.version === undefined ? '' : JSON.stringify(o.version),
  };
}

/** A failed probe as data for classifyProbe; undefined for a failure that is neither the server's answer nor the pipe's (a bug: it is rethrown). */
function probeOutcomeOf(e: unknown, requested: string): ProbeOutcome | undefined {
  if (e instanceof McpError) return { kind: 'rpc-error', code: e.code, data: e.data, httpStatus: e.httpStatus, requested };
  if (e instanceof TransportError) return { kind: 'transport-error', code: e.code, status: e.status };
  return undefined;
}
