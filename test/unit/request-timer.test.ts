import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startRequestTimer } from '../../src/transport/request-timer.js';
import { makeLifeline } from '../../src/transport/types.js';
import type { TransportError } from '../../src/protocol/errors.js';

// Fake timers: the helper's arithmetic, not the machine's speed (the transports' real waits are in test/integration).
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function start(opts: Parameters<typeof startRequestTimer>[1]) {
  const expired: TransportError[] = [];
  const timer = startRequestTimer('tools/call', opts, (e) => expired.push(e));
  return { timer, expired };
}

describe('startRequestTimer', () => {
  it('--timeout with no sign of life: no answer within', () => {
    const { expired } = start({ timeoutMs: 100 });
    vi.advanceTimersByTime(99);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired.map((e) => [e.code, e.message])).toEqual([['MCPI_TIMEOUT', 'no answer to tools/call within 100 ms']]);
  });

  it('each lifeline touch restarts --timeout, and the message says it counted from the last progress', () => {
    const lifeline = makeLifeline();
    const { expired } = start({ timeoutMs: 100, lifeline });
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(90);
      lifeline.touch();
    }
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(expired.map((e) => e.message)).toEqual(['no progress and no answer from tools/call for 100 ms (--timeout counts from its last progress)']);
  });

  it('--max-time is not extended by touches; it fires once', () => {
    const lifeline = makeLifeline();
    const { expired } = start({ timeoutMs: 100, maxTimeMs: 250, lifeline });
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(50);
      lifeline.touch();
    }
    expect(expired.map((e) => [e.code, e.message])).toEqual([['MCPI_TIMEOUT', 'tools/call took longer than the total cap of 250 ms (--max-time)']]);
  });

  it('pause stops --timeout (touches do not restart it), not the cap; resume arms a full --timeout', () => {
    const lifeline = makeLifeline();
    const { timer, expired } = start({ timeoutMs: 100, maxTimeMs: 1000, lifeline });
    timer.pause();
    vi.advanceTimersByTime(500);
    lifeline.touch();
    vi.advanceTimersByTime(200);
    expect(expired).toEqual([]);
    timer.resume();
    vi.advanceTimersByTime(99);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired.map((e) => e.message)).toEqual(['no answer to tools/call within 100 ms']);
  });

  it('clear stops both for good; resume after clear arms nothing; no options, no timer', () => {
    const { timer, expired } = start({ timeoutMs: 100, maxTimeMs: 200 });
    timer.clear();
    timer.resume();
    vi.advanceTimersByTime(1000);
    expect(expired).toEqual([]);
    const none = start({ timeoutMs: 0 });
    vi.advanceTimersByTime(1000);
    expect(none.expired).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('startRequestTimer: requests share one timer', () => {
  it('each request expires at its own deadline, a later one with a shorter timeout first', () => {
    const order: string[] = [];
    startRequestTimer('a', { timeoutMs: 300 }, (e) => order.push(e.message));
    vi.advanceTimersByTime(50);
    startRequestTimer('b', { timeoutMs: 100 }, (e) => order.push(e.message));
    const c = startRequestTimer('c', { timeoutMs: 120 }, (e) => order.push(e.message));
    vi.advanceTimersByTime(99);
    expect(order).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(order).toEqual(['no answer to b within 100 ms']);
    c.clear();
    vi.advanceTimersByTime(149);
    expect(order).toEqual(['no answer to b within 100 ms']);
    vi.advanceTimersByTime(1);
    expect(order).toEqual(['no answer to b within 100 ms', 'no answer to a within 300 ms']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a request started by an expiry handler is timed too; a settled one never expires', () => {
    const expired: string[] = [];
    const settled = startRequestTimer('settled', { timeoutMs: 100 }, (e) => expired.push(e.message));
    startRequestTimer('first', { timeoutMs: 100 }, (e) => {
      expired.push(e.message);
      startRequestTimer('second', { timeoutMs: 50 }, (e2) => expired.push(e2.message));
    });
    settled.clear();
    vi.advanceTimersByTime(100);
    expect(expired).toEqual(['no answer to first within 100 ms']);
    vi.advanceTimersByTime(50);
    expect(expired).toEqual(['no answer to first within 100 ms', 'no answer to second within 50 ms']);
    vi.advanceTimersByTime(1000);
    expect(expired).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(0);
  });
});
