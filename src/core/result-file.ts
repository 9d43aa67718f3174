/**
 * The results file (the CLI's --out, the app's results export): one JSON object per evaluated
 * record, in input order: the record, its id, the answer (`output`, the official format), then
 * what the evaluation found (`ResultFields`).
 */
import { fromStoredUsage, toStoredUsage, type Outcome, type Problem, type StoredUsage } from '../contracts';
import { sampleOf, turnOf, type AttemptResult, type Verdict } from './results';

/** What a result adds to a record; also what the journal stores for a finished problem. */
export interface ResultFields {
  extracted_code: string;
  demo_outcome: string | null;
  full_outcome: string | null;
  passed: boolean;
  verdict: Verdict;
  error?: string;
  runtime: string | null;
  /** Wall time of the attempt: answer, wait and runs. */
  duration_ms: number;
  /** Time the test programs ran, without waiting (absent in older files). */
  run_ms?: number;
  /** Time the programs waited for a worker, runtime download included (absent in older files). */
  wait_ms?: number;
  usage?: StoredUsage;
  /** 0-based sample: written for every line of a run with several samples or turns (absent: 0). */
  sample?: number;
  /** 1-based refinement turn, likewise (absent: 1). */
  turn?: number;
  /** The execution feedback sent to the model after this turn, when another turn followed. */
  feedback?: string;
}

const CANONICAL = 'canonical solution (no extraction)';

/** The answer as it goes into `output`: none for canonical solutions (they are not answers). */
export function outputOf(result: AttemptResult): string | undefined {
  return result.answer !== null && result.extraction !== CANONICAL ? result.answer : undefined;
}

/**
 * `keyed`: the run has several samples or turns, so every line names its sample and turn. A
 * single-sample single-turn run writes exactly the fields it always did.
 */
export function resultFields(result: AttemptResult, keyed = false): ResultFields {
  return {
    ...(keyed || sampleOf(result) !== 0 || turnOf(result) !== 1 ? { sample: sampleOf(result), turn: turnOf(result) } : {}),
    extracted_code: result.extractedCode,
    demo_outcome: result.demo?.outcome ?? (result.verdict === 'infra_error' ? 'INFRA_ERROR' : null),
    full_outcome: result.full?.outcome ?? (result.verdict === 'infra_error' ? 'INFRA_ERROR' : null),
    passed: result.verdict === 'passed',
    verdict: result.verdict,
    ...(result.error ? { error: result.error } : {}),
    runtime: result.demo?.runtime ?? null,
    duration_ms: Math.round(result.durationMs),
    ...(result.runMs !== undefined ? { run_ms: Math.round(result.runMs) } : {}),
    ...(result.waitMs !== undefined ? { wait_ms: Math.round(result.waitMs) } : {}),
    ...(result.usage ? { usage: toStoredUsage(result.usage) } : {}),
    ...(result.feedback !== undefined ? { feedback: result.feedback } : {}),
  };
}

export function resultLine(problem: Problem, output: string | undefined, fields: ResultFields): string {
  return JSON.stringify({ ...problem.record, id: problem.id, ...(output !== undefined ? { output } : {}), ...fields });
}

/** A stored result back as a AttemptResult, enough for the summary (no programs or output streams). */
export function storedResult(problem: Problem, fields: ResultFields, output: string | undefined): AttemptResult {
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
    ...(fields.run_ms !== undefined ? { runMs: fields.run_ms } : {}),
    ...(fields.wait_ms !== undefined ? { waitMs: fields.wait_ms } : {}),
    ...(usage ? { usage } : {}),
    sample: fields.sample ?? 0,
    turn: fields.turn ?? 1,
    ...(fields.feedback !== undefined ? { feedback: fields.feedback } : {}),
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
  if (typeof v.run_ms === 'number') f.run_ms = v.run_ms;
  if (typeof v.wait_ms === 'number') f.wait_ms = v.wait_ms;
  const usage = fromStoredUsage(v.usage);
  if (usage) f.usage = toStoredUsage(usage);
  if (typeof v.sample === 'number' && Number.isInteger(v.sample) && v.sample >= 0) f.sample = v.sample;
  if (typeof v.turn === 'number' && Number.isInteger(v.turn) && v.turn >= 1) f.turn = v.turn;
  if (typeof v.feedback === 'string') f.feedback = v.feedback;
  return f;
}
