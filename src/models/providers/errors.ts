/** Errors of provider requests, named by provider and HTTP status, with the key redacted. */
import { AnswerUnavailableError } from '../../contracts';
import type { RetryHint } from './retry';

/**
 * How a request failed, for telling a provider that fails the same way every time (issue #17):
 * `network` no HTTP answer could be read (refused, dropped, or blocked by CORS in a browser);
 * `timeout` no complete reply in time; `status` a non-2xx answer; `reply` a 2xx answer that is
 * not a usable reply (empty, HTML, malformed, cut).
 */
export type FailureKind = 'network' | 'timeout' | 'status' | 'reply';

/** A request failed: `retryable` tells the retry loop whether to try again. */
export class ProviderError extends AnswerUnavailableError implements RetryHint {
  readonly kind: FailureKind;
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
    kind?: FailureKind,
  ) {
    super(message);
    this.name = 'ProviderError';
    this.kind = kind ?? (status === undefined ? 'network' : status >= 300 ? 'status' : 'reply');
  }
}

/**
 * The class of a failed request, for counting the same failure repeated: "network", "HTTP 404",
 * "reply"; null for failures that say nothing about the settings (rate limits, slow answers, aborts).
 */
export function failureClass(error: unknown): string | null {
  if (!(error instanceof ProviderError)) return null;
  if (error.kind === 'timeout' || error.status === 429) return null;
  return error.kind === 'status' ? `HTTP ${error.status}` : error.kind;
}

/** Removes the key from any text that may reach a log, a result or an out file (servers echo keys). */
export function redact(text: string, apiKey: string | undefined): string {
  if (!apiKey || apiKey.length < 4) return text;
  return text.split(apiKey).join('[key]');
}

/** A short, one-line excerpt of a body for an error message. */
export function excerpt(body: string, max = 300): string {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length > max ? line.slice(0, max) + '…' : line;
}

/** The message inside the usual error bodies: `{error: {message}}` (OpenAI, Anthropic, Gemini) or `{message}`. */
export function errorMessageOf(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const obj = json as { error?: unknown; message?: unknown };
  if (typeof obj.error === 'string') return obj.error;
  if (typeof obj.error === 'object' && obj.error !== null) {
    const inner = obj.error as { message?: unknown; type?: unknown; status?: unknown };
    if (typeof inner.message === 'string') return inner.message;
    if (typeof inner.type === 'string') return inner.type;
  }
  return typeof obj.message === 'string' ? obj.message : undefined;
}
