/**
 * The scale run's per-problem outcomes (src/bench/scale-problems.ts): every canonical solution must
 * pass (SPEC §1), so each one that did not is named, never counted silently: a time limit is
 * "under load" only when the same problem passed on another way; an INFRA_ERROR is not a verdict
 * (SPEC §4); any other outcome is a wrong verdict. The per-language table compares passed run times.
 */
import { describe, expect, it } from 'vitest';
import { causeOf, failureKinds, failureLines, languageTable, loadRange, outcomeOf, type ProblemOutcome, type WayOutcomes } from '../../src/bench/scale-problems';

const ok = (id: string, language: string, run_ms: number): ProblemOutcome => ({ id, language, verdict: 'passed', passed: true, demo_outcome: 'PASSED', full_outcome: 'PASSED', duration_ms: run_ms + 5, run_ms });
const failed = (id: string, language: string, full: string, extra: Partial<ProblemOutcome> = {}): ProblemOutcome => ({ id, language, verdict: 'failed', passed: false, demo_outcome: 'PASSED', full_outcome: full, duration_ms: 40_000, run_ms: 39_000, ...extra });
const load = loadRange([28.5, 31.2, 40.1]);

describe('scale run outcomes', () => {
  it('a time limit is the load\'s only when another way passed the same problem', () => {
    const page: WayOutcomes = { name: 'in-page', load, outcomes: [failed('a', 'cpp', 'TIME_LIMIT_EXCEEDED'), failed('b', 'cpp', 'TIME_LIMIT_EXCEEDED')] };
    const runner: WayOutcomes = { name: 'runner', load: loadRange([2]), outcomes: [ok('a', 'cpp', 850), failed('b', 'cpp', 'TIME_LIMIT_EXCEEDED')] };
    const lines = failureLines(page, [page, runner]);
    expect(lines[0]).toMatch(/^a \(cpp\): TIME_LIMIT_EXCEEDED under load \(load average 28\.5–40\.1 .*passed runner in 850 ms\)$/);
    expect(lines[1]).toMatch(/^b \(cpp\): TIME_LIMIT_EXCEEDED not passed on any other way/);
    expect(failureKinds(lines)).toEqual({ load: 1, infra: 0, wrong: 0, other: 1 });
  });

  it('any other outcome of a canonical solution is a wrong verdict; an INFRA_ERROR is not a verdict', () => {
    const runtimeError = causeOf(failed('c', 'php', 'RUNTIME_ERROR', { error: undefined }), load, { way: 'runner', runMs: 40 });
    expect(runtimeError).toMatch(/^WRONG VERDICT for a canonical solution \(fidelity bug\): demo \/ full PASSED \/ RUNTIME_ERROR; passed runner/);
    const infra = causeOf(failed('d', 'perl', 'INFRA_ERROR', { verdict: 'infra_error', error: 'the runtime sandbox frame stopped answering' }), load, undefined);
    expect(infra).toBe('INFRA_ERROR (not a verdict): the runtime sandbox frame stopped answering');
    expect(failureKinds([runtimeError, infra])).toEqual({ load: 0, infra: 1, wrong: 1, other: 0 });
  });

  it('keeps only the outcome fields of a results line (not the record or the code)', () => {
    const line = { ...ok('e', 'python', 12), question: 'q', canonical_solution: 'x = 1', extracted_code: 'x = 1', wait_ms: 3 } as ProblemOutcome;
    expect(Object.keys(outcomeOf(line)).sort()).toEqual(['demo_outcome', 'duration_ms', 'full_outcome', 'id', 'language', 'passed', 'run_ms', 'verdict', 'wait_ms']);
  });

  it('compares per-language median run times of passed problems, first way over last', () => {
    const page: WayOutcomes = { name: 'in-page', load, outcomes: [ok('a', 'python', 300), ok('b', 'python', 500), failed('c', 'cpp', 'TIME_LIMIT_EXCEEDED'), ok('d', 'cpp', 4000)] };
    const runner: WayOutcomes = { name: 'runner', load, outcomes: [ok('a', 'python', 100), ok('b', 'python', 100), ok('c', 'cpp', 900), ok('d', 'cpp', 1100)] };
    const rows = languageTable([page, runner]);
    expect(rows.find((r) => r.startsWith('| python '))).toBe('| python | 2/2, 400 ms | 2/2, 100 ms | 4.00× |');
    // The time-limited C++ run does not count as a run time: 4000 / 1000.
    expect(rows.find((r) => r.startsWith('| cpp '))).toBe('| cpp | 1/2, 4000 ms | 2/2, 1000 ms | 4.00× |');
  });
});
