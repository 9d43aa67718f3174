/**
 * The providers against a real local HTTP server (tests/support/mock-provider.ts) that speaks the
 * OpenAI-compatible, Anthropic and Gemini wire formats: answers, usage, reasoning, headers, model
 * lists, retries of injected failures, and authentication errors stopping a run.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { evaluateAll } from '../../src/core/engine';
import { parseDataset } from '../../src/core/records';
import { AuthenticationError, type Executor, type Problem } from '../../src/contracts';
import { SYSTEM_PROMPT } from '../../src/core/prompt';
import { createProviderModel, listModels, type ProviderKind, type ProviderSettings } from '../../src/models/providers';
import { startMockProvider, type Fault, type MockProvider } from '../support/mock-provider';

const KEY = 'sk-mock-4f1c9e2a7b';
const KINDS: ProviderKind[] = ['openai', 'anthropic', 'gemini'];
const problems = parseDataset(readFileSync('bench-data/demo.jsonl', 'utf8')).problems;
const recorded = new Map(readFileSync('bench-data/demo-answers.jsonl', 'utf8').trim().split('\n')
  .map((l) => JSON.parse(l) as { id: string; output: string }).map((a) => [a.id, a.output]));
const thinking = problems.find((p) => recorded.get(p.id)!.includes('</think>'))!;
const plain = problems.find((p) => !recorded.get(p.id)!.includes('</think>'))!;

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider({ apiKey: KEY });
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const settings = (kind: ProviderKind, extra: Partial<ProviderSettings> = {}): ProviderSettings => ({
  kind, baseUrl: mock.baseUrl(kind), apiKey: KEY, model: 'mock-coder', retry: { attempts: 3, baseDelayMs: 10 }, ...extra,
});

/** An executor that never runs anything: these tests are about answers, not verdicts. */
const passingExecutor: Executor = {
  languages: () => ['python', 'javascript', 'typescript'],
  run: async () => ({ exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 1, runtime: 'stub' }),
  dispose: async () => {},
};

/** The error a promise rejects with; a test failure if it resolves. */
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a failure, got a result');
}

const afterThink = (s: string) => (s.includes('</think>') ? s.slice(s.lastIndexOf('</think>') + '</think>'.length) : s);

describe.each(KINDS)('%s', (kind) => {
  it.each([false, true])('answers every demo problem with its recorded answer (stream: %s)', async (stream) => {
    const model = createProviderModel(settings(kind, { stream }));
    expect(model.id).toBe(`${kind}:mock-coder`);
    for (const p of problems) {
      const answer = await model.answer(p);
      const expected = recorded.get(p.id)!;
      // OpenAI-compatible servers return reasoning inline (<think>); the others apart.
      expect(answer.text).toBe(kind === 'openai' ? expected : afterThink(expected));
      expect(answer.usage!.inputTokens).toBeGreaterThan(0);
      expect(answer.usage!.outputTokens).toBeGreaterThan(0);
    }
    expect(mock.requests.filter((r) => r.kind === kind && r.stream === stream)).toHaveLength(problems.length);
    for (const p of problems) expect(mock.countFor(p.id)).toBe(1);
  });

  it('records reasoning and answer tokens apart where the provider reports them', async () => {
    const answer = await createProviderModel(settings(kind)).answer(thinking);
    if (kind === 'openai') expect(answer.usage!.reasoningTokens).toBeGreaterThan(0);
    if (kind === 'gemini') expect(answer.usage!.reasoningTokens).toBeGreaterThan(0);
    if (kind !== 'openai') expect(answer.reasoning).toContain(recorded.get(thinking.id)!.slice(10, 60));
    const simple = await createProviderModel(settings(kind)).answer(plain);
    expect(simple.reasoning).toBeUndefined();
  });

  it('sends the key only in its header, the official system prompt, and the sampling settings', async () => {
    await createProviderModel(settings(kind, { temperature: 0.6, topP: 0.95, maxTokens: 1234 })).answer(plain);
    const [request] = mock.requests;
    expect(request!.url).not.toContain(KEY);
    const keyHeaders = Object.entries(request!.headers).filter(([, v]) => String(v).includes(KEY)).map(([k]) => k);
    expect(keyHeaders).toEqual([{ openai: 'authorization', anthropic: 'x-api-key', gemini: 'x-goog-api-key' }[kind]]);
    expect(Object.keys(request!.headers).filter((h) => h.startsWith('x-stainless'))).toEqual([]);
    if (kind === 'anthropic') {
      expect(request!.headers['anthropic-version']).toBe('2023-06-01');
      expect(request!.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    }
    const body = JSON.parse(request!.body);
    expect(request!.body).toContain(JSON.stringify(SYSTEM_PROMPT).slice(1, -1));
    if (kind === 'gemini') expect(body.generationConfig).toEqual({ maxOutputTokens: 1234, temperature: 0.6, topP: 0.95 });
    else expect(body).toMatchObject({ max_tokens: 1234, temperature: 0.6, top_p: 0.95 });
  });

  it('uses a system-prompt override, and sends none when it is empty', async () => {
    await createProviderModel(settings(kind, { systemPrompt: 'Answer in one code block.' })).answer(plain);
    await createProviderModel(settings(kind, { systemPrompt: '' })).answer(plain);
    const [custom, none] = mock.requests;
    expect(custom!.body).toContain('Answer in one code block.');
    expect(custom!.body).not.toContain('expert programmer');
    expect(none!.body).not.toContain('expert programmer');
    expect(none!.body).not.toMatch(/"system"|systemInstruction/);
  });

  it('lists the models (following pages)', async () => {
    const models = await listModels(settings(kind));
    expect(models.map((m) => m.id)).toEqual(['mock-coder', 'mock-coder-mini', 'mock-reasoner']);
    expect(mock.requests.every((r) => !r.url.includes(KEY))).toBe(true);
  });

  it.each<[string, Fault]>([
    ['429', { kind: 'status', status: 429 }],
    ['500', { kind: 'status', status: 500 }],
    ['529', { kind: 'status', status: 529 }],
    ['a 502 HTML page', { kind: 'status', status: 502, html: true }],
    ['malformed JSON', { kind: 'malformed' }],
    ['an HTML page with 200', { kind: 'html' }],
    ['an empty reply', { kind: 'empty' }],
    ['a dropped connection', { kind: 'drop' }],
    ['a connection dropped mid-reply', { kind: 'drop-mid' }],
  ])('retries %s and then succeeds (stream and not)', async (_, fault) => {
    for (const stream of [false, true]) {
      mock.reset();
      mock.inject({ problem: plain.id, fault, times: 2 });
      const answer = await createProviderModel(settings(kind, { stream })).answer(plain);
      expect(answer.text).toBe(recorded.get(plain.id));
      expect(mock.countFor(plain.id)).toBe(3);
    }
  });

  it('retries a stream that ends before its end marker', async () => {
    mock.inject({ problem: plain.id, fault: { kind: 'truncate' }, times: 1 });
    const answer = await createProviderModel(settings(kind, { stream: true })).answer(plain);
    expect(answer.text).toBe(recorded.get(plain.id));
    expect(mock.countFor(plain.id)).toBe(2);
  });

  it('gives up after the attempts with an error naming the provider and the HTTP status', async () => {
    mock.inject({ problem: plain.id, fault: { kind: 'status', status: 500 }, times: Infinity });
    const error = await failure(createProviderModel(settings(kind)).answer(plain));
    expect(error.message).toContain(`${kind} (127.0.0.1:`);
    expect(error.message).toContain('HTTP 500');
    expect(error.message).toContain('gave up after 3 attempts');
    expect(mock.countFor(plain.id)).toBe(3);
  });

  it('malformed JSON, HTML pages and cut streams are named as such', async () => {
    const fail = async (fault: Fault, stream = false) => {
      mock.reset();
      mock.inject({ problem: plain.id, fault, times: Infinity });
      return (await failure(createProviderModel(settings(kind, { stream, retry: { attempts: 1 } })).answer(plain))).message;
    };
    expect(await fail({ kind: 'malformed' })).toMatch(/malformed JSON \(HTTP 200\)/);
    expect(await fail({ kind: 'html' })).toMatch(/HTML page \("Just a moment\.\.\."\) instead of JSON \(HTTP 200\)/);
    expect(await fail({ kind: 'status', status: 502, html: true })).toMatch(/HTTP 502 Bad Gateway: an HTML page \("502 Bad Gateway"\)/);
    expect(await fail({ kind: 'empty' })).toMatch(/empty reply \(HTTP 200/);
    expect(await fail({ kind: 'truncate' }, true)).toMatch(/stream ended before .*\(HTTP 200\)/);
    expect(await fail({ kind: 'drop-mid' }, true)).toMatch(/connection dropped while reading the reply \(HTTP 200\)/);
    expect(await fail({ kind: 'drop' })).toMatch(/network error/);
  });

  it('a wrong key is an AuthenticationError at once, without retries', async () => {
    const error = await failure(createProviderModel(settings(kind, { apiKey: 'sk-wrong-key-123' })).answer(plain));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toMatch(/refused the API key \(HTTP 40[01]/);
    expect(error.message).not.toContain('sk-wrong-key-123');
    expect(mock.requests).toHaveLength(1);
  });
});

describe('retry timing against the server', () => {
  it('honours retry-after (seconds) and retry-after-ms', async () => {
    mock.inject({ problem: plain.id, fault: { kind: 'status', status: 429, retryAfter: '1' }, times: 1 });
    let started = Date.now();
    await createProviderModel(settings('openai', { retry: { attempts: 3, baseDelayMs: 1 } })).answer(plain);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    mock.reset();
    mock.inject({ problem: plain.id, fault: { kind: 'status', status: 529, retryAfterMs: '300', retryAfter: '30' }, times: 1 });
    started = Date.now();
    await createProviderModel(settings('anthropic', { retry: { attempts: 3, baseDelayMs: 1 } })).answer(plain);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(280);
    expect(took).toBeLessThan(5000);
  });

  it('a reply slower than the request timeout is abandoned and retried', async () => {
    mock.inject({ problem: plain.id, fault: { kind: 'slow', delayMs: 2000 }, times: 1 });
    const started = Date.now();
    const answer = await createProviderModel(settings('gemini', { requestTimeoutMs: 300 })).answer(plain);
    expect(answer.text).toBe(afterThink(recorded.get(plain.id)!));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(mock.countFor(plain.id)).toBe(2);
    mock.inject({ problem: plain.id, fault: { kind: 'slow', delayMs: 1000 }, times: Infinity });
    const error = await failure(createProviderModel(settings('gemini', { requestTimeoutMs: 200, retry: { attempts: 2, baseDelayMs: 1 } })).answer(plain));
    expect(error.message).toMatch(/no complete reply within 0\.2 s/);
  });

  it('a slow reply within the timeout just arrives', async () => {
    mock.inject({ problem: plain.id, fault: { kind: 'slow', delayMs: 400 }, times: 1 });
    const answer = await createProviderModel(settings('anthropic', { stream: true })).answer(plain);
    expect(answer.text).toBe(afterThink(recorded.get(plain.id)!));
    expect(mock.countFor(plain.id)).toBe(1);
  });

  it('aborting stops a request that is waiting to retry', async () => {
    mock.inject({ problem: plain.id, fault: { kind: 'status', status: 503, retryAfter: '30' }, times: Infinity });
    const controller = new AbortController();
    const pending = failure(createProviderModel(settings('openai')).answer(plain, controller.signal));
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    controller.abort();
    expect((await pending).name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(200);
    expect(mock.countFor(plain.id)).toBe(1);
  });
});

describe('a run with a refused key', () => {
  it.each(KINDS)('%s: evaluateAll stops at once and rejects with the AuthenticationError', async (kind) => {
    const model = createProviderModel(settings(kind, { apiKey: 'sk-wrong-key-123' }));
    const seen: string[] = [];
    const error = await failure(evaluateAll(problems, model, passingExecutor, { concurrency: 3, onResult: (r) => seen.push(r.id) }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(seen).toEqual([]);
    // Only the requests already in flight when the first refusal came back.
    expect(mock.requests.length).toBeLessThanOrEqual(3);
  });

  it('other failures stay per problem (INFRA_ERROR) and the run goes on', async () => {
    const some: Problem[] = problems.slice(0, 4);
    mock.inject({ problem: some[1]!.id, fault: { kind: 'status', status: 500 }, times: Infinity });
    const results = await evaluateAll(some, createProviderModel(settings('openai', { retry: { attempts: 2, baseDelayMs: 1 } })), passingExecutor);
    expect(results.map((r) => r.verdict)).toEqual(['passed', 'infra_error', 'passed', 'passed']);
    expect(results[1]!.error).toMatch(/answer unavailable: openai \(127\.0\.0\.1:\d+\): HTTP 500/);
    expect(results[0]!.usage?.inputTokens).toBeGreaterThan(0);
  });
});
