/**
 * A minimal push/pull async queue: producers push, one consumer iterates with for-await.
 * Unbounded by design for short bursts; consumers drain it continuously.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private waiters: Array<{ resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void }> = [];
  private done = false;
  private error: unknown;

  /** Adds a value (ignored after end). */
  push(v: T): void {
    if (this.done) return;
    const w = this.waiters.shift();
    if (w) w.resolve({ value: v, done: false });
    else this.items.push(v);
  }

  /** Ends the iteration after the queued values. */
  end(): void {
    if (this.done) return;
    this.done = true;
    for (const w of this.waiters.splice(0)) w.resolve({ value: undefined as never, done: true });
  }

  /** Ends the iteration with an error thrown to the consumer after the queued values. */
  fail(e: unknown): void {
    if (this.done) return;
    this.error = e;
    this.done = true;
    for (const w of this.waiters.splice(0)) w.reject(e);
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.items.length) return Promise.resolve({ value: this.items.shift() as T, done: false });
        if (this.done)
          return this.error !== undefined
            ? Promise.reject(this.error instanceof Error ? this.error : new Error(String(this.error)))
            : Promise.resolve({ value: undefined as never, done: true });
        return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
      },
      return: () => {
        this.end();
        return Promise.resolve({ value: undefined as never, done: true });
      },
    };
  }
}
