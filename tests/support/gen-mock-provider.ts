/**
 * A real local HTTP server (127.0.0.1 only) speaking the OpenAI chat-completions wire format, that
 * plays the generator's models (Python, JavaScript, Ruby, C++, Go) with scripted answers per stage (tests/fixtures/gen/inputs*.json):
 * the solution is the seed itself with the fixture's inputs; tests are written mechanically from the
 * observed outputs the prompt carries (so their expected values come from real execution); the
 * statement and the critic are templates. Scenario flags in the fixture make one stage go wrong:
 *   malformed   the solution stage answers prose without blocks (every time)
 *   wrongTests  the first N test answers expect a wrong value (1: fixed after the send-back)
 *   weakTests   tests that only check the type of each result (no mutant is caught)
 *   solved      the difficulty model answers correctly this many times, then wrongly
 *   type        (C++) the result type the tests compare a brace-list output with, e.g. vector<int>
 *   translations  stage 6: the translated solution per target language (Python to Ruby or JavaScript); the
 *               translated tests are the source's asserts rewritten mechanically, so their expected
 *               values are the source's observed outputs
 * The difficulty model is told apart by its system prompt (the evaluation one). Every request is
 * recorded with its wire format; a reply the client gave up on (an aborted fetch) is marked so.
 * Speaks three wire formats: OpenAI chat completions at /v1, Anthropic Messages at /anthropic/v1,
 * Gemini generateContent at /gemini/v1beta (so a critic or difficulty model can be on another
 * provider). `delayMs` holds every reply that long. Sends CORS headers, for the page's e2e test.
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

interface Fixture {
  /** Absent: python for `def …(`, javascript for `function …(`. */
  lang?: 'ruby' | 'cpp' | 'go';
  type?: string;
  translations?: Record<string, string>;
  doc: string;
  public: string[];
  private: string[];
  malformed?: boolean;
  wrongTests?: number;
  weakTests?: boolean;
  solved?: number;
}

export type WireKind = 'openai' | 'anthropic' | 'gemini';

export interface GenMock {
  /** The OpenAI-compatible base URL. */
  baseUrl: string;
  baseUrls: Record<WireKind, string>;
  /** Request bodies (JSON text), in arrival order. */
  bodies: string[];
  /** The wire format of each request, in the same order. */
  kinds: WireKind[];
  /** The key each request carried (Authorization, x-api-key or x-goog-api-key), in the same order. */
  keys: Array<string | undefined>;
  /** Indexes (into bodies) of requests whose client went away before the reply. */
  aborted: Set<number>;
  /** Requests received and not yet answered or given up. */
  pending(): number;
  /** Holds each reply this long (ms) from now on. */
  setDelay(ms: number): void;
  /** The stage each request was for ('solution', 'tests', 'statement', 'critic', 'difficulty', 'translation'). */
  stages: string[];
  close(): Promise<void>;
}

const fixtures = (file: string) => JSON.parse(readFileSync(`tests/fixtures/gen/${file}`, 'utf8')) as Record<string, Fixture>;
// The Go drop cases (tests/integration/generate-go.test.ts) keep their seeds' answers apart.
const FIXTURES = { ...fixtures('inputs.json'), ...fixtures('inputs-bad-go.json') };

interface Message { role: string; content: string }

function seedOf(text: string): [string, Fixture] {
  const found = Object.entries(FIXTURES).find(([sig]) => text.includes(sig));
  if (!found) throw new Error('no known seed in the prompt');
  return found;
}

const nameOf = (sig: string) => sig.replace(/\($/, '').split(/[\s*&]+/).at(-1)!;
const LANGUAGE_NAMES: Record<string, string> = { python: 'Python', javascript: 'JavaScript', ruby: 'Ruby', cpp: 'C++', go: 'Go' };

/** Parses `input => output` lines between two markers of the tests prompt. */
function cases(prompt: string, from: string, to: string): Array<[string, string]> {
  const part = prompt.slice(prompt.indexOf(from) + from.length, prompt.indexOf(to));
  return part.split('\n').filter((l) => l.includes(' => ')).map((l) => {
    const at = l.indexOf(' => ');
    return [l.slice(0, at), l.slice(at + 4)];
  });
}

const languageOf = (sig: string, fx: Fixture) => fx.lang ?? (sig.startsWith('def ') ? 'python' : 'javascript');

/** C++ asserts: brace-list outputs initialize the fixture's type; doubles compare within 1e-6. */
function cppTests(fx: Fixture, rows: Array<[string, string]>, wrong: boolean, weak: boolean): string {
  const checks = rows.map(([input, output], i) => {
    if (weak) return `    { auto r = ${input}; (void)r; }`;
    const same = fx.type === 'double' ? `fabs((${input}) - (${output})) < 1e-6` : `(${input}) == ${fx.type && output.startsWith('{') ? fx.type : ''}${output}`;
    return `    assert(${wrong && i === 0 ? `!(${same})` : `(${same})`});`;
  });
  return `#include <cassert>\n#include <cmath>\n#include <map>\n#include <string>\n#include <utility>\n#include <vector>\nusing namespace std;\n\nvoid test() {\n${checks.join('\n')}\n}\n\nint main() {\n    test();\n    return 0;\n}\n`;
}

function goTests(rows: Array<[string, string]>, demo: boolean, wrong: boolean, weak: boolean): string {
  // Weak: each result is computed and thrown away, so no mutant can fail them.
  if (weak) return `package main\n\nimport "testing"\n\nfunc Test${demo ? 'Demo' : 'Full'}(t *testing.T) {\n${rows.map(([input]) => `\t_ = ${input}`).join('\n')}\n}\n`;
  const checks = rows.map(([input, output], i) => `\tif got := ${input}; ${wrong && i === 0 ? '' : '!'}reflect.DeepEqual(got, ${output}) {\n\t\tt.Errorf("case ${i + 1}: got %#v", got)\n\t}`);
  return `package main\n\nimport (\n\t"reflect"\n\t"testing"\n)\n\nfunc Test${demo ? 'Demo' : 'Full'}(t *testing.T) {\n${checks.join('\n')}\n}\n`;
}

function testProgram(fx: Fixture, lang: string, rows: Array<[string, string]>, demo: boolean, wrong: boolean, weak: boolean): string {
  if (lang === 'cpp') return cppTests(fx, rows, wrong, weak);
  if (lang === 'go') return goTests(rows, demo, wrong, weak);
  const py = lang === 'python';
  if (lang === 'ruby') {
    const checks = rows.map(([input, output], i) => `  raise "Test ${i + 1} failed" unless (${input}) == ${wrong && i === 0 ? `[${output}, 1]` : output}`);
    return `def test\n${checks.join('\n')}\nend\n\ntest\n`;
  }
  const checks = rows.map(([input, output], i) => {
    const expected = wrong && i === 0 ? (py ? `${output} + [1]` : `[${output}, 1]`) : output;
    if (weak) return py ? `    assert ${input} is not None` : `  assert.ok(${input} !== undefined);`;
    return py ? `    assert ${input} == ${expected}` : `  assert.deepStrictEqual(${input}, ${expected});`;
  });
  if (py) return `def test():\n${checks.join('\n')}\n\nif __name__ == "__main__":\n    test()\n`;
  return `const assert = require('assert');\n\nfunction ${demo ? 'demoTesting' : 'fullTesting'}() {\n${checks.join('\n')}\n}\n`;
}

/** The block after a `Label:` line of the translation prompt. */
const blockAfter = (prompt: string, label: string) => {
  const at = prompt.indexOf('```\n', prompt.indexOf(`\n${label}:\n`)) + 4;
  return prompt.slice(at, prompt.indexOf('\n```', at) + 1);
};

/**
 * Python to Ruby or JavaScript: the fixture's solution in that language, the same call lines, the
 * source's asserts rewritten (raise-unless lines; assert.deepStrictEqual in demoTesting/fullTesting).
 */
function translation(prompt: string, sig: string, fx: Fixture): string {
  const to = /into (\w+):/.exec(prompt)![1]!;
  const solution = fx.translations?.[to.toLowerCase()];
  if ((to !== 'Ruby' && to !== 'JavaScript') || !solution) throw new Error(`no scripted ${to} translation of ${sig}`);
  const js = to === 'JavaScript';
  const rewrite = (tests: string, demo: boolean) => {
    const lines = tests.split('\n').map((l) => /^\s*assert (.*) == (.*)$/.exec(l)).filter((m) => m !== null);
    if (js) return `const assert = require('assert');\n\nfunction ${demo ? 'demoTesting' : 'fullTesting'}() {\n${lines.map((m) => `  assert.deepStrictEqual(${m[1]}, ${m[2]});`).join('\n')}\n}\n`;
    return `def test\n${lines.map((m, i) => `  raise "Test ${i + 1} failed" unless (${m[1]}) == ${m[2]}`).join('\n')}\nend\n\ntest\n`;
  };
  const tag = js ? 'javascript' : 'ruby';
  const fence = (body: string) => `\`\`\`${tag}\n${body}\`\`\``;
  return `### QUESTION\n\nWrite a ${to} ${js ? 'function' : 'method'} \`${nameOf(sig)}\`.\n\n${fx.doc}\n\n\`\`\`${tag}\n${rewrite(blockAfter(prompt, 'Public tests'), true)}\`\`\`\n\n`
    + `### SOLUTION\n${fence(solution)}\n\n### INPUTS\n${fence(blockAfter(prompt, 'Inputs'))}\n\n`
    + `### DEMO_TEST\n${fence(rewrite(blockAfter(prompt, 'Public tests'), true))}\n\n### FULL_TEST\n${fence(rewrite(blockAfter(prompt, 'Private tests'), false))}\n`;
}

export async function startGenMock(): Promise<GenMock> {
  const bodies: string[] = [];
  const stages: string[] = [];
  const testAnswers = new Map<string, number>();
  const difficultyAnswers = new Map<string, number>();

  function reply(messages: Message[]): { stage: string; text: string } {
    const system = messages.find((m) => m.role === 'system')?.content ?? '';
    const prompt = messages.find((m) => m.role === 'user')!.content;
    const [sig, fx] = seedOf(prompt);
    const lang = languageOf(sig, fx);
    const py = lang === 'python';
    if (!system.startsWith('You help build')) {
      const n = difficultyAnswers.get(sig) ?? 0;
      difficultyAnswers.set(sig, n + 1);
      const seedCode = seedCodes.get(sig)!;
      const wrong = lang === 'ruby' ? `def ${nameOf(sig)}(*args)\n  nil\nend\n` : py ? `def ${nameOf(sig)}(*args):\n    return None\n` : lang === 'javascript' ? `function ${nameOf(sig)}(...args) {\n  return null;\n}\n` : '// not solved\n';
      return { stage: 'difficulty', text: `Here is my solution.\n\n\`\`\`${lang}\n${n < (fx.solved ?? 0) ? seedCode : wrong}\`\`\`` };
    }
    if (prompt.startsWith('Stage: solution')) {
      const seed = prompt.slice(prompt.indexOf('Seed code:\n```\n') + 15, prompt.lastIndexOf('```'));
      seedCodes.set(sig, seed);
      if (fx.malformed) return { stage: 'solution', text: 'Sure! The solution multiplies the input by three, and good inputs are small integers.' };
      // Varied but valid layouts: tagged fences, bare fences with CRLF, bold headings.
      const variant = seed.length % 3;
      const block = (body: string) => (variant === 1 ? `\`\`\`\r\n${body}\`\`\`` : `\`\`\`${lang}\n${body}\`\`\``);
      const head = (name: string) => (variant === 2 ? `**${name}**` : `### ${name}`);
      return { stage: 'solution', text: `Here you go.\n\n${head('SOLUTION')}\n${block(seed)}\n\n${head('PUBLIC_INPUTS')}\n${block(fx.public.join('\n') + '\n')}\n\n${head('PRIVATE_INPUTS')}\n${block(fx.private.join('\n') + '\n')}\n` };
    }
    if (prompt.startsWith('Stage: tests')) {
      const n = testAnswers.get(sig) ?? 0;
      testAnswers.set(sig, n + 1);
      const wrong = n < (fx.wrongTests ?? 0);
      const pub = cases(prompt, 'Public cases (input => observed output):\n', 'Private cases');
      const priv = cases(prompt, 'Private cases (input => observed output):\n', 'Write two test programs');
      const demo = testProgram(fx, lang, pub, true, wrong, Boolean(fx.weakTests));
      const full = testProgram(fx, lang, [...pub, ...priv], false, wrong, Boolean(fx.weakTests));
      return { stage: 'tests', text: `### DEMO_TEST\n\`\`\`${lang}\n${demo}\`\`\`\n\n### FULL_TEST\n\`\`\`${lang}\n${full}\`\`\`\n` };
    }
    if (prompt.startsWith('Stage: problem statement')) {
      const demo = prompt.slice(prompt.indexOf('Public tests:\n```\n') + 18, prompt.lastIndexOf('```'));
      return { stage: 'statement', text: `### QUESTION\n\nWrite a ${LANGUAGE_NAMES[lang]} function.\n\n${fx.doc}\n\nSignature: \`${seedCodes.get(sig)!.split('\n').find((l) => l.includes(sig))!.trim()}\`\n\nExamples:\n\n\`\`\`${lang}\n${demo}\`\`\`\n` };
    }
    if (prompt.startsWith('Stage: translation')) return { stage: 'translation', text: translation(prompt, sig, fx) };
    if (prompt.startsWith('Stage: review')) return { stage: 'critic', text: 'SCORE: 8\nCATEGORY: algorithms\nThe statement names the function and the tests match it.' };
    throw new Error('unknown stage');
  }
  const seedCodes = new Map<string, string>();

  const kinds: WireKind[] = [];
  const keys: Array<string | undefined> = [];
  const aborted = new Set<number>();
  const open = new Set<number>();
  let delayMs = 0;

  /** The request's system and user turns, whatever its wire format. */
  function messagesOf(kind: WireKind, json: Record<string, unknown>): Message[] {
    if (kind === 'openai') return json.messages as Message[];
    if (kind === 'anthropic') {
      const first = (json.messages as Array<{ content: string }>)[0]!;
      return [...(json.system ? [{ role: 'system', content: json.system as string }] : []), { role: 'user', content: first.content }];
    }
    const text = (c: unknown) => (c as { parts: Array<{ text: string }> }).parts.map((p) => p.text).join('');
    return [...(json.systemInstruction ? [{ role: 'system', content: text(json.systemInstruction) }] : []), { role: 'user', content: text((json.contents as unknown[])[0]) }];
  }

  const answer = (kind: WireKind, text: string) => (kind === 'openai'
    ? { id: 'gen-mock', object: 'chat.completion', created: 0, model: 'mock', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } }
    : kind === 'anthropic'
      ? { id: 'gen-mock', type: 'message', role: 'assistant', model: 'mock', content: [{ type: 'text', text }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 10 } }
      : { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10 } });

  const kindOf = (url: string): WireKind | undefined => (url === '/v1/chat/completions' ? 'openai'
    : url === '/anthropic/v1/messages' ? 'anthropic'
            // A streaming request (the page streams) gets the whole reply as JSON, which the clients accept.
      : /^\/gemini\/v1beta\/models\/[\w.-]+:(generateContent|streamGenerateContent\?alt=sse)$/.test(url) ? 'gemini' : undefined);

  const server = createServer((req, res) => {
    // CORS, so the page (another origin) can call it; preflights are answered, not recorded.
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      return void res.writeHead(204, { 'access-control-allow-methods': 'POST, OPTIONS', 'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*' }).end();
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const kind = kindOf(req.url ?? '');
      if (!kind || req.method !== 'POST') return void res.writeHead(404).end();
      const index = bodies.push(body) - 1;
      kinds.push(kind);
      const header = (name: string) => (typeof req.headers[name] === 'string' ? req.headers[name] : undefined);
      keys.push(header('authorization')?.replace(/^Bearer /, '') ?? header('x-api-key') ?? header('x-goog-api-key'));
      open.add(index);
      res.on('close', () => {
        open.delete(index);
        if (!res.writableFinished) aborted.add(index);
      });
      try {
        const { stage, text } = reply(messagesOf(kind, JSON.parse(body) as Record<string, unknown>));
        stages.push(stage);
        const send = () => {
          if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(kind, text)));
        };
        if (delayMs > 0) setTimeout(send, delayMs);
        else send();
      } catch (e) {
        stages.push('error');
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: (e as Error).message } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    baseUrls: { openai: `http://127.0.0.1:${port}/v1`, anthropic: `http://127.0.0.1:${port}/anthropic/v1`, gemini: `http://127.0.0.1:${port}/gemini/v1beta` },
    bodies,
    kinds,
    keys,
    aborted,
    pending: () => open.size,
    setDelay: (ms) => {
      delayMs = ms;
    },
    stages,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
