import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The content id of a question: the first 12 hex digits of sha256(language + "\n" + question).
 * The same question gets the same content id in every copy of the dataset, whatever its line.
 */
export function problemId(language: string, question: string): string {
  return bytesToHex(sha256(utf8ToBytes(language + '\n' + question))).slice(0, 12);
}

/**
 * Gives records that share a content id distinct ids, in order of appearance: the first keeps the
 * content id (so ids of unique questions, and of every first copy, are those of earlier versions),
 * the second gets `<id>-2`, the third `<id>-3`, … A suffix by order rather than a hash over the
 * tests too: copies that differ only in their answers (several samples of one problem, say) share
 * their tests, and a hash would still give them one id. `taken` ids (those records carry
 * themselves) are skipped, so a derived id never collides with one.
 */
export class IdAssigner {
  private readonly seen = new Map<string, number>();
  private readonly used: Set<string>;

  constructor(taken: Iterable<string> = []) {
    this.used = new Set(taken);
  }

  next(contentId: string): string {
    let n = this.seen.get(contentId) ?? 0;
    let id: string;
    do {
      n++;
      id = n === 1 ? contentId : `${contentId}-${n}`;
    } while (this.used.has(id));
    this.seen.set(contentId, n);
    this.used.add(id);
    return id;
  }
}

/** A record's own id: its `id` text, else its `task_id` (text or whole number); undefined when it has none. */
export function ownId(record: Readonly<Record<string, unknown>>): string | undefined {
  for (const v of [record.id, record.task_id]) {
    if (typeof v === 'string' && v.trim() !== '') return v;
    if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  }
  return undefined;
}

/** Result keys are `<id>#s<sample>#t<turn>` (results.ts): an own id must not look like one. */
export const AMBIGUOUS_ID = /#s\d+#t\d+$/;
