/** OpenAI-compatible chat completions (OpenAI, OpenRouter, DeepSeek, Groq, Together, Mistral, vLLM, Ollama, LM Studio). */
import { errorMessageOf } from './errors';
import { arr, eventJson, joined, num, obj, str, type Json } from './shape';
import { ReplyShapeError, type ProviderSettings, type Reply, type StreamCollector, type WireFormat } from './types';
import { DEFAULT_MAX_TOKENS, messagesFor, priorMessages } from './request';
import { buildCompletionPrompt, COMPLETION_STOP, SYSTEM_PROMPT } from '../../core/prompt';
import type { TokenUsage } from '../../contracts';

function usageOf(u: unknown): TokenUsage | undefined {
  const usage = obj(u);
  const input = num(usage.prompt_tokens);
  const output = num(usage.completion_tokens);
  if (input === undefined && output === undefined) return undefined;
  const reasoning = num(obj(usage.completion_tokens_details).reasoning_tokens);
  return { inputTokens: input ?? 0, outputTokens: output ?? 0, ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}) };
}

/** Content is a string, or (Mistral's reasoning models) a list of text and thinking parts. */
function splitContent(content: unknown, text: string[], reasoning: string[]): void {
  if (typeof content === 'string') text.push(content);
  for (const part of arr(content)) {
    const p = obj(part);
    if (p.type === 'text' && typeof p.text === 'string') text.push(p.text);
    if (p.type === 'thinking') for (const t of arr(p.thinking)) if (typeof obj(t).text === 'string') reasoning.push(obj(t).text as string);
  }
}

/** DeepSeek and vLLM send `reasoning_content`, OpenRouter `reasoning`. */
function reasoningOf(message: Json): string | undefined {
  return str(message.reasoning_content) ?? str(message.reasoning);
}

function failIfError(json: Json): void {
  // OpenRouter and some proxies report upstream failures inside a 200 body.
  if (json.error !== undefined) throw new ReplyShapeError(`error in the reply: ${errorMessageOf(json) ?? JSON.stringify(json.error).slice(0, 200)}`);
}

export const openaiFormat: WireFormat = {
  kind: 'openai',
  headers(s): Record<string, string> {
    return s.apiKey ? { authorization: `Bearer ${s.apiKey}` } : {};
  },
  request(s: ProviderSettings, question: string, history) {
    let body: Json;
    if (s.completion) {
      // Completion mode (SPEC §2): one plain prompt, cut at the stop string.
      body = {
        model: s.model,
        prompt: buildCompletionPrompt(question, s.systemPrompt ?? SYSTEM_PROMPT),
        max_tokens: s.maxTokens ?? DEFAULT_MAX_TOKENS,
        stop: [COMPLETION_STOP],
      };
    } else {
      const { system, user } = messagesFor(s, question);
      body = {
        model: s.model,
        messages: [...(system ? [{ role: 'system', content: system }] : []), { role: 'user', content: user }, ...priorMessages(history)],
        [s.maxTokensField ?? 'max_tokens']: s.maxTokens ?? DEFAULT_MAX_TOKENS,
      };
    }
    if (s.temperature !== undefined) body.temperature = s.temperature;
    if (s.topP !== undefined) body.top_p = s.topP;
    if (s.stream) {
      body.stream = true;
      if (s.streamUsage !== false) body.stream_options = { include_usage: true };
    }
    return { url: `${s.baseUrl}/${s.completion ? 'completions' : 'chat/completions'}`, body };
  },
  parse(json) {
    const reply = obj(json);
    failIfError(reply);
    if (!arr(reply.choices).length) throw new ReplyShapeError('no "choices" in the reply');
    const choice = obj(arr(reply.choices)[0]);
    const message = obj(choice.message);
    const text: string[] = [];
    const reasoning: string[] = [];
    splitContent(message.content, text, reasoning);
    // Text completions (/completions) carry `text` instead of a message.
    if (typeof choice.text === 'string') text.push(choice.text);
    const finishReason = str(choice.finish_reason);
    return {
      text: text.join(''),
      reasoning: reasoningOf(message) ?? joined(reasoning),
      usage: usageOf(reply.usage),
      finishReason,
      hitTokenLimit: finishReason === 'length',
    };
  },
  collector(): StreamCollector {
    const text: string[] = [];
    const reasoning: string[] = [];
    let finishReason: string | undefined;
    let usage: TokenUsage | undefined;
    let doneMarker = false;
    return {
      event(message) {
        if (message.data.trim() === '[DONE]') return (doneMarker = true);
        const chunk = eventJson(message.data);
        failIfError(chunk);
        usage = usageOf(chunk.usage) ?? usage;
        for (const c of arr(chunk.choices)) {
          const choice = obj(c);
          const delta = obj(choice.delta);
          splitContent(delta.content, text, reasoning);
          if (typeof choice.text === 'string') text.push(choice.text);
          const r = reasoningOf(delta);
          if (r) reasoning.push(r);
          finishReason = str(choice.finish_reason) ?? finishReason;
        }
        return false;
      },
      finish(): Reply {
        // `[DONE]` ends a complete stream; a few servers omit it but always send a finish reason.
        if (!doneMarker && !finishReason) throw new ReplyShapeError('the stream ended before the reply was complete');
        return { text: text.join(''), reasoning: joined(reasoning), usage, finishReason, hitTokenLimit: finishReason === 'length' };
      },
    };
  },
  modelsUrl(s) {
    return `${s.baseUrl}/models`;
  },
  parseModels(json) {
    // OpenAI and most servers: {data: [...]}; Together: a bare array.
    const list = Array.isArray(json) ? json : arr(obj(json).data);
    return {
      models: list.map(obj).filter((m) => typeof m.id === 'string').map((m) => ({ id: m.id as string, ...(str(m.name) ? { name: str(m.name) } : {}) })),
    };
  },
};
