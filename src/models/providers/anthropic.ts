/** Anthropic Messages API. */
import { errorMessageOf } from './errors';
import { arr, eventJson, joined, num, obj, str, type Json } from './shape';
import { ReplyShapeError, type ProviderSettings, type Reply, type StreamCollector, type WireFormat } from './types';
import { DEFAULT_MAX_TOKENS, messagesFor, priorMessages } from './request';
import type { TokenUsage } from '../../contracts';

export const DEFAULT_ANTHROPIC_VERSION = '2023-06-01';

/** Cached prompt tokens are still prompt tokens; Anthropic reports them apart. */
function inputTokensOf(usage: Json): number | undefined {
  const parts = [usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens].map(num);
  return parts.some((p) => p !== undefined) ? parts.reduce<number>((a, p) => a + (p ?? 0), 0) : undefined;
}

function usageOf(u: unknown): TokenUsage | undefined {
  const usage = obj(u);
  const input = inputTokensOf(usage);
  const output = num(usage.output_tokens);
  // Thinking tokens are billed inside output_tokens; the API does not count them apart.
  return input === undefined && output === undefined ? undefined : { inputTokens: input ?? 0, outputTokens: output ?? 0 };
}

/** Overloaded and internal errors may pass; the others (invalid request, …) will not. */
function streamError(data: Json): ReplyShapeError {
  const type = str(obj(data.error).type) ?? 'error';
  return new ReplyShapeError(`${type} in the stream: ${errorMessageOf(data) ?? ''}`.trim(), type === 'overloaded_error' || type === 'api_error');
}

export const anthropicFormat: WireFormat = {
  kind: 'anthropic',
  headers(s) {
    return {
      ...(s.apiKey ? { 'x-api-key': s.apiKey } : {}),
      'anthropic-version': s.anthropicVersion ?? DEFAULT_ANTHROPIC_VERSION,
      // Without it Anthropic refuses calls made from a browser page (CORS).
      'anthropic-dangerous-direct-browser-access': 'true',
    };
  },
  request(s: ProviderSettings, question: string, history) {
    const { system, user } = messagesFor(s, question);
    const body: Json = {
      model: s.model,
      max_tokens: s.maxTokens ?? DEFAULT_MAX_TOKENS,
      ...(system ? { system } : {}),
      messages: [{ role: 'user', content: user }, ...priorMessages(history)],
    };
    if (s.temperature !== undefined) body.temperature = s.temperature;
    if (s.topP !== undefined) body.top_p = s.topP;
    if (s.stream) body.stream = true;
    return { url: `${s.baseUrl}/messages`, body };
  },
  parse(json) {
    const reply = obj(json);
    if (reply.type === 'error') throw streamError(reply);
    if (!Array.isArray(reply.content)) throw new ReplyShapeError('no "content" in the reply');
    const text: string[] = [];
    const reasoning: string[] = [];
    for (const b of arr(reply.content)) {
      const block = obj(b);
      if (block.type === 'text' && typeof block.text === 'string') text.push(block.text);
      if (block.type === 'thinking' && typeof block.thinking === 'string') reasoning.push(block.thinking);
    }
    const finishReason = str(reply.stop_reason);
    return { text: text.join(''), reasoning: joined(reasoning), usage: usageOf(reply.usage), finishReason, hitTokenLimit: finishReason === 'max_tokens' };
  },
  collector(): StreamCollector {
    const text: string[] = [];
    const reasoning: string[] = [];
    let input: number | undefined;
    let output: number | undefined;
    let finishReason: string | undefined;
    let stopped = false;
    return {
      event(message) {
        const data = eventJson(message.data);
        switch (data.type) {
          case 'message_start': {
            const usage = obj(obj(data.message).usage);
            input = inputTokensOf(usage);
            output = num(usage.output_tokens);
            break;
          }
          case 'content_block_delta': {
            const delta = obj(data.delta);
            if (delta.type === 'text_delta' && typeof delta.text === 'string') text.push(delta.text);
            if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string') reasoning.push(delta.thinking);
            break;
          }
          case 'message_delta': {
            finishReason = str(obj(data.delta).stop_reason) ?? finishReason;
            // output_tokens here is the running total for the message.
            const usage = obj(data.usage);
            output = num(usage.output_tokens) ?? output;
            input = inputTokensOf(usage) ?? input;
            break;
          }
          case 'message_stop':
            stopped = true;
            return true;
          case 'error':
            throw streamError(data);
        }
        return false;
      },
      finish(): Reply {
        if (!stopped) throw new ReplyShapeError('the stream ended before message_stop');
        const usage = input === undefined && output === undefined ? undefined : { inputTokens: input ?? 0, outputTokens: output ?? 0 };
        return { text: text.join(''), reasoning: joined(reasoning), usage, finishReason, hitTokenLimit: finishReason === 'max_tokens' };
      },
    };
  },
  modelsUrl(s, cursor) {
    return `${s.baseUrl}/models?limit=1000${cursor ? `&after_id=${encodeURIComponent(cursor)}` : ''}`;
  },
  parseModels(json) {
    const page = obj(json);
    const models = arr(page.data).map(obj).filter((m) => typeof m.id === 'string')
      .map((m) => ({ id: m.id as string, ...(str(m.display_name) ? { name: str(m.display_name) } : {}) }));
    return { models, cursor: page.has_more === true ? str(page.last_id) : undefined };
  },
};
