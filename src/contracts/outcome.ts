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

/** What a runtime reports about one execution; it never decides pass or fail itself (src/core/rules does). */
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
