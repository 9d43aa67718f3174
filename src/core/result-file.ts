/**
 * The results file (the CLI's --out, the app's results export): one JSON object per evaluated
 * record, in input order: the record, its id, the answer (`output`, the official format), then
 * what the evaluation found (`ResultFields`).
 */
import type { Problem } from './records';
import type { ProblemResult, Verdict } from './results';
import type { Outcome } from './rules';
import { fromStoredUsage, toStoredUsage, type StoredUsage } from '../models/usage';

/** What a result adds to a record; also what the journal stores for a finished problem. */
export interface ResultFields {
  extracted_code: string;
  demo_outcome: string | null;
  full_outcome: string | null;
  passed: boolean;
  verdict: Verdict;
  error?: string;
  runtime: string | null;
  duration_ms: number;
  usage?: StoredUsage;
}

const CANONICAL = 'canonical solution (no extraction)';

/** The answer as it goes into `output`: none for canonical solutions (they are not answers). */
export function outputOf(result: ProblemResult): string | undefined {
  return result.answer !== null && result.extraction !== CANONICAL ? result.answer : undefined;
}

export function resultFields(result: ProblemResult): ResultFields {
  return {
    extracted_code: result.extractedCode,
    demo_outcome: result.demo?.outcome ?? (result.verdict === 'infra_error' ? 'INFRA_ERROR' : null),
    full_outcome: result.full?.outcome ?? (result.verdict === 'infra_error' ? 'INFRA_ERROR' : null),
    passed: result.verdict === 'passed',
    verdict: result.verdict,
    ...(result.error ? { error: result.error } : {}),
    runtime: result.demo?.runtime ?? null,
    duration_ms: Math.round(result.durationMs),
    ...(result.usage ? { usage: toStoredUsage(result.usage) } : {}),
  };
}

export function resultLine(problem: Problem, output: string | undefined, fields: ResultFields): string {
  return JSON.stringify({ ...problem.record, id: problem.id, ...(output !== undefined ? { output } : {}), ...fields });
}

/** A stored result back as a ProblemResult, enough for the summary (no programs or output streams). */
export function storedResult(problem: Problem, fields: ResultFields, output: string | undefined): ProblemResult {
  const run = (outcome: string | null) =>
    outcome === null || outcome === 'INFRA_ERROR'
      ? null
      : { program: '', outcome: outcome as Outcome, exitCode: null, stdout: '', stderr: '', timedOut: false, durationMs: 0, runtime: fields.runtime ?? '' };
  const usage = fromStoredUsage(fields.usage);
  return {
    id: problem.id,
    index: problem.index,
    language: problem.language,
    difficulty: problem.difficulty,
    answer: output ?? null,
    extractedCode: fields.extracted_code,
    extraction: 'stored result',
    demo: run(fields.demo_outcome),
    full: run(fields.full_outcome),
    verdict: fields.verdict,
    ...(fields.error ? { error: fields.error } : {}),
    durationMs: fields.duration_ms,
    ...(usage ? { usage } : {}),
  };
}

/** Checks a parsed object has the fields of a stored result. */
export function isResultFields(v: Record<string, unknown>): boolean {
  return typeof v.verdict === 'string' && typeof v.extracted_code === 'string' && 'demo_outcome' in v && 'full_outcome' in v;
}

/** Only the ResultFields of an object that holds more (an out line, a journal entry). */
export function pickResultFields(v: Record<string, unknown>): ResultFields {
  const f: ResultFields = {
    extracted_code: v.extracted_code as string,
    demo_outcome: (v.demo_outcome as string | null) ?? null,
    full_outcome: (v.full_outcome as string | null) ?? null,
    passed: v.passed === true,
    verdict: v.verdict as Verdict,
    runtime: (v.runtime as string | null) ?? null,
    duration_ms: typeof v.duration_ms === 'number' ? v.duration_ms : 0,
  };
  if (typeof v.error === 'string') f.error = v.error;
  const usage = fromStoredUsage(v.usage);
  if (usage) f.usage = toStoredUsage(usage);
  return f;
}
