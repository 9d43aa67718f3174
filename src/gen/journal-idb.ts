/**
 * The page's generator store (IndexedDB, a database of its own beside the run store): each
 * generation job (its seeds and settings, later its outcome) and every journal entry of it, by
 * seed. A seed's journal (see journal.ts) writes an entry, and waits for the write, before the
 * stages use it; a reloaded page runs the job again from these entries without asking the model
 * or running anything twice. Entries keep what was asked (prompt or program) for the item view;
 * the provider's key is never part of a job or an entry.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { MemoJournal, type JournalEntry } from './journal';

export const GEN_DB_NAME = 'benchtop-generate';

export interface StoredEntry extends JournalEntry {
  id: string;
  job: string;
  seed: string;
  /** What was asked or run (the journal's content), kept for the per-item view. */
  content: unknown;
  at: number;
}

/** A job as stored: everything to run it again but the key. `T` is the page's settings shape. */
export interface StoredJob<T = unknown> {
  id: string;
  createdAt: number;
  settings: T;
  seeds: Array<{ name: string; code: string }>;
  /** stopped: the Stop button; running with no tab running it: interrupted (a reload, a crash). */
  state: 'running' | 'stopped' | 'done';
  /** Set when the job is done: the JSONL, the manifest and each seed's outcome. */
  output?: { jsonl: string; manifest: string; outcomes: unknown[] };
}

interface GenDB extends DBSchema {
  jobs: { key: string; value: StoredJob };
  entries: { key: string; value: StoredEntry; indexes: { job: string } };
}

class SeedJournal extends MemoJournal {
  constructor(
    private readonly db: IDBPDatabase<GenDB>,
    private readonly job: string,
    private readonly seed: string,
    earlier: readonly StoredEntry[],
    private readonly onEntry: (entry: StoredEntry) => void,
  ) {
    super();
    for (const e of earlier) this.restore(e);
  }

  protected async persist(entry: JournalEntry, content: unknown): Promise<void> {
    const stored: StoredEntry = { ...entry, id: `${this.job}|${this.seed}|${entry.type}/${entry.key}/${entry.n}`, job: this.job, seed: this.seed, content, at: Date.now() };
    await this.db.put('entries', stored);
    this.onEntry(stored);
  }
}

export class GenStore {
  private constructor(private readonly db: IDBPDatabase<GenDB>) {}

  static async open(name = GEN_DB_NAME): Promise<GenStore> {
    const db = await openDB<GenDB>(name, 1, {
      upgrade(db) {
        db.createObjectStore('jobs', { keyPath: 'id' });
        db.createObjectStore('entries', { keyPath: 'id' }).createIndex('job', 'job');
      },
      blocking() {
        db.close();
      },
    });
    return new GenStore(db);
  }

  /** The newest job, if any. */
  async latestJob<T>(): Promise<StoredJob<T> | undefined> {
    const jobs = await this.db.getAll('jobs');
    return jobs.sort((a, b) => b.createdAt - a.createdAt)[0] as StoredJob<T> | undefined;
  }

  async putJob<T>(job: StoredJob<T>): Promise<void> {
    await this.db.put('jobs', job as StoredJob);
  }

  /** Every entry of a job, oldest first. */
  async entries(job: string): Promise<StoredEntry[]> {
    const all = await this.db.getAllFromIndex('entries', 'job', job);
    return all.sort((a, b) => a.at - b.at);
  }

  /** A job and its entries, gone. */
  async deleteJob(job: string): Promise<void> {
    const tx = this.db.transaction(['jobs', 'entries'], 'readwrite');
    await tx.objectStore('jobs').delete(job);
    for (const key of await tx.objectStore('entries').index('job').getAllKeys(job)) await tx.objectStore('entries').delete(key);
    await tx.done;
  }

  /** The journal of one seed of a job, answering from `earlier` (that seed's stored entries). */
  journal(job: string, seed: string, earlier: readonly StoredEntry[], onEntry: (entry: StoredEntry) => void): MemoJournal {
    return new SeedJournal(this.db, job, seed, earlier, onEntry);
  }
}
