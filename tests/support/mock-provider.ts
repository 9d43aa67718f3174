/**
 * A real local HTTP server (127.0.0.1 only) that speaks the three wire formats benchtop uses:
 * OpenAI-compatible chat completions, Anthropic Messages and Gemini generateContent, streaming
 * and not. It answers each request with the recorded demo answer of the demo problem whose
 * question is in the user message, records every request (headers included), counts requests
 * per problem, and injects faults on demand: an HTTP status (429 with retry-after, 500, 529, …),
 * slow replies, malformed JSON, HTML pages, empty replies, cut streams and dropped connections.
 *
 * A conversation with earlier turns (refinement: assistant answers and feedback after the question)
 * is answered with the problem's reference solution in a fenced block, so a second turn passes.
 * Text completions (/openai/v1/completions, completion mode) find the problem in the prompt and
 * continue it with the recorded answer, then the stop string and more text (a base model runs
 * on), cut at the request's stop strings as real servers do (the `ignore-stop` fault does not cut).
 *
 * Answers CORS preflights (recorded with method OPTIONS), so a page on another origin can call it;
 * setCors(false) leaves the CORS headers off the answers, as a server not told the page's origin.
 * The page's "Test connection" question (src/app/lib/connection.ts) is answered "OK".
 * Routes: /openai/v1/{chat/completions,completions,models}, /anthropic/v1/{messages,models},
 * /gemini/v1beta/models[/<model>:generateContent|:streamGenerateContent?alt=sse], /data/demo.jsonl.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { problemId } from '../../src/core/ids';
import { CONNECTION_TEST_QUESTION } from '../../src/app/lib/connection';

export type Kind = 'openai' | 'anthropic' | 'gemini';

export type Fault =
  | { kind: 'status'; status: number; retryAfter?: string; retryAfterMs?: string; html?: boolean }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'malformed' }
  | { kind: 'html' }
  | { kind: 'empty' }
  /** Closes the socket before any response. */
  | { kind: 'drop' }
  /** Sends the headers and part of the body (some stream events), then closes the socket. */
  | { kind: 'drop-mid' }
  /** Streams only: ends the body cleanly but before the stream's end marker. */
  | { kind: 'truncate' }
  /** Text completions: the reply is not cut at the request's stop strings. */
  | { kind: 'ignore-stop' };

export interface FaultRule {
  /** A problem id, or '*' for every problem. */
  problem: string;
  fault: Fault;
  /** How many requests it affects (Infinity: all). */
  times: number;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  kind?: Kind;
  /** A text completion (/openai/v1/completions). */
  completion?: boolean;
  /** 1 + the model's earlier answers in the conversation. */
  turn?: number;
  problem?: string;
  stream: boolean;
  fault?: Fault['kind'];
}

export interface MockProvider {
  /** http://127.0.0.1:<port> */
  url: string;
  baseUrl(kind: Kind): string;
  requests: RecordedRequest[];
  /** Model requests (answers asked) for one problem, failed ones included. */
  countFor(problem: string): number;
  inject(rule: FaultRule): void;
  /**
   * Off: answers carry no CORS headers (preflights are still answered, so requests reach the
   * server and are counted, as with a real server that was not told the page's origin): a page
   * on another origin cannot read any answer. Back on after reset().
   */
  setCors(enabled: boolean): void;
  /** Forgets requests, counts and faults. */
  reset(): void;
  close(): Promise<void>;
}

interface DemoProblem {
  id: string;
  language: string;
  question: string;
  output: string;
  canonical: string;
}

function loadDemo(): DemoProblem[] {
  const records = readFileSync('bench-data/demo.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { language: string; question: string; canonical_solution: string });
  const answers = new Map(readFileSync('bench-data/demo-answers.jsonl', 'utf8').trim().split('\n')
    .map((l) => JSON.parse(l) as { id: string; output: string }).map((a) => [a.id, a.output]));
  return records.map((r) => {
    const id = problemId(r.language, r.question);
    return { id, language: r.language, question: r.question, output: answers.get(id)!, canonical: r.canonical_solution };
  });
}

const tokens = (text: string) => Math.ceil(text.length / 4);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Splits `<think>…</think>` reasoning off an answer. */
function splitThinking(output: string): { thinking?: string; answer: string } {
  const at = output.lastIndexOf('</think>');
  if (at === -1) return { answer: output };
  return { thinking: output.slice(0, at).replace(/^\s*<think>/, ''), answer: output.slice(at + '</think>'.length) };
}

function chunks(text: string, size = 40): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [''];
}

interface Reply {
  /** JSON body of a non-streaming reply. */
  json: unknown;
  /** Data of each SSE event of a streaming reply (with its event name for Anthropic). */
  events: Array<{ event?: string; data: string }>;
}

/** OpenAI-compatible: content as given (with <think>), reasoning tokens in completion_tokens_details. */
function openaiReply(output: string, input: number, empty: boolean): Reply {
  const content = empty ? '' : output;
  const { thinking } = splitThinking(output);
  const usage = { prompt_tokens: input, completion_tokens: tokens(content), total_tokens: input + tokens(content), completion_tokens_details: { reasoning_tokens: thinking ? tokens(thinking) : 0 } };
  const base = { id: 'chatcmpl-mock', object: 'chat.completion', created: 0, model: 'mock-coder' };
  return {
    json: { ...base, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage },
    events: [
      { data: JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }) },
      ...chunks(content).map((c) => ({ data: JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: c }, finish_reason: null }] }) })),
      { data: JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) },
      { data: JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage }) },
      { data: '[DONE]' },
    ],
  };
}

/** Text completions: `text` in each choice; the stream sends pieces of it. */
function completionReply(text: string, input: number): Reply {
  const usage = { prompt_tokens: input, completion_tokens: tokens(text), total_tokens: input + tokens(text) };
  const base = { id: 'cmpl-mock', object: 'text_completion', created: 0, model: 'mock-base' };
  return {
    json: { ...base, choices: [{ index: 0, text, logprobs: null, finish_reason: 'stop' }], usage },
    events: [
      ...chunks(text).map((c) => ({ data: JSON.stringify({ ...base, choices: [{ index: 0, text: c, logprobs: null, finish_reason: null }] }) })),
      { data: JSON.stringify({ ...base, choices: [{ index: 0, text: '', logprobs: null, finish_reason: 'stop' }] }) },
      { data: JSON.stringify({ ...base, choices: [], usage }) },
      { data: '[DONE]' },
    ],
  };
}

/** Anthropic: <think> reasoning becomes a thinking block, the rest a text block. */
function anthropicReply(output: string, input: number, empty: boolean): Reply {
  const { thinking, answer } = empty ? { thinking: undefined, answer: '' } : splitThinking(output);
  const blocks = [...(thinking ? [{ type: 'thinking', thinking, signature: 'mock' }] : []), { type: 'text', text: answer }];
  const outputTokens = tokens(answer) + (thinking ? tokens(thinking) : 0);
  const message = { id: 'msg_mock', type: 'message', role: 'assistant', model: 'mock-coder', stop_sequence: null };
  const ev = (data: Record<string, unknown>) => ({ event: data.type as string, data: JSON.stringify(data) });
  const events = [ev({ type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { input_tokens: input, output_tokens: 1 } } })];
  blocks.forEach((block, index) => {
    events.push(ev({ type: 'content_block_start', index, content_block: block.type === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '' } }));
    if (index === 0) events.push(ev({ type: 'ping' }));
    for (const c of chunks(block.type === 'text' ? (block.text as string) : (block.thinking as string))) {
      events.push(ev({ type: 'content_block_delta', index, delta: block.type === 'text' ? { type: 'text_delta', text: c } : { type: 'thinking_delta', thinking: c } }));
    }
    events.push(ev({ type: 'content_block_stop', index }));
  });
  events.push(ev({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: outputTokens } }));
  events.push(ev({ type: 'message_stop' }));
  return { json: { ...message, content: blocks, stop_reason: 'end_turn', usage: { input_tokens: input, output_tokens: outputTokens } }, events };
}

/** Gemini: <think> reasoning becomes a thought part; thoughtsTokenCount apart from candidatesTokenCount. */
function geminiReply(output: string, input: number, empty: boolean): Reply {
  const { thinking, answer } = empty ? { thinking: undefined, answer: '' } : splitThinking(output);
  const usageMetadata = {
    promptTokenCount: input,
    candidatesTokenCount: tokens(answer),
    ...(thinking ? { thoughtsTokenCount: tokens(thinking) } : {}),
    totalTokenCount: input + tokens(answer) + (thinking ? tokens(thinking) : 0),
  };
  const parts = [...(thinking ? [{ text: thinking, thought: true }] : []), { text: answer }];
  const candidate = (p: unknown[], finishReason?: string) => ({ content: { role: 'model', parts: p }, ...(finishReason ? { finishReason } : {}), index: 0 });
  const pieces = [...(thinking ? chunks(thinking).map((t) => ({ text: t, thought: true })) : []), ...chunks(answer).map((t) => ({ text: t }))];
  return {
    json: { candidates: [candidate(parts, 'STOP')], usageMetadata, modelVersion: 'mock-coder' },
    events: pieces.map((p, i) => ({
      data: JSON.stringify(i === pieces.length - 1
        ? { candidates: [candidate([p], 'STOP')], usageMetadata, modelVersion: 'mock-coder' }
        : { candidates: [candidate([p])], modelVersion: 'mock-coder' }),
    })),
  };
}

function errorBody(kind: Kind, status: number): unknown {
  const message = `mock failure ${status}`;
  if (kind === 'anthropic') {
    const type = status === 529 ? 'overloaded_error' : status === 429 ? 'rate_limit_error' : status === 401 ? 'authentication_error' : 'api_error';
    return { type: 'error', error: { type, message } };
  }
  if (kind === 'gemini') return { error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL' } };
  return { error: { message, type: 'server_error', code: null } };
}

/** The user message of a request body, per wire format. */
function userText(kind: Kind, body: Record<string, unknown>): string {
  if (typeof body.prompt === 'string') return body.prompt;
  if (kind === 'gemini') {
    const contents = body.contents as Array<{ parts: Array<{ text: string }> }> | undefined;
    return contents?.map((c) => c.parts.map((p) => p.text).join('')).join('\n') ?? '';
  }
  const messages = body.messages as Array<{ role: string; content: string }> | undefined;
  return messages?.filter((m) => m.role === 'user').map((m) => m.content).join('\n') ?? '';
}

/** 1 + the model's earlier answers in the conversation (assistant / model turns). */
function turnOfBody(kind: Kind, body: Record<string, unknown>): number {
  if (kind === 'gemini') return 1 + ((body.contents as Array<{ role: string }> | undefined) ?? []).filter((c) => c.role === 'model').length;
  return 1 + ((body.messages as Array<{ role: string }> | undefined) ?? []).filter((m) => m.role === 'assistant').length;
}

function systemText(kind: Kind, body: Record<string, unknown>): string {
  if (kind === 'anthropic') return typeof body.system === 'string' ? body.system : '';
  if (kind === 'gemini') return ((body.systemInstruction as { parts?: Array<{ text: string }> } | undefined)?.parts ?? []).map((p) => p.text).join('');
  return ((body.messages as Array<{ role: string; content: string }> | undefined) ?? []).filter((m) => m.role === 'system').map((m) => m.content).join('');
}

/** A wrong key: 401 for OpenAI and Anthropic; Gemini answers 400 API_KEY_INVALID, as the real one does. */
function authFailure(kind: Kind, req: IncomingMessage, apiKey: string): { status: number; body: unknown } | undefined {
  const h = req.headers;
  const given = kind === 'openai' ? h.authorization : kind === 'anthropic' ? h['x-api-key'] : h['x-goog-api-key'];
  const ok = kind === 'openai' ? given === `Bearer ${apiKey}` : given === apiKey;
  if (ok) return undefined;
  if (kind === 'gemini') return { status: 400, body: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] } } };
  if (kind === 'anthropic') return { status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } };
  return { status: 401, body: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } } };
}

function routeOf(url: URL): { kind: Kind; action: 'answer' | 'models'; stream?: boolean; completion?: boolean } | undefined {
  const p = url.pathname;
  if (p === '/openai/v1/chat/completions') return { kind: 'openai', action: 'answer' };
  if (p === '/openai/v1/completions') return { kind: 'openai', action: 'answer', completion: true };
  if (p === '/openai/v1/models') return { kind: 'openai', action: 'models' };
  if (p === '/anthropic/v1/messages') return { kind: 'anthropic', action: 'answer' };
  if (p === '/anthropic/v1/models') return { kind: 'anthropic', action: 'models' };
  if (p === '/gemini/v1beta/models') return { kind: 'gemini', action: 'models' };
  const gemini = /^\/gemini\/v1beta\/models\/[^/:]+:(generateContent|streamGenerateContent)$/.exec(p);
  if (gemini) return { kind: 'gemini', action: 'answer', stream: gemini[1] === 'streamGenerateContent' };
  return undefined;
}

const MODEL_IDS = ['mock-coder', 'mock-coder-mini', 'mock-reasoner'];

/** Model lists; Anthropic and Gemini in two pages, to exercise pagination. */
function modelsBody(kind: Kind, url: URL): unknown {
  if (kind === 'openai') return { object: 'list', data: MODEL_IDS.map((id) => ({ id, object: 'model', owned_by: 'mock' })) };
  if (kind === 'anthropic') {
    const after = url.searchParams.get('after_id');
    const page = after ? MODEL_IDS.slice(2) : MODEL_IDS.slice(0, 2);
    return { data: page.map((id) => ({ type: 'model', id, display_name: id.toUpperCase() })), has_more: !after, first_id: page[0], last_id: page.at(-1) };
  }
  const token = url.searchParams.get('pageToken');
  const page = token ? MODEL_IDS.slice(2) : MODEL_IDS.slice(0, 2);
  return {
    models: [...page.map((id) => ({ name: `models/${id}`, displayName: id, supportedGenerationMethods: ['generateContent', 'countTokens'] })),
      ...(token ? [{ name: 'models/mock-embedding', supportedGenerationMethods: ['embedContent'] }] : [])],
    ...(token ? {} : { nextPageToken: 'page-2' }),
  };
}

export async function startMockProvider(options: { apiKey: string }): Promise<MockProvider> {
  const demo = loadDemo();
  const demoFile = readFileSync('bench-data/demo.jsonl', 'utf8');
  const requests: RecordedRequest[] = [];
  const counts = new Map<string, number>();
  let rules: FaultRule[] = [];
  let cors = true;

  const takeFault = (problem: string | undefined): Fault | undefined => {
    const rule = rules.find((r) => r.times > 0 && (r.problem === '*' || r.problem === problem));
    if (!rule) return undefined;
    rule.times--;
    return rule.fault;
  };

  const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };

  async function answer(req: IncomingMessage, res: ServerResponse, record: RecordedRequest, kind: Kind, url: URL, geminiStream: boolean | undefined, completion = false) {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(record.body) as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, { error: { message: 'request body is not JSON' } });
    }
    if (kind === 'anthropic' && (req.headers['anthropic-version'] === undefined || req.headers['anthropic-dangerous-direct-browser-access'] !== 'true')) {
      return sendJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'missing anthropic headers' } });
    }
    const stream = kind === 'gemini' ? Boolean(geminiStream) && url.searchParams.get('alt') === 'sse' : body.stream === true;
    record.stream = stream;
    const auth = authFailure(kind, req, options.apiKey);
    if (auth) return sendJson(res, auth.status, auth.body);
    const user = userText(kind, body);
    // The page's "Test connection" question is answered "OK" (counted under the id "connection-test").
    const problem = demo.find((d) => user.includes(d.question))
      ?? (user.includes(CONNECTION_TEST_QUESTION) ? { id: 'connection-test', language: 'text', question: CONNECTION_TEST_QUESTION, output: 'OK', canonical: 'OK' } : undefined);
    record.problem = problem?.id;
    if (!problem) return sendJson(res, 400, errorBody(kind, 400));
    counts.set(problem.id, (counts.get(problem.id) ?? 0) + 1);

    const fault = takeFault(problem.id);
    record.fault = fault?.kind;
    if (fault?.kind === 'slow') await sleep(fault.delayMs);
    if (res.destroyed) return;
    if (fault?.kind === 'drop') return void req.socket.destroy();
    if (fault?.kind === 'status') {
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
      if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = fault.retryAfterMs;
      if (fault.html) return void res.writeHead(fault.status, { 'content-type': 'text/html', ...headers }).end('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>');
      return sendJson(res, fault.status, errorBody(kind, fault.status), headers);
    }
    if (fault?.kind === 'html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><head><title>Just a moment...</title></head><body>challenge</body></html>');

    const input = tokens(systemText(kind, body)) + tokens(user);
    let reply: Reply;
    if (completion) {
      record.completion = true;
      // A base model writes the answer, the stop string, then runs on into another example.
      let text = `${problem.output}\n[Code Solution End]\n\n[Question]\nWrite a function that reverses a list.\n\n[Code Solution]\n`;
      const stops = Array.isArray(body.stop) ? (body.stop as unknown[]).filter((x): x is string => typeof x === 'string') : typeof body.stop === 'string' ? [body.stop] : [];
      if (fault?.kind !== 'ignore-stop') {
        for (const stop of stops) {
          const at = text.indexOf(stop);
          if (at !== -1) text = text.slice(0, at);
        }
      }
      reply = completionReply(fault?.kind === 'empty' ? '' : text, input);
    } else {
      const turn = turnOfBody(kind, body);
      record.turn = turn;
      // Later turns of a refinement conversation: the fixed (reference) solution.
      const output = turn > 1 ? `Fixed, thanks for the test output.\n\n\`\`\`${problem.language}\n${problem.canonical.trim()}\n\`\`\`` : problem.output;
      const make = kind === 'openai' ? openaiReply : kind === 'anthropic' ? anthropicReply : geminiReply;
      reply = make(output, input, fault?.kind === 'empty');
    }

    if (!stream) {
      const text = JSON.stringify(reply.json);
      if (fault?.kind === 'malformed') return void res.writeHead(200, { 'content-type': 'application/json' }).end(text.slice(0, Math.floor(text.length / 2)));
      if (fault?.kind === 'drop-mid' || fault?.kind === 'truncate') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
        res.write(text.slice(0, Math.floor(text.length / 2)));
        return void setTimeout(() => req.socket.destroy(), 20);
      }
      return sendJson(res, 200, reply.json);
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const events = reply.events;
    const half = Math.max(1, Math.floor(events.length / 2));
    for (let i = 0; i < events.length; i++) {
      if (res.destroyed) return;
      const e = events[i]!;
      if (i === half && fault?.kind === 'drop-mid') return void req.socket.destroy();
      if (i === half && fault?.kind === 'truncate') return void res.end();
      const data = fault?.kind === 'malformed' && i === half ? e.data.slice(0, Math.floor(e.data.length / 2)) : e.data;
      res.write(`${e.event ? `event: ${e.event}\n` : ''}data: ${data}\n\n`);
      if (i % 8 === 7) await sleep(1);
    }
    res.end();
  }

  const server = createServer((req, res) => {
    // A page on another origin (the browser tests) may call it: allow any origin, any header,
    // and let the page read the retry hints.
    if (cors || req.method === 'OPTIONS') {
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-expose-headers', 'retry-after, retry-after-ms');
    }
    if (req.method === 'OPTIONS') {
      requests.push({ method: 'OPTIONS', url: req.url ?? '', headers: { ...req.headers }, body: '', stream: false });
      return void res.writeHead(204, {
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
        'access-control-max-age': '600',
      }).end();
    }
    const chunksIn: Buffer[] = [];
    req.on('data', (c: Buffer) => chunksIn.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const record: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers }, body: Buffer.concat(chunksIn).toString('utf8'), stream: false };
      requests.push(record);
      if (url.pathname === '/data/demo.jsonl') return void res.writeHead(200, { 'content-type': 'application/jsonl' }).end(demoFile);
      const route = routeOf(url);
      if (!route) return sendJson(res, 404, { error: { message: `no route ${url.pathname}` } });
      record.kind = route.kind;
      if (route.action === 'models') {
        const auth = authFailure(route.kind, req, options.apiKey);
        return auth ? sendJson(res, auth.status, auth.body) : sendJson(res, 200, modelsBody(route.kind, url));
      }
      if (req.method !== 'POST') return sendJson(res, 405, { error: { message: 'POST only' } });
      answer(req, res, record, route.kind, url, route.stream, route.completion).catch((e: Error) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: e.message } });
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    baseUrl: (kind) => `${url}/${kind}/${kind === 'gemini' ? 'v1beta' : 'v1'}`,
    requests,
    countFor: (problem) => counts.get(problem) ?? 0,
    inject: (rule) => void rules.push({ ...rule }),
    setCors: (enabled) => void (cors = enabled),
    reset() {
      cors = true;
      requests.length = 0;
      counts.clear();
      rules = [];
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The demo problems the mock knows: id, question and recorded answer. */
export const demoProblems = loadDemo;
