/**
 * `npm run eval` over records that repeat a question (issue #19): each record evaluated and
 * counted once, under its own id; keep-first; own ids and a clash between them; a killed run
 * resumed without asking any record twice. The expected verdicts are the demo set's recorded
 * ones (bench-data/demo-answers.jsonl, checked against the real runtimes by demo.test.ts).
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemId } from '../../src/core/ids';
import { parseDataset } from '../../src/core/records';
import type { Problem } from '../../src/contracts';
import { startMockProvider, type MockProvider } from '../support/mock-provider';
import { tempDirs } from '../support/temp-dirs';

interface CliRun { code: number | null; stdout: string; stderr: string }

const KEY = 'sk-mock-dup-5c1e9a7b3d20';
function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_API_KEY: KEY };
  delete e.OPENAI_API_KEY;
  delete e.GEMINI_API_KEY;
  return e;
}
function cli(...args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['dist-node/cli.mjs', ...args], { timeout: 300_000, env: env() }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);
const jsonl = (file: string) => readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
const tmp = tempDirs('benchtop-dup-')();
const write = (name: string, records: object[]) => {
  const file = join(tmp, name);
  writeFileSync(file, records.map((r) => JSON.stringify(r) + '\n').join(''));
  return file;
};

// JavaScript problems of the demo set (a quick in-process runtime), with their recorded verdicts.
const demo = parseDataset(readFileSync('bench-data/demo.jsonl', 'utf8')).problems.filter((p) => p.language === 'javascript');
const recorded = new Map(readFileSync('bench-data/demo-answers.jsonl', 'utf8').trim().split('\n')
  .map((l) => JSON.parse(l) as { id: string; expected: { demo: string; full: string } }).map((a) => [a.id, a.expected]));
const passes = (p: Problem) => recorded.get(p.id)!.demo === 'PASSED' && recorded.get(p.id)!.full === 'PASSED';
const base = demo[0]!;
const { output: _o, ...plain } = base.record;
/** The reference solution as a model would answer: it passes. */
const good = { ...plain, output: `\`\`\`javascript\n${base.record.canonical_solution}\n\`\`\`` };
/** No code at all: it fails. */
const bad = { ...plain, output: 'I cannot solve this.' };
const contentId = problemId('javascript', base.record.question);

describe('npm run eval over repeated questions', () => {
  it('two records with one question and different answers: Pass@1 50.0% (1/2), two result rows with their own ids', async () => {
    const data = write('two.jsonl', [good, bad]);
    const out = join(tmp, 'two-out.jsonl');
    const run = await cli('--data', data, '--model', 'replay', '--out', out);
    expect(run.code).toBe(0);
    expect(lastLine(run.stdout)).toBe('Pass@1: 50.0% (1/2)');
    expect(run.stderr).toContain('1 question appears more than once: lines 1 and 2');
    const rows = jsonl(out);
    expect(rows.map((r) => [r.id, r.verdict])).toEqual([[contentId, 'passed'], [`${contentId}-2`, 'failed']]);
    const manifest = JSON.parse(readFileSync(`${out}.manifest.json`, 'utf8'));
    expect(manifest.dataset.duplicates).toEqual({ choice: 'keep-all', questions: 1, dropped: 0 });
    expect(manifest.figures.pass1).toMatchObject({ passed: 1, total: 2 });
  });

  it('three copies: each counted once; an answers file keyed by the new ids replays the same; keep-first keeps one', async () => {
    const data = write('three.jsonl', [good, bad, good]);
    const out = join(tmp, 'three-out.jsonl');
    const all = await cli('--data', data, '--model', 'replay', '--out', out);
    expect(all.code).toBe(0);
    expect(lastLine(all.stdout)).toBe('Pass@1: 66.7% (2/3)');
    expect(all.stderr).toContain('lines 1, 2 and 3');
    expect(jsonl(out).map((r) => [r.id, r.verdict])).toEqual([[contentId, 'passed'], [`${contentId}-2`, 'failed'], [`${contentId}-3`, 'passed']]);

    // The --out file as a replay answers file: matched by id, each copy gets its own answer.
    const answers = write('three-answers.jsonl', jsonl(out).map((r) => ({ id: r.id, output: r.output })).reverse());
    const replayed = await cli('--data', data, '--model', `replay:${answers}`);
    expect(replayed.code).toBe(0);
    expect(lastLine(replayed.stdout)).toBe('Pass@1: 66.7% (2/3)');

    const firstOut = join(tmp, 'three-first.jsonl');
    const first = await cli('--data', data, '--model', 'replay', '--duplicates', 'keep-first', '--out', firstOut);
    expect(first.code).toBe(0);
    expect(lastLine(first.stdout)).toBe('Pass@1: 100.0% (1/1)');
    expect(first.stderr).toContain('only the first copy is kept: 2 record(s) left out');
    expect(jsonl(firstOut).map((r) => r.id)).toEqual([contentId]);
    expect(JSON.parse(readFileSync(`${firstOut}.manifest.json`, 'utf8')).dataset.duplicates).toEqual({ choice: 'keep-first', questions: 1, dropped: 2 });

    const wrong = await cli('--data', data, '--model', 'replay', '--duplicates', 'drop');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--duplicates must be keep-all or keep-first');
  });

  it('records with their own id or task_id keep it; two claiming one id stop the run naming both lines', async () => {
    const data = write('own.jsonl', [{ ...good, task_id: 'JS/7' }, { ...bad, id: 'mine' }, { ...good, task_id: 12 }]);
    const out = join(tmp, 'own-out.jsonl');
    const run = await cli('--data', data, '--model', 'replay', '--out', out);
    expect(run.code).toBe(0);
    expect(lastLine(run.stdout)).toBe('Pass@1: 66.7% (2/3)');
    expect(jsonl(out).map((r) => [r.id, r.verdict])).toEqual([['JS/7', 'passed'], ['mine', 'failed'], ['12', 'passed']]);

    const clash = write('clash.jsonl', [{ ...good, id: 'p1' }, { ...good, question: 'Another', id: 'p2' }, { ...bad, task_id: 'p1' }]);
    const refused = await cli('--data', clash, '--model', 'replay');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`error: ${clash}: duplicate id "p1": lines 1 and 3 both carry it`);
    expect(refused.stdout).not.toContain('Pass@1');
  });
});

describe('a journal written before copies had ids of their own', () => {
  it('continues: the shared id\'s stored result stays with the first copy, the later copy is evaluated', async () => {
    const data = write('old-journal.jsonl', [good, bad]);
    const out = join(tmp, 'old-journal-out.jsonl');
    // What the earlier CLI journalled for the first copy before it was killed (one id for both copies).
    const entries = [
      { type: 'run', model: 'replay', data, started: '2026-11-30T10:00:00.000Z' },
      { type: 'answer', id: contentId, output: good.output },
      { type: 'result', id: contentId, extracted_code: base.record.canonical_solution, demo_outcome: 'PASSED', full_outcome: 'PASSED', passed: true, verdict: 'passed', runtime: 'QuickJS-ng', duration_ms: 5 },
    ];
    writeFileSync(`${out}.journal.jsonl`, entries.map((e) => JSON.stringify(e) + '\n').join(''));
    const run = await cli('--data', data, '--model', 'replay', '--out', out, '--resume');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('continuing: 1 result(s) kept, 1 to evaluate');
    expect(lastLine(run.stdout)).toBe('Pass@1: 50.0% (1/2)');
    expect(jsonl(out).map((r) => [r.id, r.verdict])).toEqual([[contentId, 'passed'], [`${contentId}-2`, 'failed']]);
  });
});

describe('a killed run over repeated questions, resumed', () => {
  let mock: MockProvider;
  beforeAll(async () => {
    mock = await startMockProvider({ apiKey: KEY });
  });
  afterAll(() => mock.close());

  it('asks no record twice once its answer is journalled, and ends with every record counted once', { timeout: 300_000 }, async () => {
    // Four questions, three copies each, interleaved: twelve records.
    const four = demo.slice(0, 4);
    const records = [0, 1, 2].flatMap(() => four.map((p) => { const { output: _x, ...r } = p.record; return r; }));
    const data = write('killed.jsonl', records);
    const problems = parseDataset(readFileSync(data, 'utf8')).problems;
    expect(new Set(problems.map((p) => p.id)).size).toBe(12);
    const out = join(tmp, 'killed-out.jsonl');
    const journalFile = `${out}.journal.jsonl`;
    const args = ['--data', data, '--model', 'anthropic:mock-coder', '--base-url', mock.baseUrl('anthropic'), '--timeout', '3', '--out', out];
    mock.inject({ problem: '*', fault: { kind: 'slow', delayMs: 150 }, times: Infinity });
    const answered = (): string[] => (existsSync(journalFile) ? jsonl(journalFile).filter((e) => e.type === 'answer').map((e) => e.id as string) : []);

    const target = 2 + Math.floor(Math.random() * 7);
    console.log(`killing the CLI after ${target} journalled answers`);
    const child = spawn(process.execPath, ['dist-node/cli.mjs', ...args], { env: env(), stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_, signal) => resolve(signal)));
    const deadline = Date.now() + 120_000;
    while (answered().length < target && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const before = answered();
    expect(before.length).toBeGreaterThanOrEqual(target);
    expect(before.length).toBeLessThan(12);
    // Journalled under the records' own ids: copies of one question are told apart.
    expect(new Set(before).size).toBe(before.length);
    for (const id of before) expect(problems.some((p) => p.id === id)).toBe(true);

    mock.reset();
    const resumed = await cli(...args, '--resume');
    expect(resumed.code).toBe(0);
    // Per question, the resumed run asks exactly for its copies without a journalled answer.
    for (const p of four) {
      const copies = problems.filter((c) => c.record.question === p.record.question).map((c) => c.id);
      expect(copies).toHaveLength(3);
      expect(mock.countFor(p.id), p.id).toBe(copies.filter((id) => !before.includes(id)).length);
    }
    const passed = four.filter(passes).length * 3;
    expect(lastLine(resumed.stdout)).toBe(`Pass@1: ${((passed / 12) * 100).toFixed(1)}% (${passed}/12)`);
    const rows = jsonl(out);
    expect(rows.map((r) => r.id)).toEqual(problems.map((p) => p.id));
    for (const r of rows) {
      const original = four.find((p) => p.record.question === r.question)!;
      expect({ demo: r.demo_outcome, full: r.full_outcome }).toEqual(recorded.get(original.id));
    }
  });
});
