/** A stored run read back whole (record, problems, results, answers), and its exports as files. */
import { resultKey, sampleOf, turnOf } from '../../core/results';
import { alignResults, legacyIds, type LegacyIds } from '../../store/legacy';
import { download } from '../lib/download';
import { fileStem, manifest, officialJsonl, resultsCsv, resultsJsonl, type RunData } from '../lib/exports';
import type { RunHistory } from './history.svelte';

export type ExportKind = 'official' | 'results-jsonl' | 'results-csv' | 'manifest';

/** Reads a stored run; `legacyRuns` learns the ids of a run stored before copies of a question had their own. */
export async function loadRunData(history: RunHistory, legacyRuns: Map<string, LegacyIds>, id: string): Promise<RunData | null> {
  const store = await history.ready;
  const run = await store.getRun(id);
  if (!run) return null;
  const [stored, results, answers] = await Promise.all([store.problems(id), store.results(id), store.answers(id)]);
  // A run stored before copies of a question had ids of their own: the later copies get theirs.
  const { problems, legacy } = legacyIds(run, stored);
  legacyRuns.set(id, legacy);
  const aligned = legacy?.shared ? alignResults(problems, results) : results;
  return { run, problems, results: new Map(aligned.map((r) => [resultKey(r.id, sampleOf(r), turnOf(r)), r])), answers };
}

/** Downloads one export of a stored run. */
export function downloadExport(data: RunData, kind: ExportKind): void {
  const [suffix, text, type] =
    kind === 'official'
      ? ['official.jsonl', officialJsonl(data), 'application/jsonl']
      : kind === 'results-jsonl'
        ? ['results.jsonl', resultsJsonl(data), 'application/jsonl']
        : kind === 'results-csv'
          ? ['results.csv', resultsCsv(data), 'text/csv']
          : ['manifest.json', JSON.stringify(manifest(data), null, 2) + '\n', 'application/json'];
  download(`${fileStem(data.run)}.${suffix}`, new Blob([text], { type }));
}
