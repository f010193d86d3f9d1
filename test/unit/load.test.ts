// The pure parts of `load`: the log-linear histogram (fixed relative error), the k6-style
// thresholds, the engine's counting (with sends that answer at once), weights, the open-loop
// cap, stages (parsing, levels, the ramp's schedule), --mix files and --baseline comparisons.
import { describe, expect, it } from 'vitest';
import { Histogram } from '../../src/load/histogram.js';
import { parseThreshold, thresholdActual, thresholdHolds } from '../../src/load/threshold.js';
import { runLoad, weightedPicker, type RequestOutcome } from '../../src/load/engine.js';
import { levelAt, parseStages, rampSchedule } from '../../src/load/stages.js';
import { mixOf } from '../../src/load/mix.js';
import { parseCollection } from '../../src/collection/format.js';
import { checkBaselineDoc, compareWithBaseline } from '../../src/load/baseline.js';
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
  const figures = { percentile: (q: number) => q * 2, minMs: 1, maxMs: 300, avgMs: 50, errorRate: 0.004, rps: 120, dropped: 2 };
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
    ['dropped<1', 'dropped', 1, false],
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
    expect(parseLoadFlags({ rate: '0', stages: '10s:5' }).plan).toEqual({ rate: 0, stages: [{ durationMs: 10_000, target: 5 }], durationMs: 10_000 });
    expect(parseLoadFlags({ stages: '1s:5' }).plan.concurrency).toBe(1);
    expect(() => parseLoadFlags({ rate: '0' })).toThrow(/0 only as the start of --stages/);
    expect(() => parseLoadFlags({ stages: '1s:5', duration: '5s' })).toThrow(/not both/);
    expect(() => parseLoadFlags({ maxInFlight: '5' })).toThrow(/open loop/);
    expect(() => parseLoadFlags({ processes: '0' })).toThrow(UsageError);
    expect(() => parseLoadFlags({ mix: '/nonexistent/mix.json' })).toThrow(/cannot read the collection .*no such file/);
    expect(() => parseLoadFlags({ baseline: '/nonexistent/b.json' })).toThrow(/no such file/);
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

describe('stages', () => {
  it('parses DURATION:TARGET lists and refuses the rest with a usage error', () => {
    expect(parseStages('30s:10, 1m:50,500ms:0', true)).toEqual([
      { durationMs: 30_000, target: 10 },
      { durationMs: 60_000, target: 50 },
      { durationMs: 500, target: 0 },
    ]);
    expect(parseStages('2s:2.5', false)).toEqual([{ durationMs: 2000, target: 2.5 }]);
    for (const bad of ['', '30s', '30s:-1', 'soon:3', '0s:3', '25h:1']) expect(() => parseStages(bad, false)).toThrow(UsageError);
    expect(() => parseStages('1s:2.5', true)).toThrow(/whole number/);
  });

  it('ramps the level linearly from the start', () => {
    const st = [
      { durationMs: 1000, target: 10 },
      { durationMs: 1000, target: 0 },
    ];
    expect([levelAt(st, 0, -5), levelAt(st, 0, 500), levelAt(st, 0, 1000), levelAt(st, 0, 1500), levelAt(st, 0, 9999)]).toEqual([0, 5, 10, 5, 0]);
  });

  it('schedules the open loop by the area under the rate: no burst, no gap', () => {
    // 0 → 100/s over 2 s (100 requests), then 100/s for 1 s (100 more).
    const due = rampSchedule(
      [
        { durationMs: 2000, target: 100 },
        { durationMs: 1000, target: 100 },
      ],
      0,
    );
    expect(due(0)).toBe(0);
    // Area t²/2·50 = i → t = sqrt(i/25): request 25 at 1 s, request 100 at 2 s.
    expect(due(25)).toBeCloseTo(1000, 6);
    expect(due(100)).toBeCloseTo(2000, 6);
    expect(due(150)).toBeCloseTo(2500, 6);
    expect(due(200)).toBeCloseTo(3000, 6);
    expect(due(201)).toBeUndefined();
    const times = Array.from({ length: 200 }, (_, i) => due(i)!);
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]);
  });
});

describe('weights, the open-loop cap, stages in the engine', () => {
  it('picks by weight smoothly: each kind its share in every round', () => {
    const pick = weightedPicker([3, 1, 1]);
    const seq = Array.from({ length: 10 }, pick);
    expect(seq.filter((k) => k === 0).length).toBe(6);
    expect(seq.slice(0, 5).sort()).toEqual([0, 0, 0, 1, 2]);
    expect(weightedPicker([1])()).toBe(0);
  });

  it('counts per kind of request as well as overall', async () => {
    const st = await runLoad(
      async (_s, call) => (call === 1 ? { kind: 'tool-error' } : { kind: 'ok' }),
      { concurrency: 2, requests: 40, weights: [3, 1] },
      { now: () => performance.now() },
    );
    expect(st.perCall.map((c) => c.sent)).toEqual([30, 10]);
    expect(st.perCall.map((c) => [c.ok, c.isError])).toEqual([
      [30, 0],
      [0, 10],
    ]);
    expect(st.perCall[0].latency.count + st.perCall[1].latency.count).toBe(st.latency.count);
  });

  it('open loop: a request due while the cap is in flight is dropped, not sent', async () => {
    // The clock jumps 100 ms per reading: the first tick finds all 20 requests (1 ms apart)
    // due at once and goes through them in one go; requests end only after that (the gate
    // opens on the next turn of the event loop). With a cap of 3, 3 are sent and 17 dropped.
    let t = 0;
    let open: (() => void) | undefined;
    const gate = new Promise<void>((r) => (open = r));
    const st = await runLoad(
      () => {
        if (open) setTimeout(open, 0);
        open = undefined;
        return gate.then((): RequestOutcome => ({ kind: 'ok' }));
      },
      { rate: 1000, requests: 20, maxInFlight: 3 },
      { now: () => (t += 100) },
    );
    expect(st.sent).toBe(3);
    expect(st.dropped).toBe(17);
    expect(st.peakInFlight).toBe(3);
    expect(st.timeline.reduce((n, r) => n + (r.dropped ?? 0), 0)).toBe(17);
  });

  it('open loop with stages: sends exactly the area under the ramp, each second with its level', async () => {
    let t = 0;
    const st = await runLoad(async () => ({ kind: 'ok' }), { rate: 0, stages: parseStages('1s:40,1s:40', false), durationMs: 2000 }, { now: () => (t += 7) });
    expect(st.sent).toBe(60);
    expect(st.timeline.map((r) => r.level)).toEqual([20, 40]);
  });

  it('closed loop with stages: workers follow the level', async () => {
    let inFlight = 0;
    let most = 0;
    const st = await runLoad(
      async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 2));
        inFlight--;
        return { kind: 'ok' };
      },
      { concurrency: 1, stages: parseStages('300ms:4,300ms:4', true), durationMs: 600 },
      { now: () => performance.now() },
    );
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(4);
    expect(st.peakInFlight).toBe(most);
  });
});

describe('--mix files (a collection read as run reads it)', () => {
  const env = { TOKEN: 'abc', COUNT: '3' };
  const mix = (calls: unknown[]) => mixOf(parseCollection(JSON.stringify({ format: 'mcp-inspect/collection@1', calls }), 'm.json'), env);
  it('takes each call with its weight and ${env:…} resolved; names the unnamed as run does', () => {
    expect(
      mix([
        { tool: 'echo', arguments: { text: 'key ${env:TOKEN}' }, weight: 3, expect: { isError: false } },
        { tool: 'add', arguments: { a: '${env:COUNT}', b: 1 } },
        { name: 'doc', method: 'resources/read', uri: 'demo://readme', answers: { confirm: 'accept' } },
      ]),
    ).toEqual([
      { name: 'echo', method: 'tools/call', target: 'echo', arguments: { text: 'key abc' }, fromEnv: [], weight: 3, hasAnswers: false },
      { name: 'add', method: 'tools/call', target: 'add', arguments: { a: '3', b: 1 }, fromEnv: ['a'], weight: 1, hasAnswers: false },
      { name: 'doc', method: 'resources/read', target: 'demo://readme', arguments: {}, fromEnv: [], weight: 1, hasAnswers: true },
    ]);
  });
  it('refuses ${calls.…} (a load runs its calls in no order) and an unset variable', () => {
    expect(() =>
      mix([
        { name: 'first', tool: 'a' },
        { tool: 'b', arguments: { x: '${calls.first.content}' } },
      ]),
    ).toThrow(/no order/);
    expect(() => mix([{ tool: 'a', arguments: { x: '${env:NOPE}' } }])).toThrow(/NOPE is not set/);
  });
});

describe('--baseline', () => {
  const doc = (throughput: number, p99: number, extra: Record<string, unknown> = {}) => ({
    mode: 'concurrency',
    concurrency: 4,
    tool: 'echo',
    throughput,
    errorRate: 0,
    latencyMs: { min: 1, mean: 2, p50: 2, p90: 3, p95: 3, p99, 'p99.9': p99, max: p99 },
    cpuPerRequestUs: 50,
    ...extra,
  });
  it('gives each figure then, now, the change and whether it is better', () => {
    const c = compareWithBaseline(doc(110, 8), doc(100, 10), 'b.json');
    expect(c.figures.throughput).toEqual({ baseline: 100, now: 110, change: 10, changePct: 10, better: true });
    expect(c.figures['latencyMs.p99']).toEqual({ baseline: 10, now: 8, change: -2, changePct: -20, better: true });
    expect(c.figures.errorRate).toEqual({ baseline: 0, now: 0, change: 0, changePct: null, better: null });
    expect(c.notes).toEqual([]);
  });
  it('compares per call by name and says when the runs differ', () => {
    const call = (name: string, p99: number) => ({ name, throughput: 10, errorRate: 0, latencyMs: { p50: 1, p99 } });
    const c = compareWithBaseline(doc(1, 1, { mode: 'rate', calls: [call('a', 5), call('new', 1)] }), doc(1, 1, { calls: [call('a', 4)] }), 'b.json');
    expect(Object.keys(c.calls)).toEqual(['a']);
    expect(c.calls.a['latencyMs.p99'].better).toBe(false);
    expect(c.notes[0]).toMatch(/concurrency mode, this run in rate mode/);
  });
  it('refuses a document that is not load --json', () => {
    expect(() => checkBaselineDoc({ tools: [] }, 'x.json')).toThrow(/not a document of mcp-inspect load --json/);
  });
});
