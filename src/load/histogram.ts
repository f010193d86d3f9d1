/**
 * A log-linear latency histogram in the manner of HdrHistogram: values (integers, here
 * microseconds) are kept in buckets whose width grows with the value, so every recorded value
 * is known within a fixed relative error (2^-(SIGNIFICANT_BITS-1), under 1.6 % with 7 bits) in
 * constant memory (one counter per bucket, about 1,800 for values up to 2^32 µs, 71 minutes).
 * Pure: no I/O, no clock.
 */

/** Bits of precision: values below 2^SIGNIFICANT_BITS are exact, larger ones within 2^-(bits-1). */
const SIGNIFICANT_BITS = 7;
const SUB = 1 << SIGNIFICANT_BITS;
const HALF = SUB >> 1;
/** The largest value kept as itself; larger ones count as this (and raise `clamped`). */
export const HISTOGRAM_MAX = 2 ** 32 - 1;
const BUCKETS = (32 - SIGNIFICANT_BITS + 1) * HALF + SUB;

/** The bucket of a value (an integer in [0, HISTOGRAM_MAX]). */
function indexOf(v: number): number {
  const bits = 32 - Math.clz32(v);
  const m = Math.max(0, bits - SIGNIFICANT_BITS);
  return m * HALF + Math.floor(v / 2 ** m);
}

/** The highest value a bucket holds (what a percentile reports, as HdrHistogram does). */
function highestOf(i: number): number {
  if (i < SUB) return i;
  const m = Math.floor((i - SUB) / HALF) + 1;
  const sub = i - m * HALF;
  return (sub + 1) * 2 ** m - 1;
}

/** A latency histogram (see the module comment). Values are integers; negative ones count as 0. */
export class Histogram {
  private readonly counts = new Float64Array(BUCKETS);
  /** Values recorded. */
  count = 0;
  /** The exact smallest and largest values recorded (Infinity / -Infinity when empty). */
  min = Infinity;
  max = -Infinity;
  /** Sum of the values recorded (for the mean). */
  sum = 0;
  /** Values above HISTOGRAM_MAX, recorded as it. */
  clamped = 0;

  /** Records one value (rounded to an integer; clamped to [0, HISTOGRAM_MAX]). */
  record(value: number): void {
    let v = Math.round(value);
    if (!(v >= 0)) v = 0;
    if (v > HISTOGRAM_MAX) {
      v = HISTOGRAM_MAX;
      this.clamped++;
    }
    this.counts[indexOf(v)]++;
    this.count++;
    this.sum += v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
  }

  /** Adds every value of `other` to this one. */
  add(other: Histogram): void {
    for (let i = 0; i < BUCKETS; i++) this.counts[i] += other.counts[i];
    this.count += other.count;
    this.sum += other.sum;
    this.clamped += other.clamped;
    this.min = Math.min(this.min, other.min);
    this.max = Math.max(this.max, other.max);
  }

  /**
   * The value at percentile `q` (0–100): the highest value of the bucket holding the
   * ceil(q% × count)-th value, never above the exact max nor below the exact min; q ≤ 0 is the
   * exact min. 0 when empty.
   */
  percentile(q: number): number {
    if (!this.count) return 0;
    if (q <= 0) return this.min;
    const rank = Math.max(1, Math.ceil((Math.min(100, Math.max(0, q)) / 100) * this.count));
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.counts[i];
      if (seen >= rank) return Math.min(this.max, Math.max(this.min, highestOf(i)));
    }
    return this.max;
  }

  /** The mean (0 when empty). */
  mean(): number {
    return this.count ? this.sum / this.count : 0;
  }

  /**
   * The non-empty buckets as `[upTo, count]` pairs in ascending order (`upTo`: the bucket's
   * highest value), merged into about `rows` rows of equal ratio for display.
   */
  buckets(rows = 12): Array<{ upTo: number; count: number }> {
    if (!this.count) return [];
    const lo = Math.max(1, this.min);
    const hi = Math.max(lo + 1, this.max);
    const ratio = (hi / lo) ** (1 / rows);
    const edges: number[] = [];
    for (let k = 1; k <= rows; k++) edges.push(k === rows ? hi : Math.ceil(lo * ratio ** k));
    const out = edges.map((upTo) => ({ upTo, count: 0 }));
    for (let i = 0; i < BUCKETS; i++) {
      const c = this.counts[i];
      if (!c) continue;
      const v = Math.min(this.max, highestOf(i));
      const row = out.find((r) => v <= r.upTo) ?? out[out.length - 1];
      row.count += c;
    }
    return out.filter((r, k) => r.count > 0 || k === out.length - 1);
  }
}
