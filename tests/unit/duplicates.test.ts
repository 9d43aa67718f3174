/** Records that repeat a question: one id each, a plain report, keep-all or keep-first (issue #19). */
import { describe, expect, it } from 'vitest';
import { problemId } from '../../src/core/ids';
import { compareResults } from '../../src/app/lib/compare';
import { manifest, officialJsonl, resultsJsonl, type RunData } from '../../src/app/lib/exports';
import { applyDuplicateChoice, DuplicateIdError, formatDuplicates, parseDataset, parseDatasetStream } from '../../src/core/records';
import type { Problem } from '../../src/contracts';
import type { AttemptResult } from '../../src/core/results';
import { countsOf } from '../../src/store/types';
import { replayAnswersModel } from '../../src/models/replay';

const record = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ question: 'Q', canonical_solution: 'S', demo_test_func: 'D', full_test_func: 'F', language: 'python', difficulty: 'easy', ...over });

describe('ids of records that share a question', () => {
  it('keeps the content id of a unique question, and of the first copy; later copies get -2, -3 by order', () => {
    const text = [record({ question: 'A', output: '1' }), record({ question: 'B' }), record({ question: 'A', output: '2' }), record({ question: 'A', output: '3' })].join('\n');
    const { problems, duplicates } = parseDataset(text);
    const a = problemId('python', 'A');
    expect(problems.map((p) => p.id)).toEqual([a, problemId('python', 'B'), `${a}-2`, `${a}-3`]);
    expect(duplicates).toEqual([{ contentId: a, lines: [1, 3, 4] }]);
    // Stable: the same file gives the same ids.
    expect(parseDataset(text).problems.map((p) => p.id)).toEqual(problems.map((p) => p.id));
  });

  it('the same language is one question whatever its alias; another language is another question', () => {
    const { problems, duplicates } = parseDataset([record({ language: 'py' }), record({ language: 'Python' }), record({ language: 'ruby' })].join('\n'));
    expect(problems.map((p) => p.id)).toEqual([problemId('python', 'Q'), `${problemId('python', 'Q')}-2`, problemId('ruby', 'Q')]);
    expect(duplicates.map((d) => d.lines)).toEqual([[1, 2]]);
  });

  it('a record keeps its own id or task_id (a whole number too), and derived ids step around them', () => {
    const a = problemId('python', 'Q');
    const { problems, duplicates } = parseDataset([
      record({ id: 'mine' }),
      record({ task_id: 17 }),
      record({ task_id: 'HumanEval/3', id: 'wins' }),
      record(),
      record({ question: 'X', id: `${a}-2` }),
      record(),
    ].join('\n'));
    expect(problems.map((p) => p.id)).toEqual(['mine', '17', 'wins', a, `${a}-2`, `${a}-3`]);
    // Own ids or not, five records hold question Q: the report says so.
    expect(duplicates.map((d) => d.lines)).toEqual([[1, 2, 3, 4, 6]]);
  });

  it('two records claiming one id: a DuplicateIdError naming both lines, from the text and the stream parser', async () => {
    const text = [record({ id: 'p1', question: '1' }), '', record({ id: 'p2', question: '2' }), record({ task_id: 'p1', question: '3' })].join('\n');
    let error: unknown;
    try {
      parseDataset(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DuplicateIdError);
    expect((error as DuplicateIdError).name).toBe('DuplicateIdError');
    expect((error as DuplicateIdError).lines).toEqual([1, 4]);
    expect((error as Error).message).toBe('duplicate id "p1": lines 1 and 4 both carry it (a record\'s id or task_id must be unique)');
    const bytes = new TextEncoder().encode(text);
    await expect(parseDatasetStream((async function* () { yield bytes.subarray(0, 50); yield bytes.subarray(50); })())).rejects.toThrow(DuplicateIdError);
  });

  it('refuses an own id shaped like a sample and turn key, on its line', () => {
    const { problems, errors } = parseDataset([record({ id: 'x#s1#t2' }), record({ question: 'ok' })].join('\n'));
    expect(problems).toHaveLength(1);
    expect(errors.map((e) => e.line)).toEqual([1]);
  });
});

describe('the report and the choice', () => {
  const text = [record({ question: 'A' }), record({ question: 'B' }), record({ question: 'C' }), record({ question: 'A' }), record({ question: 'B' }), record({ question: 'B' })].join('\n');
  const { problems, duplicates } = parseDataset(text);

  it('says plainly which lines repeat which question', () => {
    expect(formatDuplicates(duplicates)).toBe('2 questions appear more than once: lines 1 and 4; lines 2, 5 and 6');
    expect(formatDuplicates(duplicates.slice(0, 1))).toBe('1 question appears more than once: lines 1 and 4');
    expect(formatDuplicates(duplicates, 1)).toBe('2 questions appear more than once: lines 1 and 4; … and 1 more');
    const many = parseDataset(Array.from({ length: 9 }, () => record({ question: 'Z' })).join('\n')).duplicates;
    expect(formatDuplicates(many)).toBe('1 question appears more than once: lines 1, 2, 3, 4, 5, … (9 copies)');
  });

  it('keep-all evaluates every record; keep-first only each question\'s first copy, at its own position', () => {
    expect(applyDuplicateChoice(problems, duplicates, 'keep-all')).toHaveLength(6);
    const first = applyDuplicateChoice(problems, duplicates, 'keep-first');
    expect(first.map((p) => [p.line, p.index])).toEqual([[1, 0], [2, 1], [3, 2]]);
  });

  it('a replay answers file keyed by the new ids answers each copy with its own answer', async () => {
    const model = replayAnswersModel('a.jsonl', problems.map((p, i) => ({ id: p.id, output: `answer ${i}` })));
    const texts = await Promise.all(problems.map((p) => model.answer(p)));
    expect(texts.map((t) => t.text)).toEqual(problems.map((_, i) => `answer ${i}`));
  });
});

describe('exports and comparisons of a run over repeated questions', () => {
  const { problems } = parseDataset([record({ question: 'A', output: 'a1' }), record({ question: 'A', output: 'a2' }), record({ question: 'B', output: 'b' })].join('\n'));
  const result = (p: Problem, verdict: AttemptResult['verdict']): AttemptResult => ({
    id: p.id, index: p.index, language: p.language, difficulty: p.difficulty, answer: String(p.record.output), extractedCode: 'c', extraction: 'e',
    demo: null, full: null, verdict, durationMs: 1, sample: 0, turn: 1,
  });
  const run = (id: string, results: AttemptResult[]): RunData => ({
    run: {
      id, modelId: 'replay', modelLabel: 'replay', source: { kind: 'dataset-output' }, datasetName: 'd.jsonl', datasetSource: 'd.jsonl', mode: 'compat', timeLimitSeconds: null,
      concurrency: 1, problemCount: 3, languages: ['python'], createdAt: 1, startedAt: 1, finishedAt: 2, state: 'done', error: null, counts: countsOf(results),
      duplicates: { choice: 'keep-all', questions: 1, dropped: 0 },
    },
    problems,
    results: new Map(results.map((r) => [r.id, r])),
    answers: new Map(),
  });
  const a = run('a', [result(problems[0]!, 'passed'), result(problems[1]!, 'failed'), result(problems[2]!, 'failed')]);
  const b = run('b', [result(problems[0]!, 'failed'), result(problems[1]!, 'passed'), result(problems[2]!, 'failed')]);

  it('export one line per record under its own id, with its own answer, and the choice in the manifest', () => {
    expect(resultsJsonl(a).trim().split('\n').map((l) => JSON.parse(l)).map((l) => [l.id, l.output, l.verdict])).toEqual([
      [problems[0]!.id, 'a1', 'passed'], [`${problems[0]!.id}-2`, 'a2', 'failed'], [problems[2]!.id, 'b', 'failed'],
    ]);
    expect(officialJsonl(a).trim().split('\n').map((l) => JSON.parse(l).output)).toEqual(['a1', 'a2', 'b']);
    const m = manifest(a, { browser: 'test' }) as { dataset: { duplicates: unknown }; figures: { pass1: { passed: number; total: number } } };
    expect(m.dataset.duplicates).toEqual({ choice: 'keep-all', questions: 1, dropped: 0 });
    expect(m.figures.pass1).toMatchObject({ passed: 1, total: 3 });
  });

  it('a comparison pairs each copy with the same copy: one fixed, one broken', () => {
    const c = compareResults([...a.results.values()], [...b.results.values()]);
    expect({ common: c.common, fixed: c.fixed, broken: c.broken }).toEqual({ common: 3, fixed: 1, broken: 1 });
  });
});
