/**
 * Agreement with the official sandbox on its own regression cases (bench-data/conformance):
 * does our splice give the same program, and does our runtime give the same verdict?
 */
import type { Executor, LanguageId, Outcome } from '../contracts';
import { judgeRun, languageRule, precheckProgram, spliceProgram } from './rules';

export interface ConformanceCase {
  task_id?: number | string;
  code: string;
  assertions: string;
  all_code: string;
  exec_outcome: Outcome;
}

export interface CaseResult {
  taskId: string;
  expected: Outcome;
  got: Outcome;
  spliceMatches: boolean;
  stderr: string;
}

export interface ConformanceReport {
  language: LanguageId;
  cases: number;
  /** Share of cases whose pass/fail matches the official verdict (what Pass@1 depends on). */
  verdictAgreement: number;
  /** Share of cases with exactly the official outcome label (e.g. WRONG_ANSWER vs RUNTIME_ERROR). */
  labelAgreement: number;
  spliceAgreement: number;
  disagreements: CaseResult[];
  runtime: string;
}

const passed = (outcome: Outcome) => outcome === 'PASSED';

export function parseConformanceCases(text: string): ConformanceCase[] {
  return text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as ConformanceCase);
}

export async function runConformance(
  language: LanguageId,
  cases: readonly ConformanceCase[],
  executor: Executor,
  timeoutMs = languageRule(language).timeoutSeconds * 1000,
): Promise<ConformanceReport> {
  let runtime = '';
  const results = await Promise.all(
    cases.map(async (c, i): Promise<CaseResult> => {
      const program = spliceProgram(language, c.code, c.assertions);
      const base = { taskId: String(c.task_id ?? i + 1), expected: c.exec_outcome, spliceMatches: program === c.all_code };
      // Same order as the engine: a pre-check verdict (PHP) means the program never runs.
      const early = precheckProgram(language, program);
      if (early) return { ...base, got: early, stderr: '' };
      const run = await executor.run({ language, program, timeoutMs });
      runtime ||= run.runtime;
      return { ...base, got: judgeRun(language, run), stderr: run.stderr.slice(0, 2000) };
    }),
  );
  return {
    language,
    cases: results.length,
    verdictAgreement: results.filter((r) => passed(r.got) === passed(r.expected)).length / results.length,
    labelAgreement: results.filter((r) => r.got === r.expected).length / results.length,
    spliceAgreement: results.filter((r) => r.spliceMatches).length / results.length,
    disagreements: results.filter((r) => r.got !== r.expected || !r.spliceMatches),
    runtime,
  };
}
