/**
 * The CLI's journal `<out>.journal.jsonl` (see journal.ts): entries are appended synchronously, so
 * they are on disk before anything uses them. Lines:
 *   {"type":"ask"|"run","key":…,"n":…,"value":…}
 *   {"type":"seed","seed":…,"kept":bool,"stage"?,"reason"?,"translations"?}   once a seed is decided
 * A torn last line (a kill mid-write) is ignored.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { MemoJournal, type JournalEntry, type SeedOutcome } from './journal';

export class FileJournal extends MemoJournal {
  private constructor(readonly path: string) {
    super();
  }

  /** `resume`: answer from the entries already in the file; otherwise the file starts empty. */
  static open(path: string, resume: boolean): FileJournal {
    const journal = new FileJournal(path);
    if (resume && existsSync(path)) {
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        let entry: Partial<JournalEntry>;
        try {
          entry = JSON.parse(line) as typeof entry;
        } catch {
          continue;
        }
        if ((entry.type === 'ask' || entry.type === 'run') && typeof entry.key === 'string' && typeof entry.n === 'number') journal.restore(entry as JournalEntry);
      }
    } else {
      writeFileSync(path, '');
    }
    return journal;
  }

  protected persist(entry: JournalEntry): void {
    appendFileSync(this.path, JSON.stringify(entry) + '\n');
  }

  seed(outcome: SeedOutcome): void {
    appendFileSync(this.path, JSON.stringify({ type: 'seed', ...outcome }) + '\n');
  }
}
