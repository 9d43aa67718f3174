/** The --out file: one JSON object per evaluated record, in input order. */
import type { Problem } from '../core/records';
import type { ProblemResult } from '../core/results';

export function resultLine(problem: Problem, result: ProblemResult): string {
  return JSON.stringify({
    ...problem.record,
    id: problem.id,
    ...(result.answer !== null && result.extraction !== 'canonical solution (no extraction)' ? { output: result.answer } : {}),
    extracted_code: result.extractedCode,
    demo_outcome: result.demo?.outcome ?? (result.verdict === 'infra_error' ? 'INFRA_ERROR' : null),
    full_outcome: result.full?.outcome ?? (result.verdict === 'infra_error' ? 'INFRA_ERROR' : null),
    passed: result.verdict === 'passed',
    verdict: result.verdict,
    ...(result.error ? { error: result.error } : {}),
    runtime: result.demo?.runtime ?? null,
    duration_ms: Math.round(result.durationMs),
  });
}
