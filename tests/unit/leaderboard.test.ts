/** The leaderboard of stored runs (src/app/lib/leaderboard.ts): rows, best per column, sorting. */
import { describe, expect, it } from 'vitest';
import type { LanguageId } from '../../src/core/languages';
import type { ProblemResult } from '../../src/core/results';
import { boardDatasets, buildLeaderboard, cellOf, sortRows, type StoredRunResults } from '../../src/app/lib/leaderboard';
import { emptyCounts, type RunRecord } from '../../src/store/types';

const runOf = (id: string, modelId: string, createdAt: number, extra: Partial<RunRecord> = {}): RunRecord => ({
  id, modelId, modelLabel: modelId, source: { kind: 'canonical' }, datasetName: 'demo.jsonl', datasetSource: 'embedded demo set',
  mode: 'compat', timeLimitSeconds: null, concurrency: 2, problemCount: 4, languages: ['python', 'javascript'],
  createdAt, startedAt: createdAt, finishedAt: createdAt + 1, state: 'done', error: null, counts: emptyCounts(), ...extra,
});
let n = 0;
const res = (language: LanguageId, verdict: ProblemResult['verdict'], extra: Partial<ProblemResult> = {}): ProblemResult => ({
  id: `p${n++}`, index: n, language, difficulty: 'easy', answer: null, extractedCode: '', extraction: '', demo: null, full: null, verdict, durationMs: 1, ...extra,
});

/** python 1/2, javascript 2/2 → overall 3/4 */
const a: StoredRunResults = { run: runOf('a', 'model-a', 1), results: [res('python', 'passed'), res('python', 'failed'), res('javascript', 'passed'), res('javascript', 'passed')] };
/** python 2/2, javascript 0/2 → overall 2/4; a second sample and a later turn do not change Pass@1 */
const b: StoredRunResults = {
  run: runOf('b', 'model-b', 2, { samples: 2, turns: 2 }),
  results: [
    res('python', 'passed'), res('python', 'passed'), res('javascript', 'failed', { id: 'js1' }), res('javascript', 'failed'),
    res('javascript', 'passed', { id: 'js1', sample: 0, turn: 2 }), res('javascript', 'passed', { id: 'js1', sample: 1, turn: 1 }),
  ],
};
/** An older run of model-a: left out unless every run is asked for. */
const a0: StoredRunResults = { run: runOf('a0', 'model-a', 0), results: [res('python', 'passed')] };
/** Another dataset. */
const other: StoredRunResults = { run: runOf('o', 'model-a', 3, { datasetName: 'lite.jsonl' }), results: [res('python', 'passed')] };

describe('leaderboard', () => {
  it('shows the newest run of each model on the dataset, Pass@1 of first attempts, and marks the best per column', () => {
    const board = buildLeaderboard([a, b, a0, other], 'demo.jsonl');
    expect(board.rows.map((r) => r.runId).sort()).toEqual(['a', 'b']);
    expect(board.older).toBe(1);
    expect(board.languages).toEqual(['javascript', 'python']);
    const row = (id: string) => board.rows.find((r) => r.runId === id)!;
    expect(cellOf(row('a'), 'overall')).toEqual({ pass1: 0.75, passed: 3, total: 4 });
    expect(cellOf(row('b'), 'overall')).toEqual({ pass1: 0.5, passed: 2, total: 4 });
    expect(cellOf(row('b'), 'javascript')).toEqual({ pass1: 0, passed: 0, total: 2 });
    expect(row('b').settings).toBe('n=2 · 2 turns');
    expect(board.best).toEqual({ overall: ['a'], javascript: ['a'], python: ['b'] });
  });

  it('marks every row on a tie, and can show every run', () => {
    const board = buildLeaderboard([a, b, a0], 'demo.jsonl', true);
    expect(board.rows).toHaveLength(3);
    expect(board.best.python!.sort()).toEqual(['a0', 'b']);
  });

  it('sorts by a column, best first or last, rows without a figure last', () => {
    const c: StoredRunResults = { run: runOf('c', 'model-c', 4), results: [res('python', 'failed')] };
    const board = buildLeaderboard([a, b, c], 'demo.jsonl');
    expect(sortRows(board.rows, 'javascript').map((r) => r.runId)).toEqual(['a', 'b', 'c']);
    expect(sortRows(board.rows, 'javascript', true).map((r) => r.runId)).toEqual(['b', 'a', 'c']);
    expect(sortRows(board.rows, 'python').map((r) => r.runId)).toEqual(['b', 'a', 'c']);
    expect(sortRows(board.rows, null, true).map((r) => r.modelLabel)).toEqual(['model-a', 'model-b', 'model-c']);
  });

  it('lists the datasets of the stored runs, most runs first', () => {
    expect(boardDatasets([a.run, b.run, a0.run, other.run])).toEqual([{ name: 'demo.jsonl', runs: 3 }, { name: 'lite.jsonl', runs: 1 }]);
  });
});
