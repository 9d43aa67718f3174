/**
 * `npm run conformance`: for every language that has both conformance cases and a runtime here,
 * the share of official regression cases whose verdict and spliced program we reproduce.
 */
import { readFile, readdir } from 'node:fs/promises';
import { runConformance, parseConformanceCases, type ConformanceReport } from '../core/conformance';
import { formatPercent } from '../core/metrics';
import { normalizeLanguage, type LanguageId } from '../core/languages';
import { languageRule } from '../core/rules';
import { createNodeExecutor } from '../../runtimes/host/node';

const dir = new URL('bench-data/conformance/sandbox-cases/', `file://${process.cwd()}/`);

async function main(): Promise<void> {
  const executor = createNodeExecutor({ poolSize: 2 });
  const files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort();
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

main().catch((e: Error) => {
  console.error(e.stack ?? String(e));
  process.exit(1);
});
