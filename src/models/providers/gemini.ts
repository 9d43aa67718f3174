/** Google Gemini's native generateContent API (the key travels in `x-goog-api-key`, never in the URL). */
import { errorMessageOf } from './errors';
import { arr, eventJson, joined, num, obj, str, type Json } from './shape';
import { ReplyShapeError, type ProviderSettings, type Reply, type StreamCollector, type WireFormat } from './types';
import { DEFAULT_MAX_TOKENS, messagesFor, priorMessages } from './request';
import type { TokenUsage } from '../../contracts';

/** `gemini-2.5-flash` → `models/gemini-2.5-flash`; full resource names stay as they are. */
function resourceName(model: string): string {
  return /^(models|tunedModels)\//.test(model) ? model : `models/${model}`;
}

function usageOf(u: unknown): TokenUsage | undefined {
  const usage = obj(u);
  const input = num(usage.promptTokenCount);
  const answer = num(usage.candidatesTokenCount);
  const thoughts = num(usage.thoughtsTokenCount);
  if (input === undefined && answer === undefined && thoughts === undefined) return undefined;
  // candidatesTokenCount excludes thinking; output (what is billed) is both.
  return { inputTokens: input ?? 0, outputTokens: (answer ?? 0) + (thoughts ?? 0), ...(thoughts !== undefined ? { reasoningTokens: thoughts } : {}) };
}

/** Adds one response (whole, or one stream chunk) to the text, reasoning and finish reason so far. */
function absorb(chunk: Json, text: string[], reasoning: string[]): string | undefined {
  if (chunk.error !== undefined) throw new ReplyShapeError(`error in the reply: ${errorMessageOf(chunk) ?? ''}`);
  const candidate = obj(arr(chunk.candidates)[0]);
  for (const p of arr(obj(candidate.content).parts)) {
    const part = obj(p);
    if (typeof part.text !== 'string') continue;
    (part.thought === true ? reasoning : text).push(part.text);
  }
  return str(candidate.finishReason);
}

function blocked(chunk: Json): ReplyShapeError | undefined {
  const reason = str(obj(chunk.promptFeedback).blockReason);
  // A blocked prompt is blocked again on every retry.
  return reason && !arr(chunk.candidates).length ? new ReplyShapeError(`the prompt was blocked (${reason})`, false) : undefined;
}

export const geminiFormat: WireFormat = {
  kind: 'gemini',
  headers(s): Record<string, string> {
    return s.apiKey ? { 'x-goog-api-key': s.apiKey } : {};
  },
  request(s: ProviderSettings, question: string, history) {
    const { system, user } = messagesFor(s, question);
    const generationConfig: Json = { maxOutputTokens: s.maxTokens ?? DEFAULT_MAX_TOKENS };
    if (s.temperature !== undefined) generationConfig.temperature = s.temperature;
    if (s.topP !== undefined) generationConfig.topP = s.topP;
    const body = {
      ...(system ? { systemInstruction: { parts: [{ text: system }] } } : {}),
      contents: [
        { role: 'user', parts: [{ text: user }] },
        ...priorMessages(history).map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: [{ text: m.content }] })),
      ],
      generationConfig,
    };
    const method = s.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    return { url: `${s.baseUrl}/${resourceName(s.model)}:${method}`, body };
  },
  parse(json) {
    const reply = obj(json);
    const block = blocked(reply);
    if (block) throw block;
    if (reply.error === undefined && !Array.isArray(reply.candidates)) throw new ReplyShapeError('no "candidates" in the reply');
    const text: string[] = [];
    const reasoning: string[] = [];
    const finishReason = absorb(reply, text, reasoning);
    return { text: text.join(''), reasoning: joined(reasoning), usage: usageOf(reply.usageMetadata), finishReason, hitTokenLimit: finishReason === 'MAX_TOKENS' };
  },
  collector(): StreamCollector {
    const text: string[] = [];
    const reasoning: string[] = [];
    let finishReason: string | undefined;
    let usage: TokenUsage | undefined;
    return {
      event(message) {
        const chunk = eventJson(message.data);
        const block = blocked(chunk);
        if (block) throw block;
        finishReason = absorb(chunk, text, reasoning) ?? finishReason;
        usage = usageOf(chunk.usageMetadata) ?? usage;
        // Usage may follow in the chunk after the finish reason: read to the end of the body.
        return false;
      },
      finish(): Reply {
        if (!finishReason) throw new ReplyShapeError('the stream ended before a finish reason');
        return { text: text.join(''), reasoning: joined(reasoning), usage, finishReason, hitTokenLimit: finishReason === 'MAX_TOKENS' };
      },
    };
  },
  modelsUrl(s, cursor) {
    return `${s.baseUrl}/models?pageSize=1000${cursor ? `&pageToken=${encodeURIComponent(cursor)}` : ''}`;
  },
  parseModels(json) {
    const page = obj(json);
    const models = arr(page.models).map(obj)
      .filter((m) => typeof m.name === 'string' && (!Array.isArray(m.supportedGenerationMethods) || m.supportedGenerationMethods.includes('generateContent')))
      .map((m) => ({ id: (m.name as string).replace(/^models\//, ''), ...(str(m.displayName) ? { name: str(m.displayName) } : {}) }));
    return { models, cursor: str(page.nextPageToken) || undefined };
  },
};
