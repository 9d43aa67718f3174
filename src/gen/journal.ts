/**
 * The generator's journal `<out>.journal.jsonl`: every model response and every execution is
 * appended (synchronously: on disk before anything uses it) under the hash of what was asked and
 * its occurrence (the second identical question is a different entry). `--resume` answers from the
 * journal, so a killed run asks the model nothing twice. Lines:
 *   {"type":"ask"|"run","key":…,"n":…,"value":…}
 *   {"type":"seed","seed":…,"kept":bool,"stage"?,"reason"?,"translations"?}   once a seed is decided
 * A torn last line (a kill mid-write) is ignored. The key of a provider is never part of any line.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hashText } from './prompts';

export interface SeedOutcome {
  seed: string;
  kept: boolean;
  stage?: string;
  reason?: string;
  /** Stage 6: each translation of the kept problem, kept or dropped at a step with its reason. */
  translations?: Array<{ to: string; kept: boolean; stage?: string; reason?: string }>;
}

export class GenJournal {
  private readonly stored = new Map<string, unknown>();
  private readonly occurrences = new Map<string, number>();
  /** Entries answered from the journal rather than asked or run again. */
  reused = 0;

  private constructor(readonly path: string) {}

  static open(path: string, resume: boolean): GenJournal {
    const journal = new GenJournal(path);
    if (resume && existsSync(path)) {
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        let entry: { type?: string; key?: string; n?: number; value?: unknown };
        try {
          entry = JSON.parse(line) as typeof entry;
        } catch {
          continue;
        }
        if ((entry.type === 'ask' || entry.type === 'run') && typeof entry.key === 'string') journal.stored.set(`${entry.type}/${entry.key}/${entry.n}`, entry.value);
      }
    } else {
      writeFileSync(path, '');
    }
    return journal;
  }

  /** The stored value of this (kind, content, occurrence), or what `produce` gives, journalled first. */
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
    this.append({ type: kind, key, n, value });
    return value;
  }

  seed(outcome: SeedOutcome): void {
    this.append({ type: 'seed', ...outcome });
  }

  private append(entry: unknown): void {
    appendFileSync(this.path, JSON.stringify(entry) + '\n');
  }
}

/** The seed outcomes a journal records (the last per seed wins). */
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
