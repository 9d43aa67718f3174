import { hoistLines, withHeader } from './hoist';
import type { ExecutionReport, Outcome } from '../../contracts';

// Only one public top-level class is allowed per file, so every class loses its access modifier.
const CLASS_MODIFIER = /\b(?:public|private|protected)\s+class\b/g;
const isImport = (line: string) => line.trimStart().startsWith('import ');
// One file in the default package: `package` lines would not match the file's location.
const isPackage = (line: string) => /^\s*package\s/.test(line);

/**
 * Java (SPEC §5): `public`/`private`/`protected class` → `class`; `import` lines of both parts go
 * to the top once each (first-seen order: SPEC asks for de-duplication, not sorting); `package`
 * lines are dropped; then the solution, a blank line, the tests.
 */
export function javaSplice(solution: string, tests: string): string {
  const h = hoistLines(solution, tests, isImport, isPackage);
  const body = (h.solution + '\n\n' + h.tests).replace(CLASS_MODIFIER, 'class');
  return withHeader(h.lines, body);
}

/**
 * Java's outcome (SPEC §4–5, corrected 2026-12-01): the compile step as for every language; then
 * the launcher's exit code first, as for every language (non-zero → RUNTIME_ERROR: the JUnit
 * console launcher exits 1 when a test fails, so a failed assertion is RUNTIME_ERROR); then JUnit's
 * report: no readable report or no test found → RUNTIME_ERROR; any failed test → WRONG_ANSWER; at
 * least one passed test → PASSED. Official quirk, reproduced: a run that hangs until the time
 * limit is scored PASSED.
 */
export function javaOutcome(report: ExecutionReport): Outcome {
  if (report.compileTimedOut) return 'TIME_LIMIT_EXCEEDED';
  if (report.compileFailed) return 'COMPILATION_ERROR';
  if (report.timedOut) return 'PASSED';
  if (report.exitCode !== 0) return 'RUNTIME_ERROR';
  const tests = report.testReport;
  if (!tests || tests.tests === 0) return 'RUNTIME_ERROR';
  if (tests.failed > 0) return 'WRONG_ANSWER';
  return tests.tests - tests.skipped > 0 ? 'PASSED' : 'RUNTIME_ERROR';
}
