/**
 * Continuing a run (--resume, --retry-errors): which problems keep their stored result, which
 * are evaluated; the journal (journal.ts journalLog) lets stored answers stand in for new requests.
 */
import { access, readFile } from 'node:fs/promises';
import { chainKey, openProblems, standingTurns } from '../core/chains';
import type { Problem } from '../contracts';
import { parseResultKey, resultKey, turnOf, type AttemptResult } from '../core/results';
import { Journal, readJournal, readOutFile, type PriorRun } from './journal';
import { storedResult, type ResultFields } from '../core/result-file';

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
    for (const [key, answer] of prior.answers) {
      const { id, sample, turn } = parseResultKey(key);
      await journal.answer(id, answer, { sample, turn });
    }
    for (const [key, fields] of prior.results) await journal.result(parseResultKey(key).id, fields);
    return { journal, prior };
  }
  throw new ResumeError(`nothing to continue: neither ${out} nor ${path} exists`);
}

export interface Plan {
  /** Stored results that stand, keyed by resultKey(id, sample, turn) (the bare id in a single run). */
  reused: Map<string, ResultFields>;
  /** Problems with a (problem, sample) chain not over yet, in input order: they are evaluated. */
  todo: Problem[];
  /**
   * The stored results of each (problem, sample) that stand, turns 1, 2, … in order, keyed by
   * chainKey (src/core/chains.ts): the engine goes on after them (`RunOptions.priorTurns`).
   */
  priorTurns: Map<string, AttemptResult[]>;
}

/**
 * Which stored results stand: for each (problem, sample), the stored turns 1, 2, … up to the
 * first that ends the chain (chains.ts standingTurns); INFRA_ERROR ones are evaluated again
 * under --retry-errors. Everything after them is evaluated.
 */
export function planRun(problems: readonly Problem[], prior: PriorRun | undefined, retryErrors: boolean, samples = 1, turns = 1): Plan {
  const reused = new Map<string, ResultFields>();
  const priorTurns = new Map<string, AttemptResult[]>();
  for (const problem of problems) {
    for (let sample = 0; sample < samples; sample++) {
      const stored: AttemptResult[] = [];
      for (let turn = 1; turn <= turns; turn++) {
        const key = resultKey(problem.id, sample, turn);
        const fields = prior?.results.get(key);
        if (!fields || (retryErrors && fields.verdict === 'infra_error')) break;
        const answer = prior?.answers.get(key);
        stored.push(storedResult(problem, { ...fields, sample, turn }, answer && !answer.isCode ? answer.output : undefined));
      }
      const chain = standingTurns(stored, turns);
      for (const r of chain) {
        const key = resultKey(problem.id, sample, turnOf(r));
        reused.set(key, prior!.results.get(key)!);
      }
      if (chain.length) priorTurns.set(chainKey(problem.id, sample), chain);
    }
  }
  const todo = openProblems(problems, (p, sample) => priorTurns.get(chainKey(p.id, sample)), samples, turns);
  return { reused, todo, priorTurns };
}
