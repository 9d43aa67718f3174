/**
 * `npm run conformance`: for every language that has both conformance cases and a runtime here,
 * the share of official regression cases whose verdict and spliced program we reproduce.
 */
import { readFile, readdir } from 'node:fs/promises';
import { runConformance, parseConformanceCases, type ConformanceReport } from '../core/conformance';
import { formatPercent } from '../core/metrics';
import { normalizeLanguage, type LanguageId } from '../core/languages';
import { languageRule } from '../core/rules';
import { parseArgs } from 'node:util';
import { createCliExecutor, RunnerSetupError } from './runtimes';

const dir = new URL('bench-data/conformance/sandbox-cases/', `file://${process.cwd()}/`);
const USAGE = 'usage: npm run conformance -- [--runner URL]... [--runner-token TOKEN] [--languages kotlin,rust]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { runner: { type: 'string', multiple: true }, 'runner-token': { type: 'string' }, languages: { type: 'string' } },
    strict: true,
  });
  const only = (values.languages ?? '').split(',').map((l) => l.trim()).filter(Boolean).map((l) => {
    const id = normalizeLanguage(l);
    if (!id) throw new UsageError(`unknown language: ${l}`);
    return id;
  });
  // With --runner, languages without an in-browser runtime run on the runner(s).
  const executor = await createCliExecutor({
    concurrency: 2, runners: values.runner ?? [], runnerToken: values['runner-token'] ?? process.env.RUNNER_TOKEN, log: (line) => console.error(line),
  });
  const files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort()
    .filter((f) => !only.length || only.includes(normalizeLanguage(f.replace(/\.jsonl$/, '')) as LanguageId));
  const reports: ConformanceReport[] = [];
  const skipped: string[] = [];
  try {
    for (const file of files) {
      const language = normalizeLanguage(file.replace(/\.jsonl$/, '')) as LanguageId;
      if (!executor.languages().includes(language) || !languageRule(language).splice) {
        skipped.push(language);
        continue;
      }
      const cases = parseConformanceCases(await readFile(new URL(file, dir), 'utf8'));
      reports.push(await runConformance(language, cases, executor));
    }
  } finally {
    await executor.dispose();
  }
  console.log('language    cases  verdicts agree  programs equal  runtime');
  for (const r of reports) {
    console.log(`${r.language.padEnd(10)}  ${String(r.cases).padStart(5)}  ${formatPercent(r.verdictAgreement).padStart(14)}  ${formatPercent(r.spliceAgreement).padStart(14)}  ${r.runtime}`);
    for (const d of r.disagreements) {
      console.log(`  case ${d.taskId}: official ${d.expected}, benchtop ${d.got}${d.spliceMatches ? '' : ', spliced program differs'}`);
    }
  }
  if (skipped.length) console.log(`not measured here (no runtime or splice yet): ${skipped.join(', ')}`);
}

class UsageError extends Error {}

main().catch((e: Error) => {
  if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`error: ${e.message}\n${USAGE}`);
    process.exit(2);
  }
  console.error(e instanceof RunnerSetupError ? `error: ${e.message}` : e.stack ?? String(e));
  process.exit(1);
});
