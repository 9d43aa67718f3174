/**
 * The generator's journal stores (src/gen/journal-file.ts for the CLI, journal-idb.ts for the page,
 * here on fake-indexeddb) behave alike: an answer is stored before it is returned, a second
 * identical question is a new entry, and a store opened again answers without producing anything.
 * Also the Generate tab's seed files (src/app/lib/seeds.ts).
 */
import 'fake-indexeddb/auto';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedsFor, seedsFromFile } from '../../src/app/lib/seeds';
import type { GenJournal } from '../../src/gen/journal';
import { FileJournal } from '../../src/gen/journal-file';
import { GenStore, type StoredEntry } from '../../src/gen/journal-idb';
import { tempDirs } from '../support/temp-dirs';

const tempDir = tempDirs('benchtop-genj-');

/** Asks [q, q, r] through `journal`, counting the calls that reach the "model". */
async function session(journal: GenJournal): Promise<{ answers: string[]; produced: number }> {
  let produced = 0;
  const ask = (q: string) => journal.memo('ask', ['model', q], async () => `answer ${++produced} to ${q}`);
  const answers = [await ask('q'), await ask('q'), await ask('r')];
  return { answers, produced };
}

describe('generator journals', () => {
  it('file: entries are on disk before use; --resume answers from them, a torn last line is ignored', async () => {
    const path = join(tempDir(), 'j.jsonl');
    const first = await session(FileJournal.open(path, false));
    expect(first).toEqual({ answers: ['answer 1 to q', 'answer 2 to q', 'answer 3 to r'], produced: 3 });
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(3);
    appendFileSync(path, '{"type":"ask","key":"tor');
    const resumed = FileJournal.open(path, true);
    expect(await session(resumed)).toEqual({ answers: first.answers, produced: 0 });
    expect(resumed.reused).toBe(3);
    // Without resume the file starts empty: everything is asked again.
    expect((await session(FileJournal.open(path, false))).produced).toBe(3);
  });

  it('IndexedDB: per job and seed; a reopened store answers without asking, another seed does not share answers', async () => {
    const name = `gen-test-${Math.random()}`;
    const seen: StoredEntry[] = [];
    let store = await GenStore.open(name);
    await store.putJob({ id: 'job1', createdAt: 1, settings: {}, seeds: [{ name: 'a', code: 'x' }], state: 'running' });
    const first = await session(store.journal('job1', 'seedA', [], (e) => seen.push(e)));
    expect(first.produced).toBe(3);
    expect(seen.map((e) => [e.seed, e.n, e.content])).toEqual([['seedA', 0, ['model', 'q']], ['seedA', 1, ['model', 'q']], ['seedA', 0, ['model', 'r']]]);

    store = await GenStore.open(name);
    expect((await store.latestJob())?.id).toBe('job1');
    const entries = await store.entries('job1');
    expect(entries).toHaveLength(3);
    const again = store.journal('job1', 'seedA', entries, () => {});
    expect(await session(again)).toEqual({ answers: first.answers, produced: 0 });
    expect(again.reused).toBe(3);
    expect((await session(store.journal('job1', 'seedB', [], () => {}))).produced).toBe(3);

    await store.deleteJob('job1');
    expect(await store.entries('job1')).toEqual([]);
    expect(await store.latestJob()).toBeUndefined();
  });
});

describe('seed files', () => {
  it('a source file is one seed; a JSONL holds {language, code} records, bad lines named', () => {
    expect(seedsFromFile('a.py', 'def f():\n    return 1\n').seeds).toEqual([{ name: 'a.py', code: 'def f():\n    return 1\n', language: null }]);
    const { seeds, errors } = seedsFromFile('s.jsonl', ['{"language":"python","code":"x = 1"}', 'nope', '{"language":"js","code":"let y"}', '{"language":"cobol","code":"z"}', ''].join('\n'));
    expect(seeds.map((s) => [s.name, s.language])).toEqual([['s.jsonl:1', 'python'], ['s.jsonl:3', 'javascript']]);
    expect(errors).toEqual(['s.jsonl:2: not JSON', 's.jsonl:4: needs a known "language" and a non-empty "code"']);
    expect(seedsFor([...seeds, { name: 'p', code: 'c', language: null }], 'python').map((s) => s.name)).toEqual(['s.jsonl:1', 'p']);
  });
});
