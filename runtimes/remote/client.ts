/**
 * HTTP client for one or more runners speaking the runner protocol (runtimes/remote/protocol.ts):
 * spreads requests over the runners, retries network failures, 5xx and 503 with exponential
 * backoff (honouring Retry-After), and reports what could not be done as an InfrastructureError —
 * never as the program's failure. Works in the browser and in Node (global fetch).
 */
import { InfrastructureError } from '../../src/contracts';

export interface RemoteClientOptions {
  /** Base URLs of the runners, e.g. http://127.0.0.1:8080. */
  urls: readonly string[];
  /** Bearer token (RUNNER_TOKEN of the runners). */
  token?: string;
  /** Tries per request, the first included. */
  attempts?: number;
  /** First backoff delay; doubles with every retry (with jitter) up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Longest Retry-After that is honoured as given. */
  maxRetryAfterMs?: number;
  /** Requests in flight per runner; more wait in the client instead of filling the runner's queue. */
  maxInFlightPerUrl?: number;
  /** Called before each retry (progress and logs). */
  onRetry?: (event: { url: string; attempt: number; reason: string; delayMs: number }) => void;
  fetch?: typeof fetch;
}

export interface RunnerReply<T> {
  url: string;
  status: number;
  body: T;
}

/** Errors worth another try: the runner may answer next time (or another runner may). */
class Retryable extends Error {
  constructor(message: string, readonly retryAfterMs?: number) {
    super(message);
  }
}

const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
  if (signal?.aborted) return reject(signal.reason);
  const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
  const onAbort = () => { clearTimeout(timer); reject(signal!.reason); };
  signal?.addEventListener('abort', onAbort, { once: true });
});

/** Retry-After in seconds or as an HTTP date. */
function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export const normalizeRunnerUrl = (url: string) => url.trim().replace(/\/+$/, '');

export class RemoteRunnerClient {
  readonly urls: readonly string[];
  private readonly inFlight = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();
  private turn = 0;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: RemoteClientOptions) {
    if (!options.urls.length) throw new Error('at least one runner URL is needed');
    this.urls = options.urls.map(normalizeRunnerUrl);
    for (const url of this.urls) {
      if (!/^https?:\/\/[^/]/.test(url)) throw new Error(`not an http(s) URL: ${url}`);
    }
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** Requests in flight per runner (for tests and progress displays). */
  load(): Record<string, number> {
    return Object.fromEntries(this.urls.map((u) => [u, this.inFlight.get(u) ?? 0]));
  }

  /** The least busy of `candidates`, avoiding `avoid` when there is a choice; round-robin among equals. */
  private pick(candidates: readonly string[], avoid?: string): string {
    const pool = candidates.length > 1 && avoid ? candidates.filter((u) => u !== avoid) : candidates;
    const start = this.turn++;
    let best = pool[start % pool.length]!;
    for (let i = 0; i < pool.length; i++) {
      const url = pool[(start + i) % pool.length]!;
      if ((this.inFlight.get(url) ?? 0) < (this.inFlight.get(best) ?? 0)) best = url;
    }
    return best;
  }

  private async enter(url: string, signal?: AbortSignal): Promise<void> {
    const limit = this.options.maxInFlightPerUrl ?? Infinity;
    while ((this.inFlight.get(url) ?? 0) >= limit) {
      await new Promise<void>((resolve, reject) => {
        const list = this.waiting.get(url) ?? [];
        const wake = () => { signal?.removeEventListener('abort', onAbort); resolve(); };
        const onAbort = () => { list.splice(list.indexOf(wake), 1); reject(signal!.reason); };
        signal?.addEventListener('abort', onAbort, { once: true });
        list.push(wake);
        this.waiting.set(url, list);
      });
    }
    this.inFlight.set(url, (this.inFlight.get(url) ?? 0) + 1);
  }

  private leave(url: string): void {
    this.inFlight.set(url, (this.inFlight.get(url) ?? 1) - 1);
    this.waiting.get(url)?.shift()?.();
  }

  /**
   * One request with retries. `candidates` limits the runners (those that offer a language).
   * `accept` turns a 2xx/4xx answer into a result or throws (InfrastructureError: final; Retryable: retry).
   */
  async request<T>(
    method: 'GET' | 'POST',
    path: string,
    options: { body?: unknown; candidates?: readonly string[]; timeoutMs?: number; signal?: AbortSignal; attempts?: number } = {},
  ): Promise<RunnerReply<T>> {
    const candidates = options.candidates?.length ? options.candidates : this.urls;
    const attempts = options.attempts ?? this.options.attempts ?? 6;
    const base = this.options.backoffMs ?? 500;
    let lastUrl: string | undefined;
    let lastError = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const url = this.pick(candidates, lastUrl);
      lastUrl = url;
      let retryAfterMs: number | undefined;
      try {
        return await this.once<T>(url, method, path, options);
      } catch (e) {
        if (options.signal?.aborted) throw e;
        if (!(e instanceof Retryable)) throw e;
        lastError = `${url}: ${e.message}`;
        retryAfterMs = e.retryAfterMs;
      }
      if (attempt === attempts) break;
      const backoff = Math.min(this.options.maxBackoffMs ?? 30_000, base * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
      const delayMs = retryAfterMs !== undefined ? Math.min(retryAfterMs, this.options.maxRetryAfterMs ?? 60_000) : backoff;
      this.options.onRetry?.({ url, attempt, reason: lastError, delayMs });
      await sleep(delayMs, options.signal);
    }
    throw new InfrastructureError(`runner unavailable after ${attempts} attempts: ${lastError}`);
  }

  private async once<T>(url: string, method: string, path: string, options: { body?: unknown; timeoutMs?: number; signal?: AbortSignal }): Promise<RunnerReply<T>> {
    await this.enter(url, options.signal);
    try {
      const signals = [AbortSignal.timeout(options.timeoutMs ?? 30_000), ...(options.signal ? [options.signal] : [])];
      let response: Response;
      try {
        response = await this.fetchImpl(`${url}${path}`, {
          method,
          headers: {
            ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}),
          },
          body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
          signal: AbortSignal.any(signals),
        });
      } catch (e) {
        if (options.signal?.aborted) throw e;
        const cause = (e as Error & { cause?: { code?: string; message?: string } }).cause;
        throw new Retryable(`network error: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
      }
      const text = await response.text().catch(() => '');
      if (response.status === 503) throw new Retryable('busy (503)', parseRetryAfter(response.headers.get('retry-after')));
      if (response.status === 401 || response.status === 403) {
        throw new InfrastructureError(`${url} refused the request (${response.status}): check the runner token`);
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        if (response.status >= 500) throw new Retryable(`HTTP ${response.status}`);
        throw new InfrastructureError(`${url}${path} answered HTTP ${response.status} with a body that is not JSON`);
      }
      if (response.status >= 500 && response.status !== 501) {
        const message = (body as { exec_runtime_message?: string })?.exec_runtime_message;
        throw new Retryable(`HTTP ${response.status}${message ? `: ${message.slice(0, 300)}` : ''}`);
      }
      return { url, status: response.status, body: body as T };
    } finally {
      this.leave(url);
    }
  }
}
