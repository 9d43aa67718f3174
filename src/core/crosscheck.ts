/**
 * Cross-check of two executors on the same programs: for a language whose in-page runtime has no
 * official conformance cases (C++, Shell), its verdicts are compared with those of the real
 * toolchain (a remote runner: g++, bash) on the demo set's canonical solutions and recorded answers.
 */
import type { Executor, LanguageId, Outcome, Problem } from '../contracts';
import { extractCode } from './extract';
import { judgeRun, officialTimeoutMs, precheckProgram, spliceProgram } from './rules';

export interface CrossCheckProgram {
  /** e.g. "3f2a…c1 canonical, demo test". */
  label: string;
  program: string;
}

export interface CrossCheckReport {
  language: LanguageId;
  programs: number;
  agreement: number;
  disagreements: Array<{ label: string; first: Outcome; second: Outcome }>;
  runtimes: [string, string];
}

/** Every (answer × test) program of `language`: canonical solutions and the recorded answers by problem id. */
export function crossCheckPrograms(language: LanguageId, problems: readonly Problem[], answers: ReadonlyMap<string, string>): CrossCheckProgram[] {
  const programs: CrossCheckProgram[] = [];
  for (const p of problems.filter((q) => q.language === language)) {
    const recorded = answers.get(p.id);
    const codes: Array<[string, string]> = [['canonical', p.record.canonical_solution]];
    if (recorded !== undefined) codes.push(['recorded answer', extractCode(recorded, language, 'compat', p.record.canonical_solution).code]);
    for (const [which, code] of codes) {
      programs.push({ label: `${p.id} ${which}, demo test`, program: spliceProgram(language, code, p.record.demo_test_func) });
      programs.push({ label: `${p.id} ${which}, full test`, program: spliceProgram(language, code, p.record.full_test_func) });
    }
  }
  return programs;
}

export async function crossCheck(
  language: LanguageId,
  programs: readonly CrossCheckProgram[],
  first: Executor,
  second: Executor,
  timeoutMs = officialTimeoutMs(language),
): Promise<CrossCheckReport> {
  const runtimes: [string, string] = ['', ''];
  const verdict = async (executor: Executor, program: string, slot: 0 | 1): Promise<Outcome> => {
    const early = precheckProgram(language, program);
    if (early) return early;
    const run = await executor.run({ language, program, timeoutMs });
    runtimes[slot] ||= run.runtime;
    return judgeRun(language, run);
  };
  // One side after the other, each with the machine to itself: run side by side, a C++ compile in
  // WebAssembly and g++ under the runner competed for the same cores, and programs well inside the
  // limit on either side alone timed out (CI, 2026-12-03: 4 of 20 C++ programs at 8 s).
  const ofFirst = await Promise.all(programs.map(({ program }) => verdict(first, program, 0)));
  const ofSecond = await Promise.all(programs.map(({ program }) => verdict(second, program, 1)));
  const results = programs.map(({ label }, i) => ({ label, first: ofFirst[i]!, second: ofSecond[i]! }));
  const disagreements = results.filter((r) => r.first !== r.second);
  return {
    language,
    programs: results.length,
    agreement: results.length ? (results.length - disagreements.length) / results.length : 1,
    disagreements,
    runtimes,
  };
}
