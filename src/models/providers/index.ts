/**
 * Real model providers behind the `AnswerSource` interface (src/contracts): OpenAI-compatible chat completions,
 * Anthropic Messages and Gemini generateContent, streaming or not, with retries.
 *
 * Plain `fetch`, not the official OpenAI/Anthropic SDKs: the SDKs add `x-stainless-*` headers to
 * every request, and several OpenAI-compatible servers (and their CORS preflights) reject unknown
 * headers from a browser page. With fetch, exactly the headers below are sent, in the page and in Node.
 */
import { AnswerUnavailableError, type AnswerContext, type AnswerSource, type ModelAnswer, type PriorTurn, type Problem } from '../../contracts';
import { cutCompletion } from '../../core/prompt';
import { anthropicFormat } from './anthropic';
import { ProviderError } from './errors';
import { geminiFormat } from './gemini';
import { attempt, readJson, send, type Call } from './http';
import { openaiFormat } from './openai';
import { withRetries, type RetryInfo } from './retry';
import { isEventStream, readEvents } from './sse';
import type { ModelInfo, ProviderKind, ProviderSettings, Reply, WireFormat } from './types';

export type { ModelInfo, ProviderKind, ProviderSettings } from './types';
export { DEFAULT_BASE_URLS, PRESETS, findPreset, presetPrices, type Prices, type ProviderPreset } from './presets';
export { failureClass, ProviderError } from './errors';

export const FORMATS: Record<ProviderKind, WireFormat> = { openai: openaiFormat, anthropic: anthropicFormat, gemini: geminiFormat };

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
const MAX_MODEL_PAGES = 20;

export interface ProviderHooks {
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
  /** A try failed and another follows after `delayMs`. */
  onRetry?: (info: RetryInfo, problem?: Problem) => void;
}

/** `openai (api.groq.com)`: how messages name the provider. */
export function providerLabel(settings: Pick<ProviderSettings, 'kind' | 'baseUrl'>): string {
  let host = settings.baseUrl;
  try {
    host = new URL(settings.baseUrl).host;
  } catch { /* shown as given */ }
  return `${settings.kind} (${host})`;
}

/** A setting that cannot work (a base URL that is not an http(s) URL). */
export class ProviderSettingsError extends Error {}

/** Checks the base URL and drops trailing slashes, so paths join cleanly. */
function normalized(settings: ProviderSettings): ProviderSettings {
  let url: URL;
  try {
    url = new URL(settings.baseUrl);
  } catch {
    throw new ProviderSettingsError(`the base URL is not a URL: "${settings.baseUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ProviderSettingsError(`the base URL must be http or https: "${settings.baseUrl}"`);
  return { ...settings, baseUrl: settings.baseUrl.replace(/\/+$/, '') };
}

function callFor(settings: ProviderSettings, hooks: ProviderHooks, signal?: AbortSignal): Call {
  return {
    provider: providerLabel(settings),
    apiKey: settings.apiKey,
    fetch: hooks.fetch ?? ((input, init) => fetch(input, init)),
    timeoutMs: settings.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS,
    signal,
  };
}

/** One try: POST, then the stream or the JSON body, then the empty-reply check. */
function askOnce(format: WireFormat, settings: ProviderSettings, question: string, history: readonly PriorTurn[], call: Call): Promise<Reply> {
  return attempt(call, async (signal, progress) => {
    const { url, body } = format.request(settings, question, history);
    const headers = { 'content-type': 'application/json', ...format.headers(settings) };
    const response = await send(call, url, { method: 'POST', headers, body: JSON.stringify(body), signal }, progress);
    let reply: Reply;
    if (settings.stream && response.body && isEventStream(response)) {
      const collector = format.collector();
      await readEvents(response.body, (m) => collector.event(m));
      reply = collector.finish();
    } else {
      reply = format.parse(await readJson(call, response));
    }
    // An empty answer cut by the token limit is the model's (it scores as a failure); any other
    // empty reply is the service's, and worth another try.
    // A completion may legitimately be empty (the base model wrote the stop string at once).
    if (reply.text.trim() === '' && !reply.hitTokenLimit && !settings.completion) {
      throw new ProviderError(`${call.provider}: empty reply (HTTP ${response.status}, finish reason ${reply.finishReason ?? 'none'})`, response.status, true);
    }
    return reply;
  });
}

/** A Model that asks the provider; failures after the retries reject (the engine scores INFRA_ERROR). */
export function createProviderModel(input: ProviderSettings, hooks: ProviderHooks = {}): AnswerSource {
  const settings = normalized(input);
  const format = FORMATS[settings.kind];
  if (settings.completion && settings.kind !== 'openai') throw new ProviderSettingsError(`completion mode needs an OpenAI-compatible /completions endpoint, not ${settings.kind}`);
  return {
    id: settings.id ?? `${settings.kind}:${settings.model}`,
    async answer(problem: Problem, signal?: AbortSignal, context?: AnswerContext): Promise<ModelAnswer> {
      const history = context?.history ?? [];
      if (settings.completion && history.length) throw new AnswerUnavailableError('completion mode has no conversation: refinement turns need chat mode');
      const call = callFor(settings, hooks, signal);
      const reply = await withRetries(() => askOnce(format, settings, problem.record.question, history, call), {
        ...settings.retry,
        signal,
        onRetry: (info) => hooks.onRetry?.(info, problem),
      });
      return {
        text: settings.completion ? cutCompletion(reply.text) : reply.text,
        ...(reply.usage ? { usage: reply.usage } : {}),
        ...(reply.reasoning ? { reasoning: reply.reasoning } : {}),
      };
    },
  };
}

/** The provider's model list ("List models"), following pages. */
export async function listModels(input: ProviderSettings, hooks: ProviderHooks = {}, signal?: AbortSignal): Promise<ModelInfo[]> {
  const settings = normalized(input);
  const format = FORMATS[settings.kind];
  const call = callFor(settings, hooks, signal);
  const models: ModelInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_MODEL_PAGES; page++) {
    const json = await withRetries(() => attempt(call, async (s, progress) => {
      const response = await send(call, format.modelsUrl(settings, cursor), { headers: format.headers(settings), signal: s }, progress);
      return readJson(call, response);
    }), { ...settings.retry, signal });
    const result = format.parseModels(json);
    models.push(...result.models);
    if (!result.cursor || result.cursor === cursor) break;
    cursor = result.cursor;
  }
  return models.sort((a, b) => a.id.localeCompare(b.id));
}
