/**
 * At most `concurrency` runs at once, at most `queueLimit` waiting; beyond that a request is
 * refused at once (the server answers 503 with Retry-After). Each running job holds a numbered
 * slot, which selects the run's uid in the sandbox.
 */
export class QueueFullError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('the runner is busy: queue full');
  }
}

interface Waiter {
  resolve: (slot: number) => void;
  reject: (e: Error) => void;
}

export class Limiter {
  private readonly free: number[];
  private readonly waiting: Waiter[] = [];
  /** Mean run time, for Retry-After. */
  private meanMs = 2000;

  constructor(readonly concurrency: number, readonly queueLimit: number) {
    this.free = Array.from({ length: concurrency }, (_, i) => i).reverse();
  }

  get running(): number {
    return this.concurrency - this.free.length;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Seconds until a place is likely free: the queue ahead divided among the slots. */
  retryAfter(): number {
    return Math.max(1, Math.min(60, Math.ceil(((this.waiting.length + 1) * this.meanMs) / this.concurrency / 1000)));
  }

  /** Runs `job` in a slot, waiting in the queue if needed; throws QueueFullError when the queue is full. */
  async run<T>(job: (slot: number) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const slot = await this.acquire(signal);
    const started = performance.now();
    try {
      return await job(slot);
    } finally {
      this.meanMs = this.meanMs * 0.8 + (performance.now() - started) * 0.2;
      this.release(slot);
    }
  }

  private acquire(signal?: AbortSignal): Promise<number> {
    const slot = this.free.pop();
    if (slot !== undefined) return Promise.resolve(slot);
    if (this.waiting.length >= this.queueLimit) return Promise.reject(new QueueFullError(this.retryAfter()));
    return new Promise<number>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (s) => { signal?.removeEventListener('abort', onAbort); resolve(s); },
        reject,
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new Error('request cancelled while queued'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private release(slot: number): void {
    const next = this.waiting.shift();
    if (next) next.resolve(slot);
    else this.free.push(slot);
  }
}
