/** SPEC §4's generic verdict rule; the outcome names and the report it reads are contracts (src/contracts/outcome.ts). */
import type { ExecutionReport, Outcome } from '../../contracts';

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
