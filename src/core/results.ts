/** What one problem's evaluation produced: the unit that is stored, shown and exported. */
import type { LanguageId } from './languages';
import type { TokenUsage } from '../models/types';
import type { Outcome } from './rules';

export interface TestRun {
  /** The exact program that ran: solution spliced with the test program. */
  program: string;
  outcome: Outcome;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
  runtime: string;
  /** stdout or stderr was cut at the capture limit (the text ends with a "[… truncated" mark). */
  truncated?: boolean;
}

/**
 * passed: both runs PASSED. failed: the model's code failed. infra_error: the answer or the run
 * could not be obtained (excluded from Pass@1, retryable). unsupported: no runtime for the language.
 */
export type Verdict = 'passed' | 'failed' | 'infra_error' | 'unsupported';

export interface ProblemResult {
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
  durationMs: number;
  /** Tokens the answer cost, where the provider reported them. */
  usage?: TokenUsage;
  /** Reasoning the provider returned apart from the answer. */
  reasoning?: string;
}

/** The outcome that describes a problem: the first run that did not pass, else PASSED. */
export function problemOutcome(r: ProblemResult): Outcome | 'INFRA_ERROR' | 'UNSUPPORTED' {
  if (r.verdict === 'infra_error') return 'INFRA_ERROR';
  if (r.verdict === 'unsupported') return 'UNSUPPORTED';
  if (r.demo && r.demo.outcome !== 'PASSED') return r.demo.outcome;
  if (r.full && r.full.outcome !== 'PASSED') return r.full.outcome;
  return 'PASSED';
}
