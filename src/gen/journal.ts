/**
 * The generator's journal: every model response and every execution is stored under the hash of
 * what was asked and its occurrence (the second identical question is a different entry) before
 * anything uses it, so a resumed run answers from it and asks the model nothing twice. Two
 * stores: a JSONL file for the CLI (journal-file.ts) and IndexedDB for the page (journal-idb.ts).
 * The key of a provider is never part of any entry.
 */
import { hashText } from './prompts';

export interface SeedOutcome {
  seed: string;
  kept: boolean;
  stage?: string;
  reason?: string;
  /** Stage 6: each translation of the kept problem, kept or dropped at a step with its reason. */
  translations?: Array<{ to: string; kept: boolean; stage?: string; reason?: string }>;
}

export interface JournalEntry {
  type: 'ask' | 'run';
  key: string;
  n: number;
  value: unknown;
}

/** What the stages need of a journal. */
export interface GenJournal {
  /** The stored value of this (kind, content, occurrence), or what `produce` gives, stored first. */
  memo<T>(kind: 'ask' | 'run', content: unknown, produce: () => Promise<T>): Promise<T>;
  /** Entries answered from the journal rather than asked or run again. */
  readonly reused: number;
}

/** Occurrence counting and lookup; a subclass says where new entries are stored. */
export abstract class MemoJournal implements GenJournal {
  protected readonly stored = new Map<string, unknown>();
  private readonly occurrences = new Map<string, number>();
  reused = 0;

  /** Stores a new entry; resolves once it is kept (on disk, in IndexedDB). */
  protected abstract persist(entry: JournalEntry, content: unknown): void | Promise<void>;

  /** An entry read back from the store. */
  protected restore(entry: Pick<JournalEntry, 'type' | 'key' | 'n' | 'value'>): void {
    this.stored.set(`${entry.type}/${entry.key}/${entry.n}`, entry.value);
  }

  async memo<T>(kind: 'ask' | 'run', content: unknown, produce: () => Promise<T>): Promise<T> {
    const key = hashText(JSON.stringify(content));
    const n = this.occurrences.get(`${kind}/${key}`) ?? 0;
    this.occurrences.set(`${kind}/${key}`, n + 1);
    const id = `${kind}/${key}/${n}`;
    if (this.stored.has(id)) {
      this.reused++;
      return this.stored.get(id) as T;
    }
    const value = await produce();
    await this.persist({ type: kind, key, n, value }, content);
    this.stored.set(id, value);
    return value;
  }
}

/** The seed outcomes a JSONL journal records (the last per seed wins). */
export function journalOutcomes(text: string): Map<string, SeedOutcome> {
  const out = new Map<string, SeedOutcome>();
  for (const line of text.split('\n')) {
    try {
      const e = JSON.parse(line) as SeedOutcome & { type?: string };
      if (e.type === 'seed') out.set(e.seed, { seed: e.seed, kept: e.kept, ...(e.stage ? { stage: e.stage, reason: e.reason } : {}), ...(e.translations ? { translations: e.translations } : {}) });
    } catch { /* torn line */ }
  }
  return out;
}
