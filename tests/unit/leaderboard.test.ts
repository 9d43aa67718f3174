/** The leaderboard of stored runs (src/app/lib/leaderboard.ts): rows, best per column, sorting. */
import { describe, expect, it } from 'vitest';
import type { LanguageId } from '../../src/contracts';
import type { AttemptResult } from '../../src/core/results';
import { boardDatasets, buildLeaderboard, cellOf, sortRows, type StoredRunResults } from '../../src/app/lib/leaderboard';
import { emptyCounts, type RunRecord } from '../../src/store/types';

const runOf = (id: string, modelId: string, createdAt: number, extra: Partial<RunRecord> = {}): RunRecord => ({
  id, modelId, modelLabel: modelId, source: { kind: 'canonical' }, datasetName: 'demo.jsonl', datasetSource: 'embedded demo set',
  mode: 'compat', timeLimitSeconds: null, concurrency: 2, problemCount: 4, languages: ['python', 'javascript'],
  createdAt, startedAt: createdAt, finishedAt: createdAt + 1, state: 'done', error: null, counts: emptyCounts(), ...extra,
});
let n = 0;
const res = (language: LanguageId, verdict: AttemptResult['verdict'], extra: Partial<AttemptResult> = {}): AttemptResult => ({
  id: `p${n++}`, index: n, language, difficulty: 'easy', answer: null, extractedCode: '', extraction: '', demo: null, full: null, verdict, durationMs: 1, ...extra,
});

/** python 1/2, javascript 2/2 → overall 3/4 (problems py1, py2, js1, js2) */
const a: StoredRunResults = {
  run: runOf('a', 'model-a', 1),
  results: [res('python', 'passed', { id: 'py1' }), res('python', 'failed', { id: 'py2' }), res('javascript', 'passed', { id: 'js1' }), res('javascript', 'passed', { id: 'js2' })],
};
/** python 2/2, javascript 0/2 → overall 2/4; a second sample and a later turn do not change Pass@1 */
const b: StoredRunResults = {
  run: runOf('b', 'model-b', 2, { samples: 2, turns: 2 }),
  results: [
    res('python', 'passed', { id: 'py1' }), res('python', 'passed', { id: 'py2' }), res('javascript', 'failed', { id: 'js1' }), res('javascript', 'failed', { id: 'js2' }),
    res('javascript', 'passed', { id: 'js1', sample: 0, turn: 2 }), res('javascript', 'passed', { id: 'js1', sample: 1, turn: 1 }),
  ],
};
/** An older run of model-a on one of the problems: left out unless every run is asked for. */
const a0: StoredRunResults = { run: runOf('a0', 'model-a', 0), results: [res('python', 'passed', { id: 'py1' })] };
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

  it('marks every row on a tie among figures on the same problems, and can show every run', () => {
    const b2: StoredRunResults = { run: runOf('b2', 'model-b2', 5), results: b.results };
    const board = buildLeaderboard([a, b, b2, a0], 'demo.jsonl', true);
    expect(board.rows).toHaveLength(4);
    expect(board.best.python!.sort()).toEqual(['b', 'b2']);
  });

  it('never lets a smaller run stand in for a fuller one, and marks figures on other problems (issue #17)', () => {
    // A later run of model-a on one Python problem (100%): model-a's row stays the full run.
    const later: StoredRunResults = { run: runOf('later', 'model-a', 10), results: [res('python', 'passed', { id: 'py1' })] };
    const board = buildLeaderboard([a, b, later], 'demo.jsonl');
    expect(board.rows.map((r) => r.runId).sort()).toEqual(['a', 'b']);
    expect(board.older).toBe(1);
    const row = (id: string) => board.rows.find((r) => r.runId === id)!;
    expect(row('a')).toMatchObject({ problems: 4, languages: ['javascript', 'python'], coverage: 'full', referenceProblems: 4 });

    // Shown side by side, the subset run is marked and its 100% is not the best of any column.
    const other: StoredRunResults = { run: runOf('other', 'model-c', 11), results: [res('python', 'passed', { id: 'py9' }), res('javascript', 'passed', { id: 'js1' }), res('javascript', 'passed', { id: 'js2' }), res('python', 'passed', { id: 'py1' })] };
    const every = buildLeaderboard([a, b, later, other], 'demo.jsonl', true);
    const r = (id: string) => every.rows.find((x) => x.runId === id)!;
    expect(r('later')).toMatchObject({ problems: 1, coverage: 'subset', referenceProblems: 4, comparable: { overall: false, python: false } });
    // Four problems too, but not the same four: a different set, not compared overall or in Python.
    expect(r('other')).toMatchObject({ problems: 4, coverage: 'different', comparable: { overall: false, python: false, javascript: true } });
    expect(r('a').comparable).toEqual({ overall: true, python: true, javascript: true });
    expect(every.best.overall).toEqual(['a']);
    expect(every.best.javascript!.sort()).toEqual(['a', 'other']);
    expect(every.best.python).toEqual(['b']);
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
