/**
 * `npm run eval` with several samples, refinement turns, completion mode, charts and the manifest.
 *
 * The expected pass@k and per-turn figures are computed here by hand from
 * bench-data/demo-answers-multi.jsonl: each recorded answer's `expected` field says whether it is
 * right (demo and full tests PASSED); the engine is not consulted.
 */
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCompletionPrompt, COMPLETION_STOP } from '../../src/core/prompt';
import { parseDataset } from '../../src/core/records';
import { startMockProvider, type MockProvider } from '../support/mock-provider';
import { tempDirs } from '../support/temp-dirs';

const tmp = tempDirs('benchtop-multi-')();
const LANGS = ['python', 'javascript', 'typescript'];
const problems = parseDataset(readFileSync('bench-data/demo.jsonl', 'utf8')).problems.filter((p) => LANGS.includes(p.language));

interface Recorded { id: string; sample: number; turn: number; output: string; expected: { demo: string; full: string } }
const recorded = readFileSync('bench-data/demo-answers-multi.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Recorded);
const right = (a: Recorded) => a.expected.demo === 'PASSED' && a.expected.full === 'PASSED';

/** Did (problem, sample) pass at some turn ≤ t? Every turn a chain reaches is recorded in the file. */
function passedBy(id: string, sample: number, t: number): boolean {
  return recorded.some((a) => a.id === id && a.sample === sample && a.turn <= t && right(a));
}

/** C(n, k) by the definition. */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 0; i < k; i++) r = (r * (n - i)) / (i + 1);
  return r;
}

/** pass@k for a set of problems, as the paper defines it: mean of 1 − C(n−c,k)/C(n,k). */
function passAtKByHand(ids: string[], n: number, k: number, turn: number): number {
  const per = ids.map((id) => {
    let c = 0;
    for (let s = 0; s < n; s++) if (passedBy(id, s, turn)) c++;
    return 1 - choose(n - c, k) / choose(n, k);
  });
  return per.reduce((a, b) => a + b, 0) / per.length;
}

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

interface CliRun { code: number | null; stdout: string; stderr: string }
function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['dist-node/cli.mjs', ...args], { timeout: 400_000, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}
const lines = (text: string) => text.trimEnd().split('\n');
/** --timeout: each recorded endless loop (Python, JavaScript) costs it twice; the others end within a second. */
const LIMIT = '5';
const jsonl = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

describe('recorded answers with samples and turns', () => {
  it('the file covers every demo problem of Python, JavaScript and TypeScript, 5 samples, chains that stop at their first right answer', () => {
    const ids = new Set(recorded.map((a) => a.id));
    expect([...ids].sort()).toEqual(problems.map((p) => p.id).sort());
    for (const p of problems) {
      for (let s = 0; s < 5; s++) {
        const chain = recorded.filter((a) => a.id === p.id && a.sample === s).sort((a, b) => a.turn - b.turn);
        expect(chain.map((a) => a.turn)).toEqual(chain.map((_, i) => i + 1));
        expect(chain.slice(0, -1).every((a) => !right(a))).toBe(true);
        expect(right(chain.at(-1)!) || chain.length === 3).toBe(true);
      }
    }
    // Not trivial: some problems never solved, some solved only by refinement, some only by other samples.
    expect(problems.some((p) => [0, 1, 2, 3, 4].every((s) => !passedBy(p.id, s, 3)))).toBe(true);
    expect(problems.some((p) => !passedBy(p.id, 0, 1) && passedBy(p.id, 0, 3))).toBe(true);
    expect(problems.some((p) => !passedBy(p.id, 0, 3) && passedBy(p.id, 1, 3))).toBe(true);
  });

  it('--samples 5 --turns 3 prints pass@k and Pass@1 after each turn equal to the figures computed by hand', async () => {
    const out = join(tmp, 'multi.jsonl');
    const charts = join(tmp, 'charts');
    const run = await cli(['--data', 'bench-data/demo.jsonl', '--model', 'replay:bench-data/demo-answers-multi.jsonl', '--languages', LANGS.join(','),
      '--samples', '5', '--turns', '3', '--timeout', LIMIT, '--out', out, '--charts', charts]);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    const ids = problems.map((p) => p.id);
    const expected = {
      pass1: passAtKByHand(ids, 5, 1, 3),
      pass5: passAtKByHand(ids, 5, 5, 3),
      turns: [1, 2, 3].map((t) => ids.filter((id) => passedBy(id, 0, t)).length / ids.length),
    };
    // By hand once more, as plain numbers (from the file's expected fields): a regression guard.
    expect([expected.pass1, expected.pass5, ...expected.turns].map(pct)).toEqual(['68.3%', '95.8%', '58.3%', '62.5%', '83.3%']);
    const printed = lines(run.stdout);
    expect(printed, run.stdout + run.stderr).toContain(`pass@1: ${pct(expected.pass1)}`);
    expect(printed).toContain(`pass@5: ${pct(expected.pass5)}`);
    expect(printed.filter((l) => l.startsWith('pass@'))).toHaveLength(2);
    expect(printed.find((l) => l.startsWith('language '))?.trim().split(/\s{2,}/).slice(-2)).toEqual(['pass@1 CI', 'pass@5 CI']);
    expect(printed.filter((l) => l.startsWith('Pass@1 after turn'))).toEqual(expected.turns.map((v, i) => `Pass@1 after turn ${i + 1}: ${pct(v)}`));
    const first = ids.filter((id) => passedBy(id, 0, 1)).length;
    expect(printed.at(-1)).toBe(`Pass@1: ${pct(first / ids.length)} (${first}/${ids.length})`);

    // The table: per language, Pass@1 after turns 2 and 3, pass@1 and pass@5.
    for (const [language, name] of [['python', 'Python'], ['javascript', 'JavaScript'], ['typescript', 'TypeScript']] as const) {
      const own = problems.filter((p) => p.language === language).map((p) => p.id);
      const turn = (t: number) => pct(own.filter((id) => passedBy(id, 0, t)).length / own.length);
      const row = printed.find((l) => l.startsWith(name + ' '))!.trim().split(/\s+/);
      expect(row.slice(2, 7)).toEqual([turn(1), turn(2), turn(3), pct(passAtKByHand(own, 5, 1, 3)), pct(passAtKByHand(own, 5, 5, 3))]);
      // pass@1 and pass@5 bootstrap intervals close the row, each around the language's figure by hand.
      const [ci1, ci5] = row.slice(-2).map((c) => c.replace('%', '').split('–').map(Number) as [number, number]);
      for (const [[low, high], k] of [[ci1!, 1], [ci5!, 5]] as const) {
        const value = passAtKByHand(own, 5, k, 3) * 100;
        expect(low, `${name} pass@${k}`).toBeLessThanOrEqual(value + 0.05);
        expect(high, `${name} pass@${k}`).toBeGreaterThanOrEqual(value - 0.05);
        expect(high - low, `${name} pass@${k}`).toBeLessThanOrEqual(100);
      }
    }

    // --out: one line per (problem, sample, turn) asked, in order, each naming its sample and turn.
    const outLines = jsonl(out);
    expect(outLines).toHaveLength(recorded.length);
    const key = (o: { id?: unknown; sample?: unknown; turn?: unknown }) => `${o.id}/${o.sample}/${o.turn}`;
    expect(new Set(outLines.map(key))).toEqual(new Set(recorded.map(key)));
    const byKey = new Map(recorded.map((a) => [key(a), a]));
    for (const l of outLines) {
      const a = byKey.get(key(l))!;
      expect({ demo: l.demo_outcome, full: l.full_outcome }).toEqual(a.expected);
      expect(l.output).toBe(a.output);
      // Feedback is stored on a failing turn that another followed.
      expect(typeof l.feedback === 'string').toBe(!right(a) && a.turn < 3);
    }

    // The manifest beside --out and in the charts folder: hash, settings and the same figures.
    const manifest = JSON.parse(readFileSync(`${out}.manifest.json`, 'utf8'));
    expect(manifest.dataset.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.settings).toMatchObject({ samples: 5, turns: 3, feedback: 'demo', mode: 'chat', completion: false, extraction_mode: 'compat', time_limit_seconds: Number(LIMIT) });
    expect(manifest.figures.pass_at_k.find((p: { k: number }) => p.k === 5).value).toBeCloseTo(expected.pass5, 5);
    expect(manifest.figures.pass1_by_turn.map((t: { value: number }) => t.value)).toEqual(expected.turns.map((v) => expect.closeTo(v, 5)));
    expect(manifest.benchtop).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
    expect(JSON.parse(readFileSync(join(charts, 'manifest.json'), 'utf8')).figures).toEqual(manifest.figures);

    // Charts: SVG and PNG of each, with their numbers in the SVG text.
    expect(readdirSync(charts).sort()).toEqual(['difficulty.png', 'difficulty.svg', 'languages.png', 'languages.svg', 'manifest.json', 'passk.png', 'passk.svg', 'refinement.png', 'refinement.svg']);
    for (const name of ['languages', 'difficulty', 'refinement', 'passk']) {
      expect(readFileSync(join(charts, `${name}.png`)).subarray(1, 4).toString()).toBe('PNG');
    }
    expect(readFileSync(join(charts, 'refinement.svg'), 'utf8')).toContain(pct(expected.turns[2]!));
    expect(readFileSync(join(charts, 'passk.svg'), 'utf8')).toContain(pct(expected.pass5));
    expect(readFileSync(join(charts, 'languages.svg'), 'utf8')).toContain(`overall ${pct(first / ids.length)}`);
  }, 300_000);

  it('a run continued with more samples and turns asks only for the attempts it lacks and ends with the figures of a fresh run', async () => {
    const out = join(tmp, 'grow.jsonl');
    const base = ['--data', 'bench-data/demo.jsonl', '--model', 'replay:bench-data/demo-answers-multi.jsonl', '--languages', 'javascript', '--timeout', LIMIT, '--out', out];
    const small = await cli([...base, '--samples', '2']);
    expect(small.code).toBe(0);
    expect(jsonl(out)).toHaveLength(16);
    const grown = await cli([...base, '--samples', '3', '--turns', '2', '--resume']);
    expect(grown.code).toBe(0);
    expect(grown.stderr).toMatch(/continuing: 16 result\(s\) kept/);
    const js = problems.filter((p) => p.language === 'javascript').map((p) => p.id);
    expect(lines(grown.stdout)).toContain(`pass@1: ${pct(passAtKByHand(js, 3, 1, 2))}`);
    expect(lines(grown.stdout)).toContain(`Pass@1 after turn 2: ${pct(js.filter((id) => passedBy(id, 0, 2)).length / js.length)}`);
    const journal = readFileSync(`${out}.journal.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const answered = journal.filter((e) => e.type === 'answer').map((e) => `${e.id}/${e.sample ?? 0}/${e.turn ?? 1}`);
    expect(new Set(answered).size).toBe(answered.length);
  });
});

describe('completion mode and refinement through a provider (mock server)', () => {
  const KEY = 'sk-mock-multi-5c1d';
  let mock: MockProvider;
  beforeAll(async () => {
    mock = await startMockProvider({ apiKey: KEY });
  });
  afterAll(() => mock.close());
  beforeEach(() => mock.reset());
  const args = (...more: string[]) => ['--data', 'bench-data/demo.jsonl', '--base-url', mock.baseUrl('openai'), '--languages', LANGS.join(','), '--timeout', LIMIT, ...more];

  it.each([
    [false, LANGS, 'Pass@1: 58.3% (14/24)'],
    [true, ['typescript'], 'Pass@1: 75.0% (6/8)'],
  ])('--completion (stream: %s) asks /v1/completions with the plain prompt and the stop string, and cuts the answer', async (stream, languages, headline) => {
    const chosen = problems.filter((p) => languages.includes(p.language));
    // Half the problems get a reply that runs on past the stop string: the answer is cut all the same.
    for (const p of chosen.filter((_, i) => i % 2 === 0)) mock.inject({ problem: p.id, fault: { kind: 'ignore-stop' }, times: 1 });
    const out = join(tmp, `completion-${stream}.jsonl`);
    const run = await cli([...args('--model', 'openai:mock-base', '--completion', '--out', out, ...(stream ? ['--stream'] : [])), '--languages', languages.join(',')], { OPENAI_API_KEY: KEY });
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    expect(lines(run.stdout).at(-1)).toBe(headline);
    expect(run.stdout).toContain('completion mode');
    const asked = mock.requests.filter((r) => r.kind === 'openai');
    expect(asked).toHaveLength(chosen.length);
    expect(asked.filter((r) => r.stream)).toHaveLength(stream ? chosen.length : 0);
    for (const r of asked) {
      expect(r.url).toBe('/openai/v1/completions');
      const body = JSON.parse(r.body);
      const problem = problems.find((p) => p.id === r.problem)!;
      expect(body.prompt).toBe(buildCompletionPrompt(problem.record.question));
      expect(body.stop).toEqual([COMPLETION_STOP]);
      expect(body.messages).toBeUndefined();
      expect(body.model).toBe('mock-base');
    }
    const answers = new Map(readFileSync('bench-data/demo-answers.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; output: string }).map((a) => [a.id, a.output]));
    for (const l of jsonl(out)) {
      expect(l.output).toBe(`${answers.get(l.id as string)}\n`);
      expect(l.output).not.toContain(COMPLETION_STOP);
    }
    const manifest = JSON.parse(readFileSync(`${out}.manifest.json`, 'utf8'));
    expect(manifest.settings).toMatchObject({ mode: 'completion', completion: true });
    expect(manifest.provider).toMatchObject({ kind: 'openai', model: 'mock-base' });
    expect(JSON.stringify(manifest)).not.toContain(KEY);
  }, 300_000);

  it('--turns 2 sends the earlier answer and the public test feedback as the conversation', async () => {
    // TypeScript: 6 of 8 recorded answers pass; of the two others one fails the public tests, one
    // passes them and fails the private ones.
    const run = await cli([...args('--model', 'openai:mock-coder', '--turns', '2'), '--languages', 'typescript'], { OPENAI_API_KEY: KEY });
    expect(run.code).toBe(0);
    // The mock answers any second turn with the reference solution: every failing problem is fixed.
    expect(lines(run.stdout)).toContain('Pass@1 after turn 1: 75.0%');
    expect(lines(run.stdout)).toContain('Pass@1 after turn 2: 100.0%');
    const second = mock.requests.filter((r) => r.kind === 'openai' && r.turn === 2);
    expect(second).toHaveLength(2);
    const recordedAnswers = new Map(readFileSync('bench-data/demo-answers.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; output: string }).map((a) => [a.id, a.output]));
    for (const r of second) {
      const messages = JSON.parse(r.body).messages as Array<{ role: string; content: string }>;
      expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
      expect(messages[2]!.content).toBe(recordedAnswers.get(r.problem!));
      expect(messages[3]!.content).toMatch(/^(Your code did not pass the public tests|Your code passed the public tests but failed the hidden tests)/);
      expect(messages[3]!.content).toMatch(/single Markdown code block\.$/);
      expect(messages[3]!.content).not.toContain('full tests');
      const full = problems.find((p) => p.id === r.problem)!.record.full_test_func;
      expect(messages[3]!.content).not.toContain(full.trim().split('\n').slice(-3).join('\n'));
    }
    expect(new Set(second.map((r) => JSON.parse(r.body).messages[3].content.split(':')[0]))).toEqual(new Set(['Your code did not pass the public tests', 'Your code passed the public tests but failed the hidden tests.\n\nFix the code and give the complete corrected solution in a single Markdown code block.']));
  });

  it('refuses --completion with --turns, and with a provider that is not OpenAI-compatible', async () => {
    const turns = await cli(args('--model', 'openai:mock-base', '--completion', '--turns', '2'), { OPENAI_API_KEY: KEY });
    expect(turns.code).toBe(2);
    expect(turns.stderr).toContain('--completion has no conversation');
    const anthropic = await cli(args('--model', 'anthropic:x', '--completion'), { ANTHROPIC_API_KEY: KEY });
    expect(anthropic.code).toBe(2);
    expect(anthropic.stderr).toContain('--completion needs an OpenAI-compatible server');
  });
});
