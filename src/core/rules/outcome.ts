/** Official status names (SPEC §4) and the order in which one run's outcome is decided. */
export const OUTCOMES = [
  'PASSED', 'WRONG_ANSWER', 'RUNTIME_ERROR', 'TIME_LIMIT_EXCEEDED', 'COMPILATION_ERROR',
  'SYNTAX_ERROR', 'ARGUMENT_ERROR', 'INTERNAL_ERROR',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** A test framework's own count of one run (Java: the JUnit console launcher's XML report). */
export interface TestReport {
  tests: number;
  /** Failures plus errors. */
  failed: number;
  skipped: number;
}

/** What a runtime reports about one execution; it never decides pass or fail itself. */
export interface ExecutionReport {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Compiled languages: the compile step failed / timed out. */
  compileFailed?: boolean;
  compileTimedOut?: boolean;
  /** Languages whose verdict comes from a test framework (Java): its counts; absent when it wrote no report. */
  testReport?: TestReport | null;
}

/**
 * SPEC §4 (corrected 2026-12-01), in order: compile timeout → TLE, compile failure →
 * COMPILATION_ERROR, run timeout → TLE, non-zero exit → RUNTIME_ERROR, exit 0 with an error
 * substring anywhere in stdout+stderr → WRONG_ANSWER, else PASSED. The exit code comes before the
 * substrings, as in the official executor. Compat mode inspects the whole output (the official
 * sandbox only ~2 KB per stream; see docs/fidelity.md).
 */
export function decideOutcome(report: ExecutionReport, errorSubstrings: readonly string[]): Outcome {
  if (report.compileTimedOut) return 'TIME_LIMIT_EXCEEDED';
  if (report.compileFailed) return 'COMPILATION_ERROR';
  if (report.timedOut) return 'TIME_LIMIT_EXCEEDED';
  if (report.exitCode !== 0) return 'RUNTIME_ERROR';
  const output = report.stdout + report.stderr;
  if (errorSubstrings.some((s) => output.includes(s))) return 'WRONG_ANSWER';
  return 'PASSED';
}
