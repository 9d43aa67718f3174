/**
 * In-page runtimes against the real toolchains (a remote runner started here: g++, bash, python3,
 * node, …) on the demo set's canonical solutions and recorded answers. For a runtime measured this
 * way (C++, Shell, Python, JavaScript, TypeScript), the agreement must match what
 * runtimes/host/catalog.ts declares, since routing's `auto` relies on that figure (99% bar).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CATALOG, FIDELITY_BAR } from '../../runtimes/host/catalog';
import { WORKER_LANGUAGES } from '../../runtimes/host/languages';
import { createNodeExecutor } from '../../runtimes/host/node';
import { connectRemoteExecutor, type RemoteExecutor } from '../../runtimes/remote/executor';
import type { StartedRunner } from '../../runner/runner';
import { crossCheck, crossCheckPrograms } from '../../src/core/crosscheck';
import { parseDataset } from '../../src/core/records';
import { parseAnswers } from '../../src/models/replay';
import { startTestRunner } from '../support/runner-helpers';

const { problems } = parseDataset(readFileSync('bench-data/demo.jsonl', 'utf8'));
const answers = new Map(parseAnswers(readFileSync('bench-data/demo-answers.jsonl', 'utf8')).answers.filter((a) => a.id).map((a) => [a.id!, a.output]));
// Python and JavaScript are checked against python3 and node directly by demo.test.ts.
const checked = WORKER_LANGUAGES.filter((l) => CATALOG[l]!.fidelity.against === 'real toolchain on the demo set' && l !== 'python' && l !== 'javascript');

const local = createNodeExecutor({ poolSize: 2 });
let runner: StartedRunner;
let remote: RemoteExecutor;

beforeAll(async () => {
  runner = await startTestRunner();
  remote = await connectRemoteExecutor({ urls: [runner.url] });
});
afterAll(async () => {
  await Promise.all([local.dispose(), remote?.dispose()]);
  await runner?.close();
});

// Each program gets the official time limit (crossCheck's default): no recorded C++ or Shell
// answer runs away, and an 8 s limit made a cold clang's compiles on a busy machine time out (CI,
// 2026-12-03: 4 of 20), a disagreement about the machine rather than the verdicts.
for (const language of checked) {
  it(`${language}: in-page verdicts agree with the real toolchain's as the catalog declares`, { timeout: 600_000 }, async () => {
    expect(remote.languages(), `the runner here has no ${language} toolchain`).toContain(language);
    const report = await crossCheck(language, crossCheckPrograms(language, problems, answers), local, remote);
    const agree = Math.round(report.agreement * report.programs);
    console.log(`${language}: ${agree}/${report.programs} verdicts agree (${report.runtimes[0]} | ${report.runtimes[1]})`);
    for (const d of report.disagreements) console.log(`  ${d.label}: in-page ${d.first}, runner ${d.second}`);
    expect(report.programs).toBeGreaterThanOrEqual(20);
    expect(report.agreement).toBeCloseTo(CATALOG[language]!.fidelity.agreement, 5);
    // Below the bar, `auto` sends the language to a runner instead (trustedInPage): say so here.
    if (report.agreement < FIDELITY_BAR['real toolchain on the demo set']) console.log(`  ${language}: below the bar; auto prefers a remote runner`);
  });
}
