/** SSE reading (eventsource-parser over a fetch body) and each wire format's stream collector. */
import { describe, expect, it } from 'vitest';
import type { EventSourceMessage } from 'eventsource-parser';
import { anthropicFormat } from '../../src/models/providers/anthropic';
import { geminiFormat } from '../../src/models/providers/gemini';
import { openaiFormat } from '../../src/models/providers/openai';
import { readEvents } from '../../src/models/providers/sse';
import { ReplyShapeError } from '../../src/models/providers/types';
import { redact } from '../../src/models/providers/errors';

/** A body delivering `pieces` as separate chunks; records whether the reader cancelled it. */
function body(pieces: string[]): { stream: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  let cancelled = false;
  const bytes = pieces.map((p) => new TextEncoder().encode(p));
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < bytes.length) controller.enqueue(bytes[i++]!);
      else controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled };
}

async function events(pieces: string[]): Promise<EventSourceMessage[]> {
  const out: EventSourceMessage[] = [];
  await readEvents(body(pieces).stream, (m) => (out.push(m), false));
  return out;
}

const sse = (events: Array<{ event?: string; data: unknown }>) =>
  events.map((e) => `${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`).join('');

/** Runs a collector over SSE text cut into 7-character chunks (events split mid-line). */
async function collect(format: { collector(): { event(m: EventSourceMessage): boolean; finish(): unknown } }, text: string) {
  const c = format.collector();
  const pieces = text.match(/[\s\S]{1,7}/g) ?? [];
  await readEvents(body(pieces).stream, (m) => c.event(m));
  return c.finish();
}

describe('readEvents', () => {
  it('parses events split anywhere, CRLF line ends, comments and multi-line data', async () => {
    const got = await events(['data: {"a"', ':1}\n', '\nevent: x\r\ndata: one\r\ndata: two\r\n\r\n', ': ping\n\n', 'data: last\n\n']);
    expect(got.map((e) => [e.event, e.data])).toEqual([[undefined, '{"a":1}'], ['x', 'one\ntwo'], [undefined, 'last']]);
  });

  it('keeps multi-byte characters split across chunks intact', async () => {
    const bytes = new TextEncoder().encode('data: héllo ✓\n\n');
    const pieces = [bytes.slice(0, 9), bytes.slice(9, 15), bytes.slice(15)];
    let i = 0;
    const stream = new ReadableStream<Uint8Array>({ pull: (c) => (i < pieces.length ? c.enqueue(pieces[i++]!) : c.close()) });
    const out: string[] = [];
    await readEvents(stream, (m) => (out.push(m.data), false));
    expect(out).toEqual(['héllo ✓']);
  });

  it('drops an event cut off by the end of the body', async () => {
    expect((await events(['data: whole\n\n', 'data: cut'])).map((e) => e.data)).toEqual(['whole']);
  });

  it('stops reading and cancels the body once the handler says the stream is complete', async () => {
    const b = body(['data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n']);
    const seen: string[] = [];
    await readEvents(b.stream, (m) => (seen.push(m.data), m.data === '2'));
    expect(seen).toEqual(['1', '2']);
    expect(b.cancelled()).toBe(true);
  });
});

describe('OpenAI-compatible stream', () => {
  const chunk = (delta: object, finish: string | null = null) => ({ data: { choices: [{ index: 0, delta, finish_reason: finish }] } });
  const usage = { data: { choices: [], usage: { prompt_tokens: 10, completion_tokens: 20, completion_tokens_details: { reasoning_tokens: 12 } } } };

  it('adds up the content, reasoning (reasoning_content or reasoning) and the usage chunk', async () => {
    const text = sse([chunk({ role: 'assistant', content: '' }), chunk({ reasoning_content: 'think ' }), chunk({ reasoning: 'more' }),
      chunk({ content: '```py\n' }), chunk({ content: 'x = 1\n```' }), chunk({}, 'stop'), usage, { data: '[DONE]' }]);
    expect(await collect(openaiFormat, text)).toEqual({
      text: '```py\nx = 1\n```', reasoning: 'think more', finishReason: 'stop', hitTokenLimit: false,
      usage: { inputTokens: 10, outputTokens: 20, reasoningTokens: 12 },
    });
  });

  it('accepts a stream with a finish reason but no [DONE]; refuses one with neither', async () => {
    await expect(collect(openaiFormat, sse([chunk({ content: 'a' }), chunk({}, 'length')]))).resolves.toMatchObject({ text: 'a', hitTokenLimit: true });
    await expect(collect(openaiFormat, sse([chunk({ content: 'a' })]))).rejects.toThrow(/ended before the reply was complete/);
  });

  it('reports an error object in the stream and broken JSON as clear errors', async () => {
    await expect(collect(openaiFormat, sse([{ data: { error: { message: 'upstream overloaded' } } }]))).rejects.toThrow('upstream overloaded');
    await expect(collect(openaiFormat, 'data: {"choices": [\n\n')).rejects.toThrow(ReplyShapeError);
  });
});

describe('Anthropic stream', () => {
  const ev = (data: { type: string } & Record<string, unknown>) => ({ event: data.type, data });
  const start = ev({ type: 'message_start', message: { usage: { input_tokens: 30, cache_read_input_tokens: 5, output_tokens: 1 } } });

  it('separates thinking from text and reads usage from message_start and message_delta', async () => {
    const text = sse([start, ev({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }), ev({ type: 'ping' }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'x' } }),
      ev({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'answer' } }),
      ev({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 42 } }), ev({ type: 'message_stop' })]);
    expect(await collect(anthropicFormat, text)).toEqual({
      text: 'answer', reasoning: 'hmm', finishReason: 'end_turn', hitTokenLimit: false, usage: { inputTokens: 35, outputTokens: 42 },
    });
  });

  it('needs message_stop, and turns an error event into a retryable error for overload only', async () => {
    await expect(collect(anthropicFormat, sse([start]))).rejects.toThrow(/before message_stop/);
    const overloaded = await collect(anthropicFormat, sse([start, ev({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })])).catch((e: ReplyShapeError) => e);
    expect(overloaded).toMatchObject({ retryable: true, message: expect.stringContaining('Overloaded') });
    const invalid = await collect(anthropicFormat, sse([ev({ type: 'error', error: { type: 'invalid_request_error', message: 'bad' } })])).catch((e: ReplyShapeError) => e);
    expect(invalid).toMatchObject({ retryable: false });
  });
});

describe('Gemini stream', () => {
  it('separates thought parts, counts thoughts as output, and needs a finish reason', async () => {
    const text = sse([
      { data: { candidates: [{ content: { parts: [{ text: 'plan', thought: true }] } }] } },
      { data: { candidates: [{ content: { parts: [{ text: 'code' }] } }] } },
      { data: { candidates: [{ content: { parts: [{ text: '!' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 3, thoughtsTokenCount: 9 } } },
    ]);
    expect(await collect(geminiFormat, text)).toEqual({
      text: 'code!', reasoning: 'plan', finishReason: 'STOP', hitTokenLimit: false, usage: { inputTokens: 7, outputTokens: 12, reasoningTokens: 9 },
    });
    await expect(collect(geminiFormat, sse([{ data: { candidates: [{ content: { parts: [{ text: 'a' }] } }] } }]))).rejects.toThrow(/before a finish reason/);
  });

  it('a blocked prompt is a clear error that is not retried', async () => {
    const e = await collect(geminiFormat, sse([{ data: { promptFeedback: { blockReason: 'SAFETY' } } }])).catch((x: ReplyShapeError) => x);
    expect(e).toMatchObject({ retryable: false, message: expect.stringContaining('SAFETY') });
  });
});

describe('non-streaming replies', () => {
  it('OpenAI: content, DeepSeek reasoning_content, reasoning tokens', () => {
    expect(openaiFormat.parse({ choices: [{ message: { content: 'hi', reasoning_content: 'why' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 2, completion_tokens_details: { reasoning_tokens: 1 } } }))
      .toEqual({ text: 'hi', reasoning: 'why', finishReason: 'stop', hitTokenLimit: false, usage: { inputTokens: 1, outputTokens: 2, reasoningTokens: 1 } });
    expect(() => openaiFormat.parse({ object: 'list' })).toThrow(/no "choices"/);
  });

  it('Anthropic: text and thinking blocks', () => {
    expect(anthropicFormat.parse({ content: [{ type: 'thinking', thinking: 't' }, { type: 'text', text: 'a' }], stop_reason: 'max_tokens', usage: { input_tokens: 3, output_tokens: 4 } }))
      .toEqual({ text: 'a', reasoning: 't', finishReason: 'max_tokens', hitTokenLimit: true, usage: { inputTokens: 3, outputTokens: 4 } });
  });

  it('the key goes in headers only; requests carry the official system prompt by default', () => {
    const settings = { kind: 'gemini' as const, baseUrl: 'https://example.test/v1beta', apiKey: 'secret-key', model: 'gemini-x' };
    const { url, body } = geminiFormat.request(settings, 'Q?');
    expect(url).toBe('https://example.test/v1beta/models/gemini-x:generateContent');
    expect(url).not.toContain('secret-key');
    expect(geminiFormat.headers(settings)).toEqual({ 'x-goog-api-key': 'secret-key' });
    expect(JSON.stringify(body)).toContain('You are an expert programmer.');
    expect(body).toMatchObject({ generationConfig: { maxOutputTokens: 8192 } });
  });

  it('redacts the key from any message', () => {
    expect(redact('Incorrect API key provided: sk-live-123456', 'sk-live-123456')).toBe('Incorrect API key provided: [key]');
  });
});
