/** Retry timing and classification (src/models/providers/retry.ts), with fake timers and an injected sleep. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, isRetryableStatus, parseRetryAfter, sleep, withRetries } from '../../src/models/providers/retry';

class Flaky extends Error {
  constructor(readonly retryable: boolean, readonly retryAfterMs?: number) {
    super(retryable ? 'try again' : 'give up');
  }
}

/** An attempt function failing with the given errors, then returning "ok". */
function failing(...errors: Error[]) {
  const calls: number[] = [];
  const fn = async (n: number) => {
    calls.push(n);
    const e = errors[n - 1];
    if (e) throw e;
    return 'ok';
  };
  return { fn, calls };
}

const recordSleeps = () => {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
};

afterEach(() => vi.useRealTimers());

describe('which failures are retried', () => {
  it.each([408, 409, 429, 500, 502, 503, 504, 529])('HTTP %i is retryable', (s) => expect(isRetryableStatus(s)).toBe(true));
  it.each([400, 401, 403, 404, 422])('HTTP %i is not', (s) => expect(isRetryableStatus(s)).toBe(false));
});

describe('retry-after', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  const h = (init: Record<string, string>) => new Headers(init);
  it('reads seconds, fractions and HTTP dates', () => {
    expect(parseRetryAfter(h({ 'retry-after': '2' }), now)).toBe(2000);
    expect(parseRetryAfter(h({ 'retry-after': '1.5' }), now)).toBe(1500);
    expect(parseRetryAfter(h({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }), now)).toBe(10_000);
    expect(parseRetryAfter(h({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now)).toBe(0);
  });
  it('prefers retry-after-ms, and ignores what it cannot read', () => {
    expect(parseRetryAfter(h({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(parseRetryAfter(h({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(h({}), now)).toBeUndefined();
  });
});

describe('backoff', () => {
  it('doubles from the base, with jitter between half and all of it, capped at the maximum', () => {
    const opts = { baseDelayMs: 1000, maxDelayMs: 5000 };
    expect([1, 2, 3].map((n) => backoffDelay(n, opts, () => 0))).toEqual([500, 1000, 2000]);
    expect([1, 2, 3].map((n) => backoffDelay(n, opts, () => 1))).toEqual([1000, 2000, 4000]);
    expect(backoffDelay(10, opts, () => 1)).toBe(5000);
    expect(backoffDelay(10, opts, () => 0)).toBe(2500);
  });
});

describe('withRetries', () => {
  it('retries retryable errors with growing delays until one try succeeds', async () => {
    const { fn, calls } = failing(new Flaky(true), new Flaky(true), new Flaky(true));
    const { delays, sleep: s } = recordSleeps();
    const retries: number[] = [];
    await expect(withRetries(fn, { sleep: s, random: () => 1, baseDelayMs: 100, onRetry: (i) => retries.push(i.retry) })).resolves.toBe('ok');
    expect(calls).toEqual([1, 2, 3, 4]);
    expect(delays).toEqual([100, 200, 400]);
    expect(retries).toEqual([1, 2, 3]);
  });

  it('stops after the attempts (default 5) and throws the last error', async () => {
    const { fn, calls } = failing(...Array.from({ length: 9 }, () => new Flaky(true)));
    const { delays, sleep: s } = recordSleeps();
    await expect(withRetries(fn, { sleep: s })).rejects.toThrow('try again');
    expect(calls).toHaveLength(5);
    expect(delays).toHaveLength(4);
    const again = failing(...Array.from({ length: 9 }, () => new Flaky(true)));
    await expect(withRetries(again.fn, { sleep: s, attempts: 2 })).rejects.toThrow();
    expect(again.calls).toHaveLength(2);
  });

  it('throws a non-retryable error at once', async () => {
    const { fn, calls } = failing(new Flaky(false));
    await expect(withRetries(fn, { sleep: recordSleeps().sleep })).rejects.toThrow('give up');
    expect(calls).toEqual([1]);
  });

  it("waits what the server asked, capped at the maximum delay", async () => {
    const { fn } = failing(new Flaky(true, 1500), new Flaky(true, 600_000));
    const { delays, sleep: s } = recordSleeps();
    await withRetries(fn, { sleep: s, random: () => 0, maxDelayMs: 30_000 });
    expect(delays).toEqual([1500, 30_000]);
  });

  it('really sleeps: nothing happens before the delay, the next try right after it (fake timers)', async () => {
    vi.useFakeTimers();
    const { fn, calls } = failing(new Flaky(true), new Flaky(true));
    const done = withRetries(fn, { random: () => 0, baseDelayMs: 1000 });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual([1]);
    await vi.advanceTimersByTimeAsync(499);
    expect(calls).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(done).resolves.toBe('ok');
    expect(calls).toEqual([1, 2, 3]);
  });

  it('is abortable while waiting: rejects at once with the abort reason, no further try', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const { fn, calls } = failing(new Flaky(true), new Flaky(true));
    const done = withRetries(fn, { signal: controller.signal, baseDelayMs: 60_000 });
    const outcome = done.catch((e: Error) => e);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    const error = await outcome;
    expect((error as Error).name).toBe('AbortError');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toEqual([1]);
  });

  it('sleep() rejects at once for an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(sleep(10_000, controller.signal)).rejects.toThrow();
  });
});
