/**
 * Java's verdict reads JUnit, not substrings (SPEC §5): the runner runs the JUnit 5 console
 * launcher with `--reports-dir reports` and reads the counts from its XML report
 * (reports/TEST-junit-jupiter.xml). The decision itself (the launcher's exit code first, then
 * failed tests → WRONG_ANSWER, no tests → RUNTIME_ERROR, …) is src/core/rules/java.ts's
 * `javaOutcome`, shared with every client.
 */
import type { TestReport } from '../src/contracts';

/** The counts of the first `<testsuite>` element, or null when there is no readable report. */
export function parseJUnitReport(xml: string | undefined): TestReport | null {
  if (!xml) return null;
  const tag = /<testsuite\b([^>]*)>/.exec(xml);
  if (!tag) return null;
  const attribute = (name: string): number | null => {
    const m = new RegExp(`\\b${name}="(\\d+)"`).exec(tag[1]!);
    return m ? Number(m[1]) : null;
  };
  const tests = attribute('tests');
  if (tests === null) return null;
  return {
    tests,
    failed: (attribute('failures') ?? 0) + (attribute('errors') ?? 0),
    skipped: attribute('skipped') ?? 0,
  };
}
