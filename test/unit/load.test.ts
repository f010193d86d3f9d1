// The pure parts of `load`: the log-linear histogram (fixed relative error), the k6-style
// thresholds, and the engine's counting (with sends that answer at once).
import { describe, expect, it } from 'vitest';
import { Histogram } from '../../src/load/histogram.js';
import { parseThreshold, thresholdActual, thresholdHolds } from '../../src/load/threshold.js';
import { runLoad, type RequestOutcome } from '../../src/load/engine.js';
import { parseLoadFlags, parseTime } from '../../src/cli/commands/load.js';
import { UsageError } from '../../src/protocol/errors.js';

describe('Histogram', () => {
  it('keeps small values exactly and large ones within 1/64', () => {
    const h = new Histogram();
    for (let v = 0; v < 128; v++) h.record(v);
    expect(h.percentile(50)).toBe(63);
    expect(h.min).toBe(0);
    expect(h.max).toBe(127);
    for (const v of [1000, 12_345, 999_999, 3_600_000_000]) {
      const one = new Histogram();
      one.record(v);
      one.record(v * 1.5);
      const p = one.percentile(50);
      expect(p).toBeGreaterThanOrEqual(v);
      expect((p - v) / v).toBeLessThan(1 / 64);
    }
  });

  it('reads percentiles by rank, never past the exact min and max', () => {
    const h = new Histogram();
    for (let i = 1; i <= 1000; i++) h.record(i * 1000);
    expect(h.percentile(0)).toBe(1000);
    expect(h.percentile(100)).toBe(1_000_000);
    const p99 = h.percentile(99);
    expect(Math.abs(p99 - 990_000) / 990_000).toBeLessThan(1 / 64);
    expect(h.mean()).toBeCloseTo(500_500, -1);
    expect(h.buckets(10).reduce((n, b) => n + b.count, 0)).toBe(1000);
    expect(new Histogram().percentile(99)).toBe(0);
  });

  it('merges', () => {
    const a = new Histogram();
    const b = new Histogram();
    a.record(5);
    b.record(500);
    a.add(b);
    expect([a.count, a.min, a.max]).toEqual([2, 5, 500]);
  });
});

describe('thresholds', () => {
  const figures = { percentile: (q: number) => q * 2, minMs: 1, maxMs: 300, avgMs: 50, errorRate: 0.004, rps: 120 };
  it.each([
    ['p99<250ms', 'p99', 250, true],
    ['p(99.9) < 1s', 'p99.9', 1000, true],
    ['p95<100', 'p95', 100, false],
    ['max<0.2s', 'max', 200, false],
    ['avg<=50ms', 'avg', 50, true],
    ['errors<0.5%', 'errors', 0.005, true],
    ['errors<0.001', 'errors', 0.001, false],
    ['rps>100', 'rps', 100, true],
    ['rps>=200', 'rps', 200, false],
  ])('%s', (src, metric, value, holds) => {
    const t = parseThreshold(src);
    expect(t).toMatchObject({ metric, value });
    expect(thresholdHolds(t, thresholdActual(t, figures))).toBe(holds);
  });
  it.each(['p99', 'p99<<3', 'rps>5ms', 'errors<3ms', 'p101<3', 'latency<3'])('refuses %s with a usage error', (src) => {
    expect(() => parseThreshold(src)).toThrow(UsageError);
  });
});

describe('flags', () => {
  it('parses times and plans', () => {
    expect([parseTime('30s', 'd'), parseTime('500ms', 'd'), parseTime('2m', 'd'), parseTime('1.5', 'd')]).toEqual([30_000, 500, 120_000, 1500]);
    expect(() => parseTime('soon', '--duration')).toThrow(UsageError);
    expect(parseLoadFlags({}).plan).toEqual({ concurrency: 10, durationMs: 10_000 });
    expect(parseLoadFlags({ rate: '50', requests: '100', warmup: '1s' }).plan).toEqual({ rate: 50, requests: 100, warmupMs: 1000 });
    expect(() => parseLoadFlags({ rate: '5', concurrency: '2' })).toThrow(/not both/);
    expect(() => parseLoadFlags({ concurrency: '0' })).toThrow(UsageError);
  });
});

describe('runLoad', () => {
  const outcomes: RequestOutcome[] = [
    { kind: 'ok' },
    { kind: 'tool-error' },
    { kind: 'rpc', code: -32603 },
    { kind: 'transport', code: 'MCPI_TIMEOUT' },
    { kind: 'input-required' },
  ];

  it('closed loop: sends exactly --requests, counts each outcome by kind', async () => {
    let i = 0;
    let inFlight = 0;
    let most = 0;
    const st = await runLoad(
      async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        await Promise.resolve();
        inFlight--;
        return outcomes[i++ % outcomes.length];
      },
      { concurrency: 4, requests: 50 },
      { now: () => performance.now() },
    );
    expect(st.sent).toBe(50);
    expect(st.completed).toBe(50);
    expect(most).toBe(4);
    expect([st.ok, st.isError, st.inputRequired]).toEqual([10, 10, 10]);
    expect(st.rpcErrors).toEqual({ '-32603': 10 });
    expect(st.transportErrors).toEqual({ MCPI_TIMEOUT: 10 });
    expect(st.latency.count).toBe(50);
    expect(st.answered).toBe(40);
    expect(st.timeline.reduce((n, r) => n + r.completed, 0)).toBe(50);
  });

  it('open loop: times each request from its due time on a fake clock', async () => {
    // The clock advances 100 ms per request answered: at 100/s (one due every 10 ms) every
    // request after the first is late, and its latency includes the wait since it was due.
    let t = 0;
    const st = await runLoad(
      async () => {
        t += 100;
        return { kind: 'ok' };
      },
      { rate: 100, requests: 5 },
      { now: () => t },
    );
    expect(st.sent).toBe(5);
    expect(st.latency.min).toBeGreaterThanOrEqual(100_000);
    expect(st.latency.max).toBeGreaterThan(400_000);
  });

  it('stops and counts the cancelled when aborted', async () => {
    const ctl = new AbortController();
    const st = await runLoad(
      (signal) =>
        new Promise<RequestOutcome>((resolve) => {
          signal.addEventListener('abort', () => resolve({ kind: 'cancelled' }), { once: true });
          ctl.abort();
        }),
      { concurrency: 3, durationMs: 60_000 },
      { now: () => performance.now(), signal: ctl.signal },
    );
    expect(st.cancelled).toBe(st.sent);
    expect(st.completed).toBe(0);
  });
});
