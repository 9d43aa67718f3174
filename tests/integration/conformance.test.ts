/**
 * Our verdicts on the official sandbox's own regression cases, for every language with an
 * in-page runtime (run here in Node workers, the same adapters as the page). Each must reach the
 * bar and match the agreement that runtimes/host/catalog.ts declares (routing's `auto` relies on
 * that figure), so the catalog can never claim more than is measured.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { CATALOG, FIDELITY_BAR } from '../../runtimes/host/catalog';
import { WORKER_LANGUAGES } from '../../runtimes/host/languages';
import { createNodeExecutor } from '../../runtimes/host/node';
import { parseConformanceCases, runConformance } from '../../src/core/conformance';

const executor = createNodeExecutor({ poolSize: 2 });
afterAll(() => executor.dispose());

const casesFile = (language: string) => `bench-data/conformance/sandbox-cases/${language}.jsonl`;
const measured = WORKER_LANGUAGES.filter((l) => existsSync(casesFile(l)));

it('the official cases cover the in-page languages they exist for', () => {
  expect(measured).toContain('typescript');
  for (const language of measured) expect(CATALOG[language]!.fidelity.against).toBe('official conformance cases');
});

for (const language of measured) {
  it(`${language}: pass/fail agreement with the official verdicts is what the catalog declares, and at least 95%`, { timeout: 600_000 }, async () => {
    const cases = parseConformanceCases(readFileSync(casesFile(language), 'utf8'));
    const report = await runConformance(language, cases, executor);
    const agree = Math.round(report.verdictAgreement * report.cases);
    const labels = Math.round(report.labelAgreement * report.cases);
    console.log(`${language}: pass/fail of ${agree}/${report.cases} official verdicts reproduced, ${labels}/${report.cases} with the same label (${report.runtime})`);
    for (const d of report.disagreements) console.log(`  case ${d.taskId}: official ${d.expected}, benchtop ${d.got}\n    ${d.stderr.split('\n').slice(0, 3).join('\n    ')}`);
    expect(report.spliceAgreement).toBe(1);
    expect(report.verdictAgreement).toBeGreaterThanOrEqual(FIDELITY_BAR['official conformance cases']);
    expect(report.verdictAgreement).toBeCloseTo(CATALOG[language]!.fidelity.agreement, 5);
  });
}
