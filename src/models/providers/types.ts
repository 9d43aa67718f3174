/** Shapes shared by the provider modules: settings, wire formats, replies. */
import type { EventSourceMessage } from 'eventsource-parser';
import type { PriorTurn, TokenUsage } from '../../contracts';
import type { RetryOptions } from './retry';

/** The three wire formats. Every OpenAI-compatible server (OpenRouter, vLLM, Ollama, …) is `openai`. */
export type ProviderKind = 'openai' | 'anthropic' | 'gemini';

export interface ProviderSettings {
  kind: ProviderKind;
  /** Including the API version, e.g. https://api.openai.com/v1 (see DEFAULT_BASE_URLS). */
  baseUrl: string;
  /** Sent only to `baseUrl`, only in a header; optional for local servers. */
  apiKey?: string;
  model: string;
  /** Id in reports; default `<kind>:<model>`. */
  id?: string;
  /** Omitted from the request when unset (the provider's default applies). */
  temperature?: number;
  topP?: number;
  /** Default 8,192 (the official limit, SPEC §2). */
  maxTokens?: number;
  /** Default: the official system prompt. An empty string sends no system prompt. */
  systemPrompt?: string;
  stream?: boolean;
  /** OpenAI-compatible: OpenAI's reasoning models accept only `max_completion_tokens`. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** OpenAI-compatible streaming: ask for usage in the last chunk (`stream_options`); default true. */
  streamUsage?: boolean;
  /** Anthropic `anthropic-version` header; default 2023-06-01. */
  anthropicVersion?: string;
  /**
   * Completion mode (AutoCodeBench-Complete, OpenAI-compatible servers only): POST /completions
   * with the plain prompt and the stop string; the answer is cut as the official script does.
   */
  completion?: boolean;
  /** One try (request and whole reply) must finish within this; default 10 minutes. */
  requestTimeoutMs?: number;
  retry?: RetryOptions;
}

/** What one successful request produced, before it becomes a ModelAnswer. */
export interface Reply {
  text: string;
  reasoning?: string;
  usage?: TokenUsage;
  /** The provider's stop reason as given (`stop`, `length`, `end_turn`, `MAX_TOKENS`, …). */
  finishReason?: string;
  /** The reply stopped at the token limit. */
  hitTokenLimit: boolean;
}

/** Builds what a stream adds up to; `event` returns true once the stream is complete. */
export interface StreamCollector {
  event(message: EventSourceMessage): boolean;
  /** The reply so far; throws ReplyShapeError if the stream ended before it was complete. */
  finish(): Reply;
}

export interface ModelInfo {
  id: string;
  name?: string;
}

/** One provider's wire format: pure functions from settings to requests and from bodies to replies. */
export interface WireFormat {
  kind: ProviderKind;
  /** The key goes in a header, never in the URL. */
  headers(settings: ProviderSettings): Record<string, string>;
  /** `history`: earlier turns of a refinement conversation, sent after the question. */
  request(settings: ProviderSettings, question: string, history?: readonly PriorTurn[]): { url: string; body: unknown };
  parse(json: unknown): Reply;
  collector(): StreamCollector;
  modelsUrl(settings: ProviderSettings, cursor?: string): string;
  parseModels(json: unknown): { models: ModelInfo[]; cursor?: string };
}

/** The body was readable but not what the format promises (error object, missing fields, cut stream). */
export class ReplyShapeError extends Error {
  constructor(message: string, readonly retryable = true) {
    super(message);
    this.name = 'ReplyShapeError';
  }
}
