/**
 * `proxy --inject SPEC`: the faults the proxy causes on purpose, parsed from the flag's words.
 * Pure. spec: issue 20 §6.
 */
import { UsageError } from '../protocol/errors.js';

/** The faults asked for (each at most once; a repeated one keeps its last value). */
export interface Faults {
  /** Hold each server message this many ms before passing it on. */
  delayMs?: number;
  /** Answer this share (0–1) of the host's requests with a JSON-RPC error instead of forwarding them. */
  errorRate?: number;
  /** HTTP: refuse the host's GET stream (405). */
  dropGetStream?: boolean;
  /** Cut the first response after part of it (stdio: part of a line, then the pipe closes). */
  closeMidResponse?: boolean;
  /** HTTP: answer the next request carrying an `Mcp-Session-Id` with 404 (session expired). */
  expireSession?: boolean;
}

/** The fault names, as `--inject` takes them. */
export const FAULT_NAMES = ['delay', 'error-rate', 'drop-get-stream', 'close-mid-response', 'expire-session'] as const;
/** The faults that apply over stdio; the others are a usage error there. */
export const STDIO_FAULTS: readonly string[] = ['delay', 'error-rate', 'close-mid-response'];

/** Parses the `--inject` words (`delay=200`, `error-rate=0.1`, `drop-get-stream`…); throws UsageError for an unknown or malformed one, or one that does not apply to `transport`. */
export function parseFaults(words: readonly string[], transport: 'stdio' | 'http'): Faults {
  const f: Faults = {};
  for (const w of words) {
    const eq = w.indexOf('=');
    const name = eq < 0 ? w : w.slice(0, eq);
    const value = eq < 0 ? undefined : w.slice(eq + 1);
    if (!(FAULT_NAMES as readonly string[]).includes(name))
      throw new UsageError(`--inject takes one of ${FAULT_NAMES.join(', ')} (got ${JSON.stringify(w)}), e.g. --inject delay=200`);
    if (transport === 'stdio' && !STDIO_FAULTS.includes(name))
      throw new UsageError(`--inject ${name} applies to HTTP only; over stdio --inject takes ${STDIO_FAULTS.join(', ')}`);
    const needs = name === 'delay' || name === 'error-rate';
    if (needs && value === undefined) throw new UsageError(`--inject ${name} takes a value: --inject ${name}=${name === 'delay' ? 'MS' : 'P (0 to 1)'}`);
    if (!needs && value !== undefined) throw new UsageError(`--inject ${name} takes no value (got ${JSON.stringify(w)})`);
    const n = Number(value);
    if (name === 'delay') {
      if (!Number.isFinite(n) || n < 0 || n > 600_000) throw new UsageError(`--inject delay=MS takes 0 to 600000 ms (got ${JSON.stringify(value)})`);
      f.delayMs = n;
    } else if (name === 'error-rate') {
      if (!Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`--inject error-rate=P takes a share from 0 to 1 (got ${JSON.stringify(value)})`);
      f.errorRate = n;
    } else if (name === 'drop-get-stream') f.dropGetStream = true;
    else if (name === 'close-mid-response') f.closeMidResponse = true;
    else f.expireSession = true;
  }
  return f;
}

/** True when no fault is asked for. */
export function noFaults(f: Faults): boolean {
  return !f.delayMs && !f.errorRate && !f.dropGetStream && !f.closeMidResponse && !f.expireSession;
}

/** The JSON-RPC error an injected `error-rate` fault answers a request with. */
export function injectedError(id: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'mcp-inspect proxy: injected error (--inject error-rate)' } });
}
