/**
 * "Record every answer before use" (src/models/recorded.ts) behind both AnswerLogs: the page's
 * store (src/store/answer-log.ts, on the IndexedDB store through fake-indexeddb) and the CLI's
 * journal (src/cli/journal.ts journalLog). A kept answer is used instead of asking again; a new one
 * is kept, under resultKey(id, sample, turn), before the caller gets it.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDataset } from '../../src/core/records';
import { resultKey } from '../../src/core/results';
import { Journal, journalLog, readJournal } from '../../src/cli/journal';
import { recordedModel } from '../../src/models/recorded';
import type { AnswerSource } from '../../src/contracts';
import { storeAnswerLog } from '../../src/store/answer-log';
import { emptyCounts, IndexedDbRunStore, type RunRecord, type StoredAnswer } from '../../src/store';
import { tempDirs } from '../support/temp-dirs';

const tempDir = tempDirs('benchtop-recorded-');

const problems = parseDataset(readFileSync('bench-data/demo.jsonl', 'utf8')).problems.slice(0, 2);
const [p, q] = problems as [(typeof problems)[0], (typeof problems)[0]];

/** Counts what it is asked; answers name the attempt. */
function counting(asked: string[]): AnswerSource {
  return {
    id: 'openai:m',
    async answer(problem, _signal, context) {
      const at = `${problem.id}/${context?.sample ?? 0}/${context?.turn ?? 1}`;
      asked.push(at);
      return { text: `answer ${at}`, usage: { inputTokens: 3, outputTokens: 4 } };
    },
  };
}

const run: RunRecord = {
  id: 'r', modelId: 'openai:m', modelLabel: 'm', source: { kind: 'canonical' }, datasetName: 'demo.jsonl', datasetSource: 'embedded demo set',
  mode: 'compat', timeLimitSeconds: null, concurrency: 1, problemCount: 2, languages: ['python'], createdAt: 1, startedAt: 1, finishedAt: null,
  state: 'running', error: null, counts: emptyCounts(),
};

describe('the page store as an AnswerLog', () => {
  it('answers a kept attempt from the store and stores a new answer before handing it on', async () => {
    const store = await IndexedDbRunStore.open('benchtop-recorded-1');
    await store.createRun(run, problems);
    const kept = new Map<string, StoredAnswer>([[resultKey(p.id, 1, 2), { output: 'kept s1t2', isCode: true, reasoning: 'why', receivedAt: 1 }]]);
    const asked: string[] = [];
    const model = recordedModel(counting(asked), storeAnswerLog(store, 'r', kept, (e) => { throw e; }));

    expect(await model.answer(p, undefined, { sample: 1, turn: 2, history: [] })).toEqual({ text: 'kept s1t2', isCode: true, reasoning: 'why' });
    expect(asked).toEqual([]);

    const fresh = await model.answer(q, undefined, { sample: 0, turn: 3, history: [] });
    expect(asked).toEqual([`${q.id}/0/3`]);
    // In the database when the answer is handed back, under the attempt's key.
    const stored = await store.answers('r');
    expect(stored.get(resultKey(q.id, 0, 3))).toMatchObject({ output: fresh.text, usage: { inputTokens: 3, outputTokens: 4 } });
    // A first attempt without a context is sample 0, turn 1: the bare id.
    await model.answer(p);
    expect((await store.answers('r')).get(p.id)?.output).toBe(`answer ${p.id}/0/1`);
    // Asked again, the attempt just stored is not paid for twice.
    await model.answer(q, undefined, { sample: 0, turn: 3, history: [] });
    expect(asked).toHaveLength(2);
    store.close();
  });

  it('a store that cannot write does not fail the attempt: the error is reported and the answer used', async () => {
    const store = await IndexedDbRunStore.open('benchtop-recorded-2');
    store.close();
    const errors: unknown[] = [];
    const model = recordedModel(counting([]), storeAnswerLog(store, 'r', new Map(), (e) => errors.push(e)));
    expect((await model.answer(p)).text).toBe(`answer ${p.id}/0/1`);
    expect(errors).toHaveLength(1);
  });
});

describe('the CLI journal as an AnswerLog', () => {
  it('answers a journaled attempt from the journal and journals a new one with its sample and turn', async () => {
    const path = join(tempDir(), 'r.jsonl.journal.jsonl');
    const journal = await Journal.create(path, { model: 'openai:m', data: 'demo.jsonl' });
    const prior = readJournal(JSON.stringify({ type: 'answer', id: p.id, sample: 2, turn: 1, output: 'kept' }) + '\n');
    const asked: string[] = [];
    const model = recordedModel(counting(asked), journalLog(journal, prior));
    expect((await model.answer(p, undefined, { sample: 2, turn: 1, history: [] })).text).toBe('kept');
    const fresh = await model.answer(p, undefined, { sample: 2, turn: 2, history: [] });
    expect(asked).toEqual([`${p.id}/2/2`]);
    const onDisk = readJournal(readFileSync(path, 'utf8'));
    expect(onDisk.answers.get(resultKey(p.id, 2, 2))).toEqual({ output: fresh.text, usage: { inputTokens: 3, outputTokens: 4 } });
  });

  it('a journal that cannot write fails the attempt: no answer is used that a restart would lose', async () => {
    const journal = Journal.append(join(tmpdir(), 'no-such-dir-benchtop', 'x', 'j.jsonl'));
    const model = recordedModel(counting([]), journalLog(journal, undefined));
    await expect(model.answer(p)).rejects.toThrow(/ENOENT/);
  });
});
