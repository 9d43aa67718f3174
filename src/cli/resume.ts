/**
 * Continuing a run (--resume, --retry-errors): which problems keep their stored result, which
 * are evaluated, and a Model that answers from stored answers without asking the provider again.
 */
import { access, readFile } from 'node:fs/promises';
import type { Problem } from '../core/records';
import type { Model } from '../models/types';
import { Journal, readJournal, readOutFile, type PriorRun } from './journal';
import type { ResultFields } from '../core/result-file';

export class ResumeError extends Error {}

export const journalPath = (out: string) => `${out}.journal.jsonl`;

const exists = (path: string) => access(path).then(() => true, () => false);

export interface OpenedRun {
  journal: Journal;
  prior?: PriorRun;
}

/**
 * Opens the journal for this run. A fresh run replaces a finished or empty journal but refuses to
 * overwrite an unfinished one; a continued run reads the journal, or the --out file when there is no journal
 * (copying its state into a new journal, so the journal alone always describes the run).
 */
export async function openRun(out: string, header: { model: string; data: string }, continuing: boolean): Promise<OpenedRun> {
  const path = journalPath(out);
  const journalText = (await exists(path)) ? await readFile(path, 'utf8') : undefined;
  if (!continuing) {
    const old = journalText === undefined ? undefined : readJournal(journalText);
    // A journal with nothing in it yet (the run failed before its first answer) loses nothing.
    if (old && !old.finished && (old.answers.size || old.results.size)) {
      throw new ResumeError(`${path} holds an unfinished run: continue it with --resume, or delete it to start over`);
    }
    return { journal: await Journal.create(path, header) };
  }
  if (journalText !== undefined) {
    const prior = readJournal(journalText);
    if (prior.model && prior.model !== header.model) {
      throw new ResumeError(`${path} is a run of ${prior.model}, not ${header.model}: use the same --model, or another --out`);
    }
    return { journal: Journal.append(path), prior };
  }
  if (await exists(out)) {
    const prior = readOutFile(await readFile(out, 'utf8'));
    const journal = await Journal.create(path, header);
    for (const [id, answer] of prior.answers) await journal.answer(id, answer);
    for (const [id, fields] of prior.results) await journal.result(id, fields);
    return { journal, prior };
  }
  throw new ResumeError(`nothing to continue: neither ${out} nor ${path} exists`);
}

export interface Plan {
  /** Problems whose stored result stands. */
  reused: Map<string, ResultFields>;
  /** Problems to evaluate, in input order. */
  todo: Problem[];
}

/** Stored results stand, except INFRA_ERROR ones under --retry-errors; problems without one are evaluated. */
export function planRun(problems: readonly Problem[], prior: PriorRun | undefined, retryErrors: boolean): Plan {
  const reused = new Map<string, ResultFields>();
  const todo: Problem[] = [];
  for (const problem of problems) {
    const fields = prior?.results.get(problem.id);
    if (fields && !(retryErrors && fields.verdict === 'infra_error')) reused.set(problem.id, fields);
    else todo.push(problem);
  }
  return { reused, todo };
}

/** Answers from the journal when it holds one; otherwise asks `model` and journals the answer before returning it. */
export function journaledModel(model: Model, journal: Journal, prior: PriorRun | undefined): Model {
  return {
    id: model.id,
    async answer(problem, signal) {
      const stored = prior?.answers.get(problem.id);
      if (stored) return { text: stored.output, ...(stored.usage ? { usage: stored.usage } : {}), ...(stored.isCode ? { isCode: true } : {}) };
      const answer = await model.answer(problem, signal);
      await journal.answer(problem.id, { output: answer.text, ...(answer.usage ? { usage: answer.usage } : {}), ...(answer.isCode ? { isCode: true } : {}) });
      return answer;
    },
  };
}
