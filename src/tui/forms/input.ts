/**
 * The TUI's answer to input rounds (ClientOptions.input): the client hands each round
 * (an MRTR `input_required` result, or a legacy server→client request) to {@link InputQueue},
 * which keeps it until the UI (the input overlay, src/tui/forms/inputOverlay.tsx) answers or
 * refuses it. Rounds are served one at a time, oldest first. The queue also keeps the roots
 * the user exposes (edited in the overlay, kept for the session).
 * spec: basic/patterns/multi-round-trip, client/elicitation, client/roots, client/sampling
 */
import { useSyncExternalStore } from 'react';
import type { InputHandler, InputRound } from '../../client/types.js';
import { rootsResult, type InputResponses, type Root } from '../../protocol/mrtr.js';
import { InputDeclinedError, TransportError } from '../../protocol/errors.js';

/** A round waiting for the user. */
export interface PendingRound {
  /** Increasing id, session-wide. */
  id: number;
  round: InputRound;
  /** When it arrived (ms since epoch). */
  at: number;
}

/** An InputHandler whose rounds the UI serves. */
export class InputQueue implements InputHandler {
  private items: { p: PendingRound; resolve: (r: InputResponses) => void; reject: (e: unknown) => void }[] = [];
  private nextId = 1;
  private listeners = new Set<() => void>();
  private snapshot: readonly PendingRound[] = [];
  /** The roots a `roots/list` request is answered with (the overlay shows and edits them). */
  roots: Root[];

  constructor(
    roots: readonly Root[] = [],
    private readonly now: () => number = Date.now,
  ) {
    this.roots = roots.map((r) => ({ ...r }));
  }

  /** Queues `round` until the UI answers it. Rejects with `MCPI_CANCELLED` when `signal` aborts (the request was cancelled) or the user stops it. */
  answer(round: InputRound, signal?: AbortSignal): Promise<InputResponses> {
    // A legacy server's own roots/list outside any call (server-everything asks at start-up):
    // answered with the session's roots at once, not by taking the screen; inside a call the
    // overlay shows them and lets the user edit them. spec: client/roots#listing-roots
    if (round.method === 'roots/list' && round.requests.length > 0 && round.requests.every((r) => r.kind === 'roots')) {
      return Promise.resolve(Object.fromEntries(round.requests.map((r) => [r.key, rootsResult(this.roots)])));
    }
    return new Promise<InputResponses>((resolve, reject) => {
      if (signal?.aborted) return reject(new TransportError('MCPI_CANCELLED', 'the request was cancelled'));
      const p: PendingRound = { id: this.nextId++, round, at: this.now() };
      const entry = { p, resolve, reject };
      this.items.push(entry);
      signal?.addEventListener('abort', () => this.settle(p.id, () => reject(new TransportError('MCPI_CANCELLED', 'the request was cancelled'))), {
        once: true,
      });
      this.changed();
    });
  }

  /** Sends the user's answers for round `id` (one per request key answered). */
  respond(id: number, responses: InputResponses): void {
    this.settle(id, (e) => e.resolve(responses));
  }

  /** Stops the request of round `id` (the user cancelled it): the client rethrows this. */
  stop(id: number, reason = 'the user stopped the request instead of answering the server'): void {
    this.settle(id, (e) => e.reject(new TransportError('MCPI_CANCELLED', reason)));
  }

  /**
   * Declines round `id` (a legacy server's own request, which is one request): the client
   * answers the server with a JSON-RPC error and the call goes on.
   */
  decline(id: number, reason = 'User rejected sampling request'): void {
    this.settle(id, (e) => e.reject(new InputDeclinedError(reason)));
  }

  /** Rounds waiting, oldest first (a stable array until the next change). */
  pending(): readonly PendingRound[] {
    return this.snapshot;
  }

  /** Calls `fn` after each change; returns the unsubscribe function. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private settle(id: number, fn: (e: (typeof this.items)[number]) => void): void {
    const i = this.items.findIndex((e) => e.p.id === id);
    if (i < 0) return;
    const [e] = this.items.splice(i, 1);
    this.changed();
    fn(e);
  }

  private changed(): void {
    this.snapshot = this.items.map((e) => e.p);
    for (const l of this.listeners) l();
  }
}

/** The session's input queue (made by the shell, Root; absent in tests that render the App alone) and its waiting rounds, re-rendered on every change. */
export function useInputQueue(queue: InputQueue | undefined): { queue: InputQueue | undefined; pending: readonly PendingRound[] } {
  const pending = useSyncExternalStore(
    (fn) => queue?.subscribe(fn) ?? (() => undefined),
    () => queue?.pending() ?? NONE,
  );
  return { queue, pending };
}

const NONE: readonly PendingRound[] = [];
