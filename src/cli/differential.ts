/**
 * `npm run conformance -- --differential [--sample N] [--languages …]`: every program of the
 * differential corpus (bench-data/differential/) in the in-page runtime under Node, compared with
 * the stored native result; prints agreement per language and every disagreement with its cause.
 */
import { readFile, readdir } from 'node:fs/promises';
import { createNodeExecutor } from '../../runtimes/host/node';
import { parseDifferential, runDifferential, seededSample, type DifferentialSummary } from '../core/differential';
import { normalizeLanguage, type LanguageId } from '../contracts';
import { formatPercent } from '../core/metrics';

export async function differentialMain(root: URL, wanted: (l: LanguageId) => boolean, sample: number | null): Promise<void> {
  const dir = new URL('bench-data/differential/', root);
  const executor = createNodeExecutor({ poolSize: 2 });
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
      const records = sample === null ? all : seededSample(all, sample, 13);
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
}
