/**
 * Runs stored before records that repeat a question got ids of their own (issue #19), in
 * IndexedDB (fake-indexeddb): they open, say whether their figures stand, and continue.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { problemId } from '../../src/core/ids';
import { parseDataset } from '../../src/core/records';
import type { Problem } from '../../src/contracts';
import type { AttemptResult } from '../../src/core/results';
import { alignResults, describeLegacy, emptyCounts, IndexedDbRunStore, legacyIds, type RunRecord } from '../../src/store';

const line = (question: string, output: string) =>
  JSON.stringify({ question, canonical_solution: 'S', demo_test_func: 'D', full_test_func: 'F', language: 'python', difficulty: 'easy', output });
/** A file with question A twice (lines 1 and 3). */
const file = [line('A', 'first'), line('B', 'b'), line('A', 'second')].join('\n');
const A = problemId('python', 'A');
const B = problemId('python', 'B');

/** The problems as the loader gave them before the change: the content id alone. */
const oldProblems = (text: string): Problem[] => parseDataset(text).problems.map((p) => ({ ...p, id: problemId(p.language, p.record.question) }));

const record = (id: string, extra: Partial<RunRecord> = {}): RunRecord => ({
  id, modelId: 'replay', modelLabel: 'replay', source: { kind: 'dataset-output' }, datasetName: 'd.jsonl', datasetSource: 'd.jsonl', mode: 'compat',
  timeLimitSeconds: null, concurrency: 2, problemCount: 3, languages: ['python'], createdAt: 1, startedAt: 1, finishedAt: 2, state: 'done', error: null,
  counts: emptyCounts(), ...extra,
});
const result = (p: Problem, verdict: AttemptResult['verdict']): AttemptResult => ({
  id: p.id, index: p.index, language: p.language, difficulty: p.difficulty, answer: String(p.record.output), extractedCode: '', extraction: 'e',
  demo: null, full: null, verdict, durationMs: 1, sample: 0, turn: 1,
});

describe('a run stored before records had ids of their own', () => {
  it('with a shared id: opens with the later copy renamed as a load names it today, says the figures were wrong, and continues', async () => {
    const name = 'benchtop-legacy-shared';
    let store = await IndexedDbRunStore.open(name);
    const old = oldProblems(file);
    expect(old.map((p) => p.id)).toEqual([A, B, A]);
    await store.createRun(record('old'), old);
    // As the old page stored them: the copies' results under one key, the last written standing.
    for (const [p, verdict] of [[old[0]!, 'passed'], [old[1]!, 'failed'], [old[2]!, 'failed']] as const) await store.putResult('old', result(p, verdict));
    expect(await store.results('old')).toHaveLength(2);
    store.close();

    store = await IndexedDbRunStore.open(name);
    const run = (await store.getRun('old'))!;
    const { problems, legacy } = legacyIds(run, await store.problems('old'));
    // The ids a load of the same file gives today: stored results keep matching their first copies.
    expect(problems.map((p) => p.id)).toEqual(parseDataset(file).problems.map((p) => p.id));
    expect(problems.map((p) => p.id)).toEqual([A, B, `${A}-2`]);
    expect(legacy).toEqual({ shared: true, ids: 1, renamed: [`${A}-2`] });
    let evaluated = new Set((await store.results('old')).map((r) => r.id));
    expect(describeLegacy(legacy, (id) => evaluated.has(id))).toBe(
      'Stored before records that repeat a question got ids of their own: 1 id was shared by several records, so one stored result stood for all their copies and the figures stored then were wrong. '
        + 'The later copy now has its own id and no result yet: continue the run to evaluate it.',
    );
    expect(run.counts).toMatchObject({ evaluated: 2, counted: 2 });
    // The result under the shared id was written last by the later copy (position 2): it now
    // stands for the first copy, under whose id it is, and takes that copy's position.
    const stored = await store.results('old');
    expect(stored.find((r) => r.id === A)!.index).toBe(2);
    const aligned = new Map(alignResults(problems, stored).map((r) => [r.id, r.index]));
    expect(aligned).toEqual(new Map([[A, 0], [B, 1]]));

    // Continuing evaluates the renamed copy under its own key; the run then counts three records.
    await store.putResult('old', result(problems[2]!, 'passed'));
    const after = await store.results('old');
    expect(after.map((r) => r.id).sort()).toEqual([A, `${A}-2`, B].sort());
    expect((await store.getRun('old'))!.counts).toMatchObject({ evaluated: 3, counted: 3, passed: 1 });
    evaluated = new Set(after.map((r) => r.id));
    expect(describeLegacy(legacy, (id) => evaluated.has(id))).toMatch(/The later copy now has its own id, and a result\.$/);
    // Opened again: the same renaming, so nothing is evaluated twice.
    expect(legacyIds((await store.getRun('old'))!, await store.problems('old')).problems.map((p) => p.id)).toEqual([A, B, `${A}-2`]);
    store.close();
  });

  it('with distinct ids: opens unchanged and says its figures stand', async () => {
    const store = await IndexedDbRunStore.open('benchtop-legacy-unique');
    const unique = oldProblems([line('A', 'a'), line('B', 'b')].join('\n'));
    await store.createRun(record('u'), unique);
    const { problems, legacy } = legacyIds((await store.getRun('u'))!, await store.problems('u'));
    expect(problems).toEqual(unique);
    expect(legacy).toEqual({ shared: false });
    expect(describeLegacy(legacy, () => true)).toBe('Stored before records that repeat a question got ids of their own: every record of this run had a distinct id, so its figures stand.');
    store.close();
  });

  it('a run stored since (it records the duplicates choice) is taken as it is', async () => {
    const store = await IndexedDbRunStore.open('benchtop-legacy-current');
    const problems = parseDataset(file).problems;
    await store.createRun(record('n', { duplicates: { choice: 'keep-all', questions: 1, dropped: 0 } }), problems);
    const opened = legacyIds((await store.getRun('n'))!, await store.problems('n'));
    expect(opened.legacy).toBeNull();
    expect(opened.problems.map((p) => p.id)).toEqual([A, B, `${A}-2`]);
    expect(describeLegacy(opened.legacy, () => false)).toBeNull();
    store.close();
  });
});
