/**
 * The (problem, sample) chain (src/core/chains.ts). The rule under test is refinement as the
 * README's --turns row and docs/architecture.md state it (the AutoCodeBench paper's multi-turn
 * setting): a failing turn is followed by another, with feedback, up to T turns; a sample stops at
 * its first pass; a turn that could not be evaluated (INFRA_ERROR, unsupported) has no test output
 * to feed back, so it ends the chain too. Expected values are worked out from that rule by hand.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  attemptsOf, byAttempt, chainEnds, chainKey, chainKeyOf, chainOver, chainsOver, continuationPlan, groupChains, nextTurn, openProblems, orderAttempts, standingTurns,
} from '../../src/core/chains';
import { parseDataset } from '../../src/core/records';
import { resultKey, type AttemptResult, type Verdict } from '../../src/core/results';
import { readJournal } from '../../src/cli/journal';
import { planRun } from '../../src/cli/resume';

/** A result with only what chains look at; sample and turn left out when undefined (older data). */
const at = (id: string, sample: number | undefined, turn: number | undefined, verdict: Verdict): AttemptResult => ({
  id, index: 0, language: 'python', difficulty: 'easy', answer: 'a', extractedCode: 'c', extraction: '', demo: null, full: null, verdict, durationMs: 0,
  ...(sample === undefined ? {} : { sample }), ...(turn === undefined ? {} : { turn }),
});
const label = (r: AttemptResult) => `${r.id}/${r.sample ?? '-'}/${r.turn ?? '-'}`;

describe('the chain key', () => {
  it('is <id>#s<sample>, the prefix of the attempt key of every turn after the first attempt', () => {
    expect(chainKey('abc', 0)).toBe('abc#s0');
    expect(chainKey('abc', 12)).toBe('abc#s12');
    expect(resultKey('abc', 12, 3).startsWith(chainKey('abc', 12) + '#t')).toBe(true);
  });

  it('keeps ids that hold "#s" apart from samples of a shorter id', () => {
    const keys = [chainKey('a#s1', 0), chainKey('a', 1), chainKey('a#s', 10), chainKey('a#s1', 1)];
    expect(new Set(keys).size).toBe(4);
  });

  it('reads results stored before samples and turns existed (no sample, no turn) as sample 0, turn 1', () => {
    // Runs and journals from before samples keep a bare id and no sample/turn fields.
    const old = at('p', undefined, undefined, 'failed');
    expect(chainKeyOf(old)).toBe('p#s0');
    expect(groupChains([old]).get(chainKey('p', 0))).toEqual([old]);
    expect(nextTurn([old], 3)).toBe(2);
    expect(nextTurn([old], 1)).toBeNull();
  });
});

describe('is a chain over', () => {
  it('not before its first turn', () => {
    expect(chainOver(undefined, 3)).toBe(false);
  });
  it('after a pass, at any turn', () => {
    expect(chainOver(at('p', 0, 1, 'passed'), 3)).toBe(true);
    expect(chainOver(at('p', 0, 2, 'passed'), 3)).toBe(true);
  });
  it('after a failing turn only once T turns were used', () => {
    expect(chainOver(at('p', 0, 1, 'failed'), 3)).toBe(false);
    expect(chainOver(at('p', 0, 2, 'failed'), 3)).toBe(false);
    expect(chainOver(at('p', 0, 3, 'failed'), 3)).toBe(true);
    expect(chainOver(at('p', 0, 1, 'failed'), 1)).toBe(true);
  });
  it('after a turn that could not be evaluated (nothing to feed back)', () => {
    expect(chainOver(at('p', 0, 1, 'infra_error'), 3)).toBe(true);
    expect(chainOver(at('p', 0, 2, 'unsupported'), 3)).toBe(true);
  });
  it('counted over every chain by its latest turn', () => {
    const results = [at('p', 0, 1, 'failed'), at('p', 0, 2, 'passed'), at('p', 1, 1, 'failed'), at('q', 0, 1, 'infra_error'), at('q', 1, 1, 'failed'), at('q', 1, 2, 'failed')];
    // p#s0 passed at 2: over. p#s1 failed at 1 of 2: open. q#s0 infra: over. q#s1 failed at 2 of 2: over.
    expect(chainsOver(results, 2)).toBe(3);
    expect([...chainEnds(results)].map(([k, r]) => `${k}:${label(r)}`)).toEqual(['p#s0:p/0/2', 'p#s1:p/1/1', 'q#s0:q/0/1', 'q#s1:q/1/2']);
  });
});

describe('attempt order', () => {
  const shuffled = [at('q', 1, 1, 'failed'), at('p', 1, 2, 'failed'), at('p', 0, 1, 'failed'), at('p', 1, 1, 'failed'), at('q', 0, 1, 'passed'), at('p', 0, 2, 'passed'), at('x', 0, 1, 'passed')];

  it('is by sample, then by turn', () => {
    expect([...shuffled].filter((r) => r.id === 'p').sort(byAttempt).map(label)).toEqual(['p/0/1', 'p/0/2', 'p/1/1', 'p/1/2']);
    expect(attemptsOf(shuffled, 'q').map(label)).toEqual(['q/0/1', 'q/1/1']);
  });

  it('follows the problems\' input order, and leaves out attempts of other problems', () => {
    expect(orderAttempts([{ id: 'q' }, { id: 'p' }], shuffled).map(label)).toEqual(['q/0/1', 'q/1/1', 'p/0/1', 'p/0/2', 'p/1/1', 'p/1/2']);
  });

  it('groups each chain with its turns in order', () => {
    expect([...groupChains(shuffled)].map(([k, c]) => `${k}=${c.map((r) => r.turn).join(',')}`)).toEqual(['q#s1=1', 'p#s1=1,2', 'p#s0=1,2', 'q#s0=1', 'x#s0=1']);
  });
});

describe('continuing', () => {
  it('a chain goes on from its stored turns 1, 2, … up to the first missing one or the one that ended it', () => {
    // Turn 2 missing: turn 3 was answered without it, so it cannot stand.
    expect(standingTurns([at('p', 0, 1, 'failed'), at('p', 0, 3, 'failed')], 3).map(label)).toEqual(['p/0/1']);
    // Turn 1 passed: a stray turn 2 after it is not part of the chain.
    expect(standingTurns([at('p', 0, 2, 'failed'), at('p', 0, 1, 'passed')], 3).map(label)).toEqual(['p/0/1']);
    // No turn 1: nothing stands.
    expect(standingTurns([at('p', 0, 2, 'failed')], 3)).toEqual([]);
  });

  it('the next turn is one after the last stored one, or none once the chain is over', () => {
    expect(nextTurn([], 3)).toBe(1);
    expect(nextTurn([at('p', 0, 1, 'failed'), at('p', 0, 2, 'failed')], 3)).toBe(3);
    expect(nextTurn([at('p', 0, 1, 'failed'), at('p', 0, 2, 'failed'), at('p', 0, 3, 'failed')], 3)).toBeNull();
    expect(nextTurn([at('p', 0, 1, 'passed')], 3)).toBeNull();
    expect(nextTurn([at('p', 0, 1, 'failed'), at('p', 0, 2, 'infra_error')], 3)).toBeNull();
  });

  it('the plan names each open (problem, sample, turn), every problem\'s sample 0 first', () => {
    const stored = groupChains([at('p', 0, 1, 'passed'), at('p', 1, 1, 'failed'), at('q', 0, 1, 'failed'), at('q', 0, 2, 'failed'), at('q', 1, 1, 'infra_error')]);
    const problems = [{ id: 'p' }, { id: 'q' }, { id: 'r' }];
    const prior = (p: { id: string }, sample: number) => stored.get(chainKey(p.id, sample));
    const plan = continuationPlan(problems, prior, 2, 2);
    // p#s0 passed; p#s1 failed at 1 of 2 → turn 2; q#s0 failed at 2 of 2; q#s1 infra; r has nothing → turn 1 for both samples.
    expect(plan.map((a) => `${a.problem.id}/${a.sample}/${a.turn}`)).toEqual(['r/0/1', 'p/1/2', 'r/1/1']);
    expect(openProblems(problems, prior, 2, 2).map((p) => p.id)).toEqual(['p', 'r']);
    // With one turn, p#s1's failing turn 1 is its last: only r is open.
    expect(openProblems(problems, prior, 2, 1).map((p) => p.id)).toEqual(['r']);
  });

  it('an old --out file or journal (bare ids, no sample or turn) continues as sample 0 of a longer run', () => {
    const problems = parseDataset(readFileSync('bench-data/demo.jsonl', 'utf8')).problems.slice(0, 2);
    const [a, b] = problems.map((p) => p.id) as [string, string];
    const fields = { extracted_code: 'x', demo_outcome: 'WRONG_ANSWER', full_outcome: 'WRONG_ANSWER', passed: false, verdict: 'failed', runtime: null, duration_ms: 1 };
    const prior = readJournal([{ type: 'result', id: a, ...fields }, { type: 'answer', id: a, output: 'old answer' }].map((l) => JSON.stringify(l) + '\n').join(''));
    const plan = planRun(problems, prior, false, 2, 3);
    expect([...plan.priorTurns.keys()]).toEqual([chainKey(a, 0)]);
    expect(plan.priorTurns.get(chainKey(a, 0))!.map((r) => [r.sample, r.turn, r.verdict, r.answer])).toEqual([[0, 1, 'failed', 'old answer']]);
    expect([...plan.reused.keys()]).toEqual([a]);
    expect(plan.todo.map((p) => p.id)).toEqual([a, b]);
    // Run as a single run, that failed turn ends the chain: only b is left.
    expect(planRun(problems, prior, false, 1, 1).todo.map((p) => p.id)).toEqual([b]);
  });
});
