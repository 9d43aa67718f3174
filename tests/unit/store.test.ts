/** The run store contract, for both implementations (IndexedDB through fake-indexeddb, and memory). */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/contracts';
import { resultKey, type AttemptResult } from '../../src/core/results';
import { emptyCounts, IndexedDbRunStore, MemoryRunStore, type RunRecord, type RunStore } from '../../src/store';

let dbCount = 0;
const implementations: Array<[string, () => Promise<RunStore>]> = [
  ['IndexedDB', () => IndexedDbRunStore.open(`benchtop-test-${++dbCount}`)],
  ['memory', async () => new MemoryRunStore()],
];

const problem = (i: number, language: 'python' | 'javascript' = 'python'): Problem => ({
  id: `p${i}`,
  index: i,
  line: i + 1,
  language,
  difficulty: 'easy',
  record: { question: `q${i}`, canonical_solution: '', demo_test_func: '', full_test_func: '', language, difficulty: 'easy' },
});

const run = (id: string, createdAt: number): RunRecord => ({
  id,
  modelId: 'openai:mock',
  modelLabel: 'mock',
  source: { kind: 'provider', presetId: 'openai', presetName: 'OpenAI', settings: { kind: 'openai', baseUrl: 'http://x/v1', model: 'mock', systemPrompt: 's', stream: true }, keyRequired: true },
  datasetName: 'demo.jsonl',
  datasetSource: 'embedded demo set',
  mode: 'compat',
  timeLimitSeconds: null,
  concurrency: 4,
  problemCount: 3,
  languages: ['python'],
  createdAt,
  startedAt: createdAt,
  finishedAt: null,
  state: 'running',
  error: null,
  counts: emptyCounts(),
});

const result = (p: Problem, verdict: AttemptResult['verdict'], inputTokens = 10): AttemptResult => ({
  id: p.id, index: p.index, language: p.language, difficulty: p.difficulty, answer: 'a', extractedCode: 'c', extraction: 'e',
  demo: null, full: null, verdict, durationMs: 1, usage: { inputTokens, outputTokens: 5 },
});

describe.each(implementations)('%s run store', (_name, open) => {
  it('keeps runs, problems, answers and results, and counts results as they are stored', async () => {
    const store = await open();
    const problems = [problem(0), problem(1), problem(2, 'javascript')];
    await store.createRun(run('a', 1), problems);
    await store.createRun(run('b', 2), problems.slice(0, 1));
    expect((await store.listRuns()).map((r) => r.id)).toEqual(['b', 'a']);
    expect(await store.problems('a')).toEqual(problems);

    await store.putAnswer('a', 'p0', { output: 'answer 0', usage: { inputTokens: 10, outputTokens: 5 }, receivedAt: 5 });
    expect((await store.answers('a')).get('p0')?.output).toBe('answer 0');
    expect((await store.answers('b')).size).toBe(0);

    await store.putResult('a', result(problems[0]!, 'passed'));
    await store.putResult('a', result(problems[1]!, 'infra_error', 0));
    let counts = (await store.getRun('a'))!.counts;
    expect(counts).toMatchObject({ evaluated: 2, counted: 1, passed: 1, infraErrors: 1, inputTokens: 10 });

    // Retrying the infra error replaces its result and its contribution to the counts.
    await store.putResult('a', result(problems[1]!, 'failed', 7));
    counts = (await store.getRun('a'))!.counts;
    expect(counts).toMatchObject({ evaluated: 2, counted: 2, passed: 1, infraErrors: 0, inputTokens: 17 });
    expect((await store.results('a')).map((r) => r.verdict).sort()).toEqual(['failed', 'passed']);

    const updated = await store.updateRun('a', { state: 'done', finishedAt: 9 });
    expect(updated.state).toBe('done');
    expect(updated.counts.evaluated).toBe(2);

    await store.deleteRun('a');
    expect(await store.getRun('a')).toBeUndefined();
    expect(await store.results('a')).toEqual([]);
    expect((await store.answers('a')).size).toBe(0);
    expect(await store.problems('a')).toEqual([]);
    expect((await store.listRuns()).map((r) => r.id)).toEqual(['b']);
  });

  it('keys results and answers by (run, problem, sample, turn); the counts are of first attempts, the tokens of all', async () => {
    const store = await open();
    const p = problem(0);
    await store.createRun(run('m', 1), [p]);
    const attempt = (sample: number, turn: number, verdict: AttemptResult['verdict']): AttemptResult => ({ ...result(p, verdict, 1), sample, turn });
    await store.putResult('m', attempt(0, 1, 'failed'));
    await store.putResult('m', attempt(0, 2, 'passed'));
    await store.putResult('m', attempt(1, 1, 'passed'));
    // Stored again (a retry): replaced, not added.
    await store.putResult('m', attempt(0, 2, 'passed'));
    const results = await store.results('m');
    expect(results.map((r) => [r.sample, r.turn, r.verdict]).sort()).toEqual([[0, 1, 'failed'], [0, 2, 'passed'], [1, 1, 'passed']]);
    expect((await store.getRun('m'))!.counts).toMatchObject({ evaluated: 1, counted: 1, passed: 0, attempts: 3, inputTokens: 3 });

    await store.putAnswer('m', resultKey(p.id, 0, 1), { output: 'first', receivedAt: 1 });
    await store.putAnswer('m', resultKey(p.id, 1, 2), { output: 'second sample, second turn', receivedAt: 2 });
    const answers = await store.answers('m');
    expect(answers.get(p.id)?.output).toBe('first');
    expect(answers.get(`${p.id}#s1#t2`)?.output).toBe('second sample, second turn');
  });

  it('refuses a result for a run that does not exist', async () => {
    const store = await open();
    await expect(store.putResult('nope', result(problem(0), 'passed'))).rejects.toThrow(/no run/);
  });
});

describe('IndexedDB runs stored before samples and turns', () => {
  it('reads back as single-attempt runs: rows keyed by the bare problem id, results without sample or turn', async () => {
    const name = `benchtop-old-${++dbCount}`;
    // The database as version 1 of the app wrote it (the same schema, rows without sample/turn).
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(name, 1);
      request.onupgradeneeded = () => {
        const db = request.result;
        db.createObjectStore('runs', { keyPath: 'id' });
        db.createObjectStore('problems', { keyPath: 'runId' });
        db.createObjectStore('answers', { keyPath: ['runId', 'problemId'] }).createIndex('runId', 'runId');
        db.createObjectStore('results', { keyPath: ['runId', 'problemId'] }).createIndex('runId', 'runId');
      };
      request.onsuccess = () => {
        const db = request.result;
        const tx = db.transaction(['runs', 'problems', 'answers', 'results'], 'readwrite');
        const { attempts: _none, ...oldCounts } = { ...emptyCounts(), evaluated: 1, counted: 1, passed: 1 };
        tx.objectStore('runs').put({ ...run('old', 1), counts: oldCounts, state: 'done' });
        tx.objectStore('problems').put({ runId: 'old', problems: [problem(0)] });
        tx.objectStore('answers').put({ runId: 'old', problemId: 'p0', answer: { output: 'old answer', receivedAt: 1 } });
        tx.objectStore('results').put({ runId: 'old', problemId: 'p0', result: result(problem(0), 'passed') });
        tx.oncomplete = () => (db.close(), resolve());
        tx.onerror = () => reject(tx.error);
      };
      request.onerror = () => reject(request.error);
    });
    const store = await IndexedDbRunStore.open(name);
    const [stored] = await store.results('old');
    expect(stored).toMatchObject({ id: 'p0', verdict: 'passed' });
    expect(stored!.sample ?? 0).toBe(0);
    expect(stored!.turn ?? 1).toBe(1);
    expect((await store.answers('old')).get(resultKey('p0'))?.output).toBe('old answer');
    // Retrying it replaces the same row.
    await store.putResult('old', { ...result(problem(0), 'failed'), sample: 0, turn: 1 });
    expect(await store.results('old')).toHaveLength(1);
    expect((await store.getRun('old'))!.counts).toMatchObject({ evaluated: 1, counted: 1, passed: 0 });
    store.close();
  });
});
