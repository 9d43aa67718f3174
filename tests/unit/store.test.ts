/** The run store contract, for both implementations (IndexedDB through fake-indexeddb, and memory). */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/core/records';
import type { ProblemResult } from '../../src/core/results';
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

const result = (p: Problem, verdict: ProblemResult['verdict'], inputTokens = 10): ProblemResult => ({
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

  it('refuses a result for a run that does not exist', async () => {
    const store = await open();
    await expect(store.putResult('nope', result(problem(0), 'passed'))).rejects.toThrow(/no run/);
  });
});
