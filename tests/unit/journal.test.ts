/** The run journal and continuing a run (src/cli/journal.ts, src/cli/resume.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDataset } from '../../src/core/records';
import { journalLog, readJournal, readOutFile } from '../../src/cli/journal';
import type { ResultFields } from '../../src/core/result-file';
import { openRun, planRun, ResumeError } from '../../src/cli/resume';
import { recordedModel } from '../../src/models/recorded';
import type { AnswerSource } from '../../src/contracts';
import { tempDirs } from '../support/temp-dirs';

const problems = parseDataset(readFileSync('bench-data/demo.jsonl', 'utf8')).problems.slice(0, 3);
const [a, b, c] = problems.map((p) => p.id) as [string, string, string];
const fields = (verdict: ResultFields['verdict']): ResultFields => ({
  extracted_code: 'x', demo_outcome: verdict === 'infra_error' ? 'INFRA_ERROR' : 'PASSED', full_outcome: verdict === 'infra_error' ? 'INFRA_ERROR' : 'PASSED',
  passed: verdict === 'passed', verdict, runtime: null, duration_ms: 1,
});
const line = (o: object) => JSON.stringify(o) + '\n';
const dir = tempDirs('benchtop-journal-');

describe('reading a journal', () => {
  it('later lines win, a line cut by a kill is skipped, and an end line marks the run finished', () => {
    const text = line({ type: 'run', model: 'openai:m' }) + line({ type: 'answer', id: a, output: 'one', usage: { input_tokens: 1, output_tokens: 2 } })
      + line({ type: 'result', id: a, ...fields('infra_error') }) + line({ type: 'result', id: a, ...fields('passed') }) + '{"type":"answer","id":"' + b + '","out';
    const run = readJournal(text);
    expect(run.model).toBe('openai:m');
    expect(run.answers.get(a)).toEqual({ output: 'one', usage: { inputTokens: 1, outputTokens: 2 } });
    expect(run.results.get(a)!.verdict).toBe('passed');
    expect(run.answers.has(b)).toBe(false);
    expect(run.unreadable).toBe(1);
    expect(run.finished).toBe(false);
    expect(readJournal(text.slice(0, text.lastIndexOf('\n') + 1) + line({ type: 'end' })).finished).toBe(true);
  });

  it('reads an --out file as a finished run', () => {
    const run = readOutFile(line({ question: 'q', id: a, output: 'ans', ...fields('failed') }) + line({ question: 'q', id: b, ...fields('infra_error') }));
    expect(run.answers.get(a)!.output).toBe('ans');
    expect(run.answers.has(b)).toBe(false);
    expect(run.results.get(b)!.verdict).toBe('infra_error');
    expect(run.finished).toBe(true);
  });
});

describe('planning a continued run', () => {
  const prior = readJournal(line({ type: 'result', id: a, ...fields('passed') }) + line({ type: 'result', id: b, ...fields('infra_error') }));
  it('--resume keeps every stored result and evaluates the rest', () => {
    const plan = planRun(problems, prior, false);
    expect([...plan.reused.keys()]).toEqual([a, b]);
    expect(plan.todo.map((p) => p.id)).toEqual([c]);
  });
  it('--retry-errors also re-runs INFRA_ERROR results', () => {
    expect(planRun(problems, prior, true).todo.map((p) => p.id)).toEqual([b, c]);
  });
});

describe('opening a run', () => {
  const header = { model: 'openai:m', data: 'demo.jsonl' };

  it('refuses to start afresh over an unfinished journal, and to continue another model\'s run', async () => {
    const out = join(dir(), 'r.jsonl');
    writeFileSync(`${out}.journal.jsonl`, line({ type: 'run', model: 'openai:m' }));
    await expect(openRun(out, header, false)).resolves.toBeDefined();
    writeFileSync(`${out}.journal.jsonl`, line({ type: 'run', model: 'openai:m' }) + line({ type: 'answer', id: a, output: 'x' }));
    await expect(openRun(out, header, false)).rejects.toThrow(/unfinished run/);
    await expect(openRun(out, { ...header, model: 'gemini:x' }, true)).rejects.toThrow(/is a run of openai:m, not gemini:x/);
    await expect(openRun(join(dir(), 'none.jsonl'), header, true)).rejects.toBeInstanceOf(ResumeError);
  });

  it('continuing from an --out file alone copies its state into a new journal', async () => {
    const out = join(dir(), 'r.jsonl');
    writeFileSync(out, line({ question: 'q', id: a, output: 'ans', ...fields('passed') }));
    const { prior, journal } = await openRun(out, header, true);
    await journal.flush();
    expect(prior!.results.get(a)!.verdict).toBe('passed');
    const copied = readJournal(readFileSync(`${out}.journal.jsonl`, 'utf8'));
    expect(copied.model).toBe('openai:m');
    expect(copied.answers.get(a)!.output).toBe('ans');
    expect(copied.results.get(a)!.verdict).toBe('passed');
  });

  it('the journaled model answers from the journal, and journals a new answer before returning it', async () => {
    const out = join(dir(), 'r.jsonl');
    const { journal } = await openRun(out, header, false);
    const asked: string[] = [];
    const inner: AnswerSource = { id: 'openai:m', answer: async (p) => (asked.push(p.id), { text: `answer ${p.id}`, usage: { inputTokens: 3, outputTokens: 4 } }) };
    const prior = readJournal(line({ type: 'answer', id: a, output: 'stored' }));
    const model = recordedModel(inner, journalLog(journal, prior));
    expect((await model.answer(problems[0]!)).text).toBe('stored');
    const fresh = await model.answer(problems[1]!);
    expect(asked).toEqual([b]);
    // Already on disk when the answer is handed back.
    const onDisk = readJournal(readFileSync(`${out}.journal.jsonl`, 'utf8'));
    expect(onDisk.answers.get(b)).toEqual({ output: fresh.text, usage: { inputTokens: 3, outputTokens: 4 } });
  });
});
