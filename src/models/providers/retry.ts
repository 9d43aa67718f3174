/**
 * Retries for provider requests: exponential backoff with jitter, honouring the server's
 * `retry-after-ms` / `retry-after`, bounded in attempts and delay, and abortable.
 */

export interface RetryOptions {
  /** Tries in all, the first included (default 5). */
  attempts?: number;
  /** Delay before the first retry, doubled for each next one (default 1 s). */
  baseDelayMs?: number;
  /** No wait is longer than this, a server's retry-after included (default 60 s). */
  maxDelayMs?: number;
}

export interface RetryInfo {
  /** The retry about to happen: 1 for the second try. */
  retry: number;
  delayMs: number;
  error: Error;
}

export interface RetryControl extends RetryOptions {
  signal?: AbortSignal;
  onRetry?: (info: RetryInfo) => void;
  /** Injectable for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

/** An error that says whether trying again may help, and when. */
export interface RetryHint {
  retryable: boolean;
  retryAfterMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { attempts: 5, baseDelayMs: 1000, maxDelayMs: 60_000 };

/** 408 timeout, 409 conflict, 429 rate limit, 5xx (Anthropic's 529 "overloaded" included). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status <= 599);
}

/** Milliseconds the server asks us to wait, from `retry-after-ms`, or `retry-after` in seconds or as an HTTP date. */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Backoff before retry n (1-based): base·2^(n-1), capped, with "equal jitter" (half fixed, half random). */
export function backoffDelay(retry: number, options: RetryOptions = {}, random: () => number = Math.random): number {
  const { baseDelayMs, maxDelayMs } = { ...DEFAULT_RETRY, ...options };
  const capped = Math.min(maxDelayMs, baseDelayMs * 2 ** (retry - 1));
  return capped / 2 + random() * (capped / 2);
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** setTimeout as a promise that rejects at once when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function hintOf(error: unknown): RetryHint {
  const hint = error as Partial<RetryHint> | null;
  return { retryable: Boolean(hint && hint.retryable), retryAfterMs: hint?.retryAfterMs };
}

/** Calls `attempt` until it succeeds, throws a non-retryable error, or the attempts run out. */
export async function withRetries<T>(attempt: (n: number) => Promise<T>, control: RetryControl = {}): Promise<T> {
  const options = { ...DEFAULT_RETRY, ...stripUndefined(control) };
  const wait = control.sleep ?? sleep;
  for (let n = 1; ; n++) {
    if (control.signal?.aborted) throw abortReason(control.signal);
    try {
      return await attempt(n);
    } catch (error) {
      if (control.signal?.aborted) throw abortReason(control.signal);
      const hint = hintOf(error);
      if (!hint.retryable) throw error;
      if (n >= options.attempts) {
        if (n > 1 && error instanceof Error) error.message += ` (gave up after ${n} attempts)`;
        throw error;
      }
      const delayMs = hint.retryAfterMs !== undefined
        ? Math.min(hint.retryAfterMs, options.maxDelayMs)
        : backoffDelay(n, options, control.random);
      control.onRetry?.({ retry: n, delayMs, error: error as Error });
      await wait(delayMs, control.signal);
    }
  }
}

function stripUndefined(control: RetryControl): RetryOptions {
  const out: RetryOptions = {};
  if (control.attempts !== undefined) out.attempts = Math.max(1, control.attempts);
  if (control.baseDelayMs !== undefined) out.baseDelayMs = control.baseDelayMs;
  if (control.maxDelayMs !== undefined) out.maxDelayMs = control.maxDelayMs;
  return out;
}
