/**
 * The browser's run store: IndexedDB through the maintained `idb` wrapper. One database,
 * four object stores:
 *   runs      RunRecord by id
 *   problems  the problems of a run, one entry per run (a run can be continued without its dataset)
 *   answers   StoredAnswer by [runId, key]
 *   results   AttemptResult by [runId, key]
 * where key = resultKey(problemId, sample, turn): the bare problem id for sample 0, turn 1 (all
 * that runs stored before samples and turns have), `<id>#s<sample>#t<turn>` otherwise. The rows'
 * key field keeps its first name, `problemId`, so version 1 databases need no migration.
 * A result and its run's counts are written in one transaction, so the run list is right even
 * after the tab was closed in the middle of a run.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Problem } from '../contracts';
import { resultKey, sampleOf, turnOf, type AttemptResult } from '../core/results';
import { applyResult, type RunRecord, type RunStore, type StoredAnswer } from './types';

export const DB_NAME = 'benchtop';
const DB_VERSION = 1;

interface BenchtopDB extends DBSchema {
  runs: { key: string; value: RunRecord };
  problems: { key: string; value: { runId: string; problems: Problem[] } };
  answers: { key: [string, string]; value: { runId: string; problemId: string; answer: StoredAnswer }; indexes: { runId: string } };
  results: { key: [string, string]; value: { runId: string; problemId: string; result: AttemptResult }; indexes: { runId: string } };
}

export class IndexedDbRunStore implements RunStore {
  private constructor(private readonly db: IDBPDatabase<BenchtopDB>) {}

  static async open(name: string = DB_NAME): Promise<IndexedDbRunStore> {
    const db = await openDB<BenchtopDB>(name, DB_VERSION, {
      upgrade(db) {
        db.createObjectStore('runs', { keyPath: 'id' });
        db.createObjectStore('problems', { keyPath: 'runId' });
        db.createObjectStore('answers', { keyPath: ['runId', 'problemId'] }).createIndex('runId', 'runId');
        db.createObjectStore('results', { keyPath: ['runId', 'problemId'] }).createIndex('runId', 'runId');
      },
      blocking() {
        // A newer version of the app wants to upgrade the database in another tab: let it.
        db.close();
      },
    });
    return new IndexedDbRunStore(db);
  }

  close(): void {
    this.db.close();
  }

  async listRuns(): Promise<RunRecord[]> {
    const runs = await this.db.getAll('runs');
    return runs.sort((a, b) => b.createdAt - a.createdAt);
  }

  getRun(id: string): Promise<RunRecord | undefined> {
    return this.db.get('runs', id);
  }

  async createRun(run: RunRecord, problems: readonly Problem[]): Promise<void> {
    const tx = this.db.transaction(['runs', 'problems'], 'readwrite');
    await Promise.all([tx.objectStore('runs').add(run), tx.objectStore('problems').put({ runId: run.id, problems: [...problems] }), tx.done]);
  }

  async updateRun(id: string, patch: Partial<Omit<RunRecord, 'id' | 'counts'>>): Promise<RunRecord> {
    const tx = this.db.transaction('runs', 'readwrite');
    const run = await tx.store.get(id);
    if (!run) throw new Error(`no run ${id}`);
    const updated = { ...run, ...patch, id, counts: run.counts };
    await Promise.all([tx.store.put(updated), tx.done]);
    return updated;
  }

  async deleteRun(id: string): Promise<void> {
    const tx = this.db.transaction(['runs', 'problems', 'answers', 'results'], 'readwrite');
    const range = IDBKeyRange.only(id);
    const clear = async (store: 'answers' | 'results') => {
      for (const key of await tx.objectStore(store).index('runId').getAllKeys(range)) await tx.objectStore(store).delete(key);
    };
    await Promise.all([tx.objectStore('runs').delete(id), tx.objectStore('problems').delete(id), clear('answers'), clear('results'), tx.done]);
  }

  async problems(runId: string): Promise<Problem[]> {
    return (await this.db.get('problems', runId))?.problems ?? [];
  }

  async putAnswer(runId: string, key: string, answer: StoredAnswer): Promise<void> {
    await this.db.put('answers', { runId, problemId: key, answer });
  }

  async answers(runId: string): Promise<Map<string, StoredAnswer>> {
    const rows = await this.db.getAllFromIndex('answers', 'runId', runId);
    return new Map(rows.map((r) => [r.problemId, r.answer]));
  }

  async putResult(runId: string, result: AttemptResult): Promise<void> {
    const tx = this.db.transaction(['runs', 'results'], 'readwrite');
    const runs = tx.objectStore('runs');
    const results = tx.objectStore('results');
    const key = resultKey(result.id, sampleOf(result), turnOf(result));
    const [run, previous] = await Promise.all([runs.get(runId), results.get([runId, key])]);
    if (!run) {
      tx.abort();
      await tx.done.catch(() => {});
      throw new Error(`no run ${runId}`);
    }
    if (previous) applyResult(run.counts, previous.result, -1);
    applyResult(run.counts, result);
    await Promise.all([results.put({ runId, problemId: key, result }), runs.put(run), tx.done]);
  }

  async results(runId: string): Promise<AttemptResult[]> {
    const rows = await this.db.getAllFromIndex('results', 'runId', runId);
    return rows.map((r) => r.result);
  }
}
