/**
 * The run journal `<out>.journal.jsonl`: every answer is appended as soon as it arrives (before it
 * is evaluated) and every result as soon as it exists, so a killed run loses nothing. Lines:
 *   {"type":"run","model":…,"data":…,"started":…}   once, at the start of a fresh run
 *   {"type":"answer","id":…,"output":…,"usage":…}      (+ "sample", "turn" unless 0 and 1)
 *   {"type":"result","id":…, …ResultFields}          (ResultFields name the sample and turn in a multi run)
 *   {"type":"end","finished":…}                      when the --out file has been written
 * The key is never part of any line.
 */
import { appendFile, writeFile } from 'node:fs/promises';
import type { AnswerLog } from '../models/recorded';
import { fromStoredUsage, toStoredUsage, type TokenUsage } from '../contracts';
import { isResultFields, pickResultFields, type ResultFields } from '../core/result-file';
import { resultKey } from '../core/results';

export interface StoredAnswer {
  output: string;
  usage?: TokenUsage;
  /** A canonical solution: code, not an answer to extract from. */
  isCode?: boolean;
}

/** Which attempt an answer belongs to (absent: sample 0, turn 1). */
export interface Attempt {
  sample: number;
  turn: number;
}

const whole = (v: unknown, min: number, fallback: number) => (typeof v === 'number' && Number.isInteger(v) && v >= min ? v : fallback);
const keyOf = (e: Record<string, unknown>) => resultKey(e.id as string, whole(e.sample, 0, 0), whole(e.turn, 1, 1));

/** What a journal or an --out file says about an earlier run; later lines win. */
export interface PriorRun {
  model?: string;
  /** Keyed by resultKey(id, sample, turn): the bare id for sample 0, turn 1. */
  answers: Map<string, StoredAnswer>;
  /** Keyed like `answers`. */
  results: Map<string, ResultFields>;
  /** The journal ends with an `end` line: the run completed. */
  finished: boolean;
  /** Lines that could not be read (a line cut by a kill, say). */
  unreadable: number;
}

const emptyRun = (): PriorRun => ({ answers: new Map(), results: new Map(), finished: false, unreadable: 0 });

function parseLines(text: string, each: (entry: Record<string, unknown>, run: PriorRun) => void): PriorRun {
  const run = emptyRun();
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    let entry: unknown;
    try {
      entry = JSON.parse(raw);
    } catch {
      run.unreadable++;
      continue;
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      run.unreadable++;
      continue;
    }
    each(entry as Record<string, unknown>, run);
  }
  return run;
}

export function readJournal(text: string): PriorRun {
  return parseLines(text, (e, run) => {
    if (e.type === 'run') {
      run.model = typeof e.model === 'string' ? e.model : undefined;
      run.finished = false;
    } else if (e.type === 'answer' && typeof e.id === 'string' && typeof e.output === 'string') {
      const usage = fromStoredUsage(e.usage);
      run.answers.set(keyOf(e), { output: e.output, ...(usage ? { usage } : {}), ...(e.is_code === true ? { isCode: true } : {}) });
      run.finished = false;
    } else if (e.type === 'result' && typeof e.id === 'string' && isResultFields(e)) {
      run.results.set(keyOf(e), pickResultFields(e));
      run.finished = false;
    } else if (e.type === 'end') {
      run.finished = true;
    } else {
      run.unreadable++;
    }
  });
}

/** An --out file read as a finished run: each line's `output` and result fields. */
export function readOutFile(text: string): PriorRun {
  const run = parseLines(text, (e, run) => {
    if (typeof e.id !== 'string') return void run.unreadable++;
    if (typeof e.output === 'string') {
      const usage = fromStoredUsage(e.usage);
      run.answers.set(keyOf(e), { output: e.output, ...(usage ? { usage } : {}) });
    }
    if (isResultFields(e)) run.results.set(keyOf(e), pickResultFields(e));
    else run.unreadable++;
  });
  run.finished = true;
  return run;
}

/** Appends journal lines one at a time, in order; each promise resolves once its line is written. */
export class Journal {
  private queue: Promise<void> = Promise.resolve();
  private failure: Error | undefined;

  private constructor(readonly path: string) {}

  /** A fresh journal (replacing any old one) that starts with the run's header. */
  static async create(path: string, header: { model: string; data: string }): Promise<Journal> {
    await writeFile(path, JSON.stringify({ type: 'run', ...header, started: new Date().toISOString() }) + '\n');
    return new Journal(path);
  }

  /** Continues an existing journal. */
  static append(path: string): Journal {
    return new Journal(path);
  }

  private write(entry: object): Promise<void> {
    const line = JSON.stringify(entry) + '\n';
    const next = this.queue.then(() => appendFile(this.path, line));
    this.queue = next.catch((e: Error) => {
      this.failure ??= e;
    });
    return next;
  }

  answer(id: string, answer: StoredAnswer, at?: Attempt): Promise<void> {
    const attempt = at && (at.sample !== 0 || at.turn !== 1) ? { sample: at.sample, turn: at.turn } : {};
    return this.write({ type: 'answer', id, ...attempt, output: answer.output, ...(answer.usage ? { usage: toStoredUsage(answer.usage) } : {}), ...(answer.isCode ? { is_code: true } : {}) });
  }

  result(id: string, fields: ResultFields): Promise<void> {
    return this.write({ type: 'result', id, ...fields });
  }

  end(): Promise<void> {
    return this.write({ type: 'end', finished: new Date().toISOString() });
  }

  /** Waits for every line written so far; rejects if any of them could not be written. */
  async flush(): Promise<void> {
    await this.queue;
    if (this.failure) throw this.failure;
  }
}

/** The journal as an AnswerLog (src/models/recorded.ts): answers of the earlier run are recalled, new ones journaled. */
export function journalLog(journal: Journal, prior: PriorRun | undefined): AnswerLog {
  return {
    recall: ({ id, sample, turn }) => {
      const stored = prior?.answers.get(resultKey(id, sample, turn));
      return stored && { text: stored.output, ...(stored.usage ? { usage: stored.usage } : {}), ...(stored.isCode ? { isCode: true } : {}) };
    },
    record: ({ id, sample, turn }, answer) =>
      journal.answer(id, { output: answer.text, ...(answer.usage ? { usage: answer.usage } : {}), ...(answer.isCode ? { isCode: true } : {}) }, { sample, turn }),
  };
}
