/**
 * The (problem, sample) chain: turn 1 asks the model, a failing turn is followed by another (with
 * execution feedback) up to the run's T turns. Everything that groups, orders, ends or continues
 * chains asks this module: the engine, the CLI's --resume, the page's continue, figures, exports.
 */
import { sampleOf, turnOf, type AttemptResult } from './results';

/** An attempt's place: its problem id, 0-based sample and 1-based turn. */
type Placed = Pick<AttemptResult, 'id' | 'sample' | 'turn'>;

/**
 * The key of one (problem, sample) chain: `<id>#s<sample>`, the prefix of the attempt key
 * resultKey(id, sample, turn) = `<id>#s<sample>#t<turn>`. Only held in memory: stores and journals
 * keep attempts under resultKey (or id, sample and turn fields), never under a chain key.
 */
export const chainKey = (id: string, sample: number): string => `${id}#s${sample}`;

/** The chain an attempt belongs to (older data without sample: sample 0). */
export const chainKeyOf = (r: Pick<AttemptResult, 'id' | 'sample'>): string => chainKey(r.id, sampleOf(r));

/** Attempt order within a problem: by sample, then by turn. */
export const byAttempt = (a: Placed, b: Placed): number => sampleOf(a) - sampleOf(b) || turnOf(a) - turnOf(b);

/**
 * A chain is over once its latest turn passed, could not be evaluated (infra_error, unsupported:
 * nothing to feed back), or was turn T. An empty chain is not over: it has not started.
 */
export function chainOver(last: Pick<AttemptResult, 'verdict' | 'turn'> | undefined, turns: number): boolean {
  return last !== undefined && (last.verdict !== 'failed' || turnOf(last) >= turns);
}

/** Every chain's attempts, turns in order, by chainKey (in order of first appearance). */
export function groupChains<R extends Placed>(results: Iterable<R>): Map<string, R[]> {
  const chains = new Map<string, R[]>();
  for (const r of results) {
    const key = chainKeyOf(r);
    const chain = chains.get(key);
    if (chain) chain.push(r);
    else chains.set(key, [r]);
  }
  for (const chain of chains.values()) chain.sort(byAttempt);
  return chains;
}

/** The latest attempt of each chain, by chainKey. */
export function chainEnds<R extends Placed>(results: Iterable<R>): Map<string, R> {
  const last = new Map<string, R>();
  for (const r of results) {
    const key = chainKeyOf(r);
    const seen = last.get(key);
    if (!seen || turnOf(r) > turnOf(seen)) last.set(key, r);
  }
  return last;
}

/** How many chains among these attempts are over. */
export function chainsOver(results: Iterable<AttemptResult>, turns: number): number {
  let over = 0;
  for (const r of chainEnds(results).values()) if (chainOver(r, turns)) over++;
  return over;
}

/** The attempts of one problem, by sample then turn. */
export const attemptsOf = <R extends Placed>(results: Iterable<R>, id: string): R[] => [...results].filter((r) => r.id === id).sort(byAttempt);

/** Attempts in the problems' input order, each problem's by sample then turn; attempts of other problems are left out. */
export function orderAttempts<R extends Placed>(problems: ReadonlyArray<{ id: string }>, results: Iterable<R>): R[] {
  const byId = new Map<string, R[]>();
  for (const r of results) {
    const list = byId.get(r.id);
    if (list) list.push(r);
    else byId.set(r.id, [r]);
  }
  return problems.flatMap((p) => (byId.get(p.id) ?? []).sort(byAttempt));
}

/**
 * The stored turns a chain goes on from: turns 1, 2, … in order up to the first missing one, and
 * no further than the first that ended the chain. Later stored turns cannot stand: the model's
 * next turn would not have seen the missing one.
 */
export function standingTurns<R extends Placed & Pick<AttemptResult, 'verdict'>>(stored: readonly R[], turns: number): R[] {
  const sorted = [...stored].sort(byAttempt);
  const chain: R[] = [];
  for (const r of sorted) {
    if (turnOf(r) !== chain.length + 1) break;
    chain.push(r);
    if (chainOver(r, turns)) break;
  }
  return chain;
}

/** The turn a chain continues with, or null when it is over. */
export function nextTurn(stored: readonly Pick<AttemptResult, 'verdict' | 'turn'>[], turns: number): number | null {
  const last = stored.at(-1);
  return chainOver(last, turns) ? null : (last ? turnOf(last) + 1 : 1);
}

export interface NextAttempt<P> {
  problem: P;
  sample: number;
  turn: number;
}

/**
 * The continuation plan: for each chain that is not over, which (problem, sample, turn) comes next,
 * given the stored attempts of each chain (`priorTurns`, as standingTurns leaves them). Ordered as
 * the engine hands chains out: every problem's sample 0 first, then sample 1, …
 */
export function continuationPlan<P extends { id: string }>(
  problems: readonly P[],
  priorTurns: (problem: P, sample: number) => readonly Pick<AttemptResult, 'verdict' | 'turn'>[] | undefined,
  samples: number,
  turns: number,
): NextAttempt<P>[] {
  const plan: NextAttempt<P>[] = [];
  for (let sample = 0; sample < samples; sample++) {
    for (const problem of problems) {
      const turn = nextTurn(priorTurns(problem, sample) ?? [], turns);
      if (turn !== null) plan.push({ problem, sample, turn });
    }
  }
  return plan;
}

/** Problems with at least one chain not over, in input order. */
export function openProblems<P extends { id: string }>(
  problems: readonly P[],
  priorTurns: (problem: P, sample: number) => readonly Pick<AttemptResult, 'verdict' | 'turn'>[] | undefined,
  samples: number,
  turns: number,
): P[] {
  const open = new Set(continuationPlan(problems, priorTurns, samples, turns).map((a) => a.problem));
  return problems.filter((p) => open.has(p));
}
