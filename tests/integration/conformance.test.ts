/** Our verdicts on the official sandbox's own regression cases, for every language we can run. */
import { readFileSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { parseConformanceCases, runConformance } from '../../src/core/conformance';

const executor = createNodeExecutor({ poolSize: 2 });
afterAll(() => executor.dispose());

it('typescript: every official verdict and spliced program is reproduced', async () => {
  const cases = parseConformanceCases(readFileSync('bench-data/conformance/sandbox-cases/typescript.jsonl', 'utf8'));
  const report = await runConformance('typescript', cases, executor);
  expect(report.cases).toBe(50);
  expect(report.disagreements.map((d) => `${d.taskId}: ${d.expected} vs ${d.got}\n${d.stderr}`)).toEqual([]);
  expect(report.verdictAgreement).toBe(1);
});
