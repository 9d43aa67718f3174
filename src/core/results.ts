/** What one attempt (problem, sample, turn) produced: the unit that is stored, shown and exported. */
import type { LanguageId, Outcome, TokenUsage } from '../contracts';

export interface TestRun {
  /** The exact program that ran: solution spliced with the test program. */
  program: string;
  outcome: Outcome;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The program's own run (compile included), not the wait before it. */
  durationMs: number;
  /** How long it waited for a worker (a free one, or one loading its runtime, download included). */
  waitMs?: number;
  runtime: string;
  /** stdout or stderr was cut at the capture limit (the text ends with a "[… truncated" mark). */
  truncated?: boolean;
}

/**
 * passed: both runs PASSED. failed: the model's code failed. infra_error: the answer or the run
 * could not be obtained (excluded from Pass@1, retryable). unsupported: no runtime for the language.
 */
export type Verdict = 'passed' | 'failed' | 'infra_error' | 'unsupported';

/** One attempt: a (problem, sample, turn)'s answer, code, runs and verdict. */
export interface AttemptResult {
  id: string;
  index: number;
  language: LanguageId;
  difficulty: string;
  /** The model's answer as received (null if none could be obtained). */
  answer: string | null;
  extractedCode: string;
  /** How extraction found the code. */
  extraction: string;
  demo: TestRun | null;
  full: TestRun | null;
  verdict: Verdict;
  /** The message for infra_error / unsupported. */
  error?: string;
  /** Wall time of the whole attempt: the answer, the wait for a worker and the runs. */
  durationMs: number;
  /** Time the two test programs ran (demo + full), without any wait: "run time" on the page and in exports. */
  runMs?: number;
  /** The longer of the two programs' waits for a worker (they wait side by side): "wait" on the page and in exports. */
  waitMs?: number;
  /** Tokens the answer cost, where the provider reported them. */
  usage?: TokenUsage;
  /** Reasoning the provider returned apart from the answer. */
  reasoning?: string;
  /** 0-based sample of the problem; the engine always sets it (absent in older data: 0). */
  sample?: number;
  /** 1-based refinement turn; the engine always sets it (absent in older data: 1). */
  turn?: number;
  /** The execution feedback the model was given after this turn (set only when another turn followed). */
  feedback?: string;
}

/** Run time of an attempt (see AttemptResult.runMs); null when nothing ran. */
export function runTimeOf(r: Pick<AttemptResult, 'runMs' | 'demo' | 'full'>): number | null {
  if (r.runMs !== undefined) return r.runMs;
  return r.demo || r.full ? (r.demo?.durationMs ?? 0) + (r.full?.durationMs ?? 0) : null;
}

export const sampleOf = (r: Pick<AttemptResult, 'sample'>): number => r.sample ?? 0;
export const turnOf = (r: Pick<AttemptResult, 'turn'>): number => r.turn ?? 1;

/** The key of one (problem, sample, turn) in journals and stores: the bare id for sample 0, turn 1. */
export function resultKey(id: string, sample = 0, turn = 1): string {
  return sample === 0 && turn === 1 ? id : `${id}#s${sample}#t${turn}`;
}

/** The inverse of resultKey. */
export function parseResultKey(key: string): { id: string; sample: number; turn: number } {
  const m = /^(.*)#s(\d+)#t(\d+)$/.exec(key);
  return m ? { id: m[1]!, sample: Number(m[2]), turn: Number(m[3]) } : { id: key, sample: 0, turn: 1 };
}

/** The outcome that describes a problem: the first run that did not pass, else PASSED. */
export function problemOutcome(r: AttemptResult): Outcome | 'INFRA_ERROR' | 'UNSUPPORTED' {
  if (r.verdict === 'infra_error') return 'INFRA_ERROR';
  if (r.verdict === 'unsupported') return 'UNSUPPORTED';
  if (r.demo && r.demo.outcome !== 'PASSED') return r.demo.outcome;
  if (r.full && r.full.outcome !== 'PASSED') return r.full.outcome;
  return 'PASSED';
}
