/**
 * One try of a provider request over plain `fetch`: a deadline, and every way it can fail turned
 * into a clear error that names the provider and the HTTP status (with the key redacted).
 */
import { AuthenticationError } from '../../contracts';
import { errorMessageOf, excerpt, ProviderError, redact, type FailureKind } from './errors';
import { isRetryableStatus, parseRetryAfter } from './retry';
import { ReplyShapeError } from './types';

export interface Call {
  /** Names the provider in messages, e.g. `openai (api.groq.com)`. */
  provider: string;
  /** Only to redact it from messages. */
  apiKey?: string;
  fetch: typeof fetch;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** What an attempt knows about its response so far, for messages about failures after the headers. */
export interface Progress {
  status?: number;
}

function fail(call: Call, message: string, status: number | undefined, retryable: boolean, retryAfterMs?: number, kind?: FailureKind): ProviderError {
  return new ProviderError(redact(`${call.provider}: ${message}`, call.apiKey), status, retryable, retryAfterMs, kind);
}

/** `<title>` of an HTML error page (proxies and gateways send those), or a note that it was HTML. */
function describeBody(text: string): string {
  if (text.trim() === '') return 'empty body';
  if (/^\s*</.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
    return `an HTML page${title ? ` ("${excerpt(title, 100)}")` : ''} instead of JSON`;
  }
  try {
    return errorMessageOf(JSON.parse(text)) ?? excerpt(text);
  } catch {
    return excerpt(text);
  }
}

/** The error for a non-2xx response. 401/403 (and Gemini's invalid-key 400) stop the run. */
async function httpError(call: Call, response: Response): Promise<Error> {
  const text = await response.text().catch(() => '');
  const status = response.status;
  const detail = describeBody(text);
  const message = `HTTP ${status}${response.statusText ? ` ${response.statusText}` : ''}: ${detail}`;
  if (status === 401 || status === 403 || (status === 400 && /API_KEY_INVALID|API key not valid/.test(text))) {
    return new AuthenticationError(redact(`${call.provider} refused the API key (${message})`, call.apiKey), status);
  }
  return fail(call, message, status, isRetryableStatus(status), isRetryableStatus(status) ? parseRetryAfter(response.headers) : undefined);
}

/** fetch, throwing the classified error unless the status is 2xx. */
export async function send(call: Call, url: string, init: RequestInit, progress: Progress): Promise<Response> {
  const response = await call.fetch(url, init);
  progress.status = response.status;
  if (!response.ok) throw await httpError(call, response);
  return response;
}

/** The body as JSON; an empty body, an HTML page or broken JSON is a retryable error. */
export async function readJson(call: Call, response: Response): Promise<unknown> {
  const text = await response.text();
  const status = response.status;
  if (text.trim() === '' || /^\s*</.test(text)) throw fail(call, `${describeBody(text)} (HTTP ${status})`, status, true);
  try {
    return JSON.parse(text);
  } catch {
    throw fail(call, `malformed JSON (HTTP ${status}): ${excerpt(text, 120)}`, status, true);
  }
}

function networkMessage(error: Error): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message;
  // Browsers say only "Failed to fetch", which also covers CORS refusals.
  const hint = /failed to fetch|networkerror|load failed/i.test(error.message) ? ' (connection refused or dropped, or blocked by CORS)' : '';
  return `${error.message}${why ? ` (${why})` : ''}${hint}`;
}

/**
 * Runs one try with a deadline covering the request and the whole body. The caller's abort is
 * passed through untouched; everything else becomes a ProviderError or an AuthenticationError.
 */
export async function attempt<T>(call: Call, run: (signal: AbortSignal, progress: Progress) => Promise<T>): Promise<T> {
  const deadline = AbortSignal.timeout(call.timeoutMs);
  const signal = call.signal ? AbortSignal.any([call.signal, deadline]) : deadline;
  const progress: Progress = {};
  try {
    return await run(signal, progress);
  } catch (e) {
    if (call.signal?.aborted) throw call.signal.reason ?? e;
    if (e instanceof ProviderError || e instanceof AuthenticationError) throw e;
    const status = progress.status;
    if (deadline.aborted) throw fail(call, `no complete reply within ${call.timeoutMs / 1000} s${status ? ` (HTTP ${status})` : ''}`, status, true, undefined, 'timeout');
    if (e instanceof ReplyShapeError) throw fail(call, `${e.message} (HTTP ${status ?? '?'})`, status, e.retryable);
    if (e instanceof TypeError || (e as Error)?.name === 'TypeError') {
      const when = status ? `connection dropped while reading the reply (HTTP ${status})` : 'network error';
      throw fail(call, `${when}: ${networkMessage(e as Error)}`, status, true, undefined, status ? 'reply' : 'network');
    }
    throw e;
  }
}
