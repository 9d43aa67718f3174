/**
 * `npm run conformance -- --differential [--sample N] [--languages …]`: every program of the
 * differential corpus (bench-data/differential/) in the in-page runtime under Node, compared with
 * the stored native result; prints agreement per language and every disagreement with its cause.
 * A run over the whole corpus (no --sample) writes its figures into
 * runtimes/host/differential-figures.json, which the catalog and `auto` routing read.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { createNodeExecutor } from '../../runtimes/host/node';
import { belowDifferentialBar, DIFFERENTIAL_BAR, type DifferentialFigures } from '../../runtimes/host/catalog';
import { parseDifferential, runDifferential, stratifiedSample, type DifferentialSummary } from '../core/differential';
import { normalizeLanguage, type LanguageId } from '../contracts';
import { formatPercent } from '../core/metrics';

const POOL = 2;

export async function differentialMain(root: URL, wanted: (l: LanguageId) => boolean, sample: number | null): Promise<void> {
  const dir = new URL('bench-data/differential/', root);
  const executor = createNodeExecutor({ poolSize: POOL });
  const summaries: DifferentialSummary[] = [];
  const skipped: string[] = [];
  try {
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort()) {
      const language = normalizeLanguage(file.replace(/\.jsonl$/, ''));
      if (!language || !wanted(language)) continue;
      if (!executor.languages().includes(language)) {
        skipped.push(language);
        continue;
      }
      const all = parseDifferential(await readFile(new URL(file, dir), 'utf8'));
      const records = sample === null ? all : stratifiedSample(all, sample, 13);
      // Start every worker's runtime first, so that no program's time limit pays for loading it
      // (clang takes seconds; a loaded machine made the first C++ programs time out).
      const warm = { cpp: 'int main() { return 0; }', shell: 'true', r: 'invisible(0)' } as Partial<Record<LanguageId, string>>;
      await Promise.all(Array.from({ length: POOL }, () => executor.run({ language, program: warm[language] ?? '', timeoutMs: 300_000 })));
      let done = 0;
      const summary = await runDifferential(language, records, executor, () => {
        done++;
        if (process.stderr.isTTY) process.stderr.write(`\r${language}: ${done}/${records.length}`);
      });
      if (process.stderr.isTTY) process.stderr.write('\n');
      summaries.push(summary);
    }
  } finally {
    await executor.dispose();
  }
  console.log('Differential corpus (Rosetta Code programs; expected = the native toolchain\'s stored result):');
  console.log('language    programs  exit status agrees  stdout exact    stdout trimmed  stderr empty/not agrees  runtime');
  const cell = (share: number, n: number) => `${Math.round(share * n)}/${n} ${formatPercent(share)}`;
  for (const s of summaries) {
    console.log(`${s.language.padEnd(10)}  ${String(s.programs).padStart(8)}  ${cell(s.exitAgreement, s.programs).padStart(18)}  ${cell(s.stdoutExact, s.programs).padStart(12)}  ${cell(s.stdoutTrimmed, s.programs).padStart(14)}  ${cell(s.stderrClass, s.programs).padStart(23)}  ${s.runtime}`);
  }
  for (const s of summaries) {
    if (!s.disagreements.length) continue;
    console.log(`\n${s.language}: ${s.disagreements.length} disagreements`);
    for (const d of s.disagreements) {
      const what = [!d.exitAgrees && 'exit status', !d.stdoutExact && (d.stdoutTrimmed ? 'trailing whitespace' : 'stdout')].filter(Boolean).join(', ');
      console.log(`  ${d.record.task} (${d.record.path.split('/').pop()}): ${what}: ${d.cause}`);
    }
  }
  if (skipped.length) console.log(`\nno in-page runtime here: ${skipped.join(', ')}`);
  if (sample === null && summaries.length) await recordFigures(root, summaries);
}

/** Merges this run's whole-corpus figures into the catalog's data file (other languages kept). */
async function recordFigures(root: URL, summaries: DifferentialSummary[]): Promise<void> {
  const file = new URL('runtimes/host/differential-figures.json', root);
  const figures = JSON.parse(await readFile(file, 'utf8')) as Record<string, DifferentialFigures>;
  const measured = new Date().toISOString().slice(0, 10);
  console.log(`\nBar (issue 13): ${DIFFERENTIAL_BAR.exit * 100}% of exit statuses, ${DIFFERENTIAL_BAR.stdout * 100}% of exact stdout.`);
  for (const s of summaries) {
    const count = (share: number) => Math.round(share * s.programs);
    const f = { programs: s.programs, exit: count(s.exitAgreement), stdout: count(s.stdoutExact), measured, runtime: s.runtime };
    figures[s.language] = f;
    if (belowDifferentialBar(f)) console.log(`${s.language}: below the bar; \`auto\` routes it to a runner when one offers it`);
  }
  const sorted = Object.fromEntries(Object.entries(figures).sort(([a], [b]) => a.localeCompare(b)));
  await writeFile(file, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(`figures written to runtimes/host/differential-figures.json (${summaries.map((s) => s.language).join(', ')})`);
}
