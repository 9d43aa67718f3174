/**
 * `npm run conformance`: for every language that has both conformance cases and a runtime here,
 * the share of official regression cases whose verdict and spliced program we reproduce.
 */
import { readFile, readdir } from 'node:fs/promises';
import { runConformance, parseConformanceCases, type ConformanceReport } from '../core/conformance';
import { formatPercent } from '../core/metrics';
import { normalizeLanguage, type LanguageId } from '../contracts';
import { languageRule } from '../core/rules';
import { parseArgs } from 'node:util';
import { createNodeExecutor } from '../../runtimes/host/node';
import { crossCheck, crossCheckPrograms, type CrossCheckReport } from '../core/crosscheck';
import { parseDataset } from '../core/records';
import { parseAnswers } from '../models/replay';
import { connectRunners, RunnerSetupError } from './runtimes';
import { differentialMain } from './differential';

const root = new URL(`file://${process.cwd()}/`);
const dir = new URL('bench-data/conformance/sandbox-cases/', root);
const USAGE = 'usage: npm run conformance -- [--runner URL]... [--runner-token TOKEN] [--languages kotlin,rust] [--differential [--sample N]]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { runner: { type: 'string', multiple: true }, 'runner-token': { type: 'string' }, languages: { type: 'string' },
      differential: { type: 'boolean' }, sample: { type: 'string' } },
    strict: true,
  });
  const only = (values.languages ?? '').split(',').map((l) => l.trim()).filter(Boolean).map((l) => {
    const id = normalizeLanguage(l);
    if (!id) throw new UsageError(`unknown language: ${l}`);
    return id;
  });
  const wanted = (l: LanguageId) => !only.length || only.includes(l);
  if (values.differential) {
    const sample = values.sample === undefined ? null : Number(values.sample);
    if (sample !== null && !(Number.isInteger(sample) && sample > 0)) throw new UsageError(`--sample takes a positive integer, not ${values.sample}`);
    return differentialMain(root, wanted, sample);
  }
  if (values.sample !== undefined) throw new UsageError('--sample goes with --differential');
  // The in-page runtimes (in Node workers) are what is measured; with --runner, languages without
  // one run on the runner, and the runner's real toolchains cross-check the in-page runtimes.
  const local = createNodeExecutor({ poolSize: 2 });
  const remote = values.runner?.length
    ? await connectRunners({ runners: values.runner, runnerToken: values['runner-token'] ?? process.env.RUNNER_TOKEN, log: (line) => console.error(line) })
    : null;
  const files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort()
    .filter((f) => wanted(normalizeLanguage(f.replace(/\.jsonl$/, '')) as LanguageId));
  const reports: ConformanceReport[] = [];
  const checks: CrossCheckReport[] = [];
  const skipped: string[] = [];
  try {
    for (const file of files) {
      const language = normalizeLanguage(file.replace(/\.jsonl$/, '')) as LanguageId;
      const executor = local.languages().includes(language) ? local : remote?.languages().includes(language) ? remote : null;
      if (!executor || !languageRule(language).splice) {
        skipped.push(language);
        continue;
      }
      const cases = parseConformanceCases(await readFile(new URL(file, dir), 'utf8'));
      reports.push(await runConformance(language, cases, executor));
    }
    if (remote) {
      const { problems } = parseDataset(await readFile(new URL('bench-data/demo.jsonl', root), 'utf8'));
      const answers = new Map(parseAnswers(await readFile(new URL('bench-data/demo-answers.jsonl', root), 'utf8')).answers
        .filter((a) => a.id).map((a) => [a.id!, a.output]));
      for (const language of local.languages().filter((l) => wanted(l) && remote.languages().includes(l))) {
        checks.push(await crossCheck(language, crossCheckPrograms(language, problems, answers), local, remote));
      }
    }
  } finally {
    await Promise.all([local.dispose(), remote?.dispose()]);
  }
  console.log('Official sandbox cases (solution = code, tests = assertions):');
  console.log('language    cases  pass/fail agrees  same label  programs equal  runtime');
  for (const r of reports) {
    const agree = (share: number) => `${Math.round(share * r.cases)}/${r.cases} ${formatPercent(share)}`;
    console.log(`${r.language.padEnd(10)}  ${String(r.cases).padStart(5)}  ${agree(r.verdictAgreement).padStart(16)}  ${agree(r.labelAgreement).padStart(10)}  ${agree(r.spliceAgreement).padStart(14)}  ${r.runtime}`);
    for (const d of r.disagreements) {
      console.log(`  case ${d.taskId}: official ${d.expected}, benchtop ${d.got}${d.spliceMatches ? '' : ', spliced program differs'}`);
    }
  }
  if (skipped.length) console.log(`not measured here (no runtime or splice yet): ${skipped.join(', ')}`);
  if (checks.length) {
    console.log('\nIn-page runtime vs the runner\'s real toolchain (demo set: canonical solutions and recorded answers, demo and full tests):');
    console.log('language    programs  verdicts agree  in-page runtime | runner');
    for (const c of checks) {
      const agree = `${Math.round(c.agreement * c.programs)}/${c.programs} ${formatPercent(c.agreement)}`;
      console.log(`${c.language.padEnd(10)}  ${String(c.programs).padStart(8)}  ${agree.padStart(14)}  ${c.runtimes[0]} | ${c.runtimes[1]}`);
      for (const d of c.disagreements) console.log(`  ${d.label}: in-page ${d.first}, runner ${d.second}`);
    }
  }
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
