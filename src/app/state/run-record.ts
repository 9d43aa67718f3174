/** The record a new run is stored with: what it evaluates, how, and with which answers. */
import type { Problem } from '../../contracts';
import { emptyCounts, newRunId, type RunRecord, type RunSource } from '../../store/types';
import type { DatasetStore } from './dataset.svelte';
import type { RunSettings } from './settings.svelte';
import type { AnswerSources } from './sources.svelte';

export function newRunRecord(problems: readonly Problem[], source: RunSource, data: DatasetStore, sources: AnswerSources, settings: RunSettings): RunRecord {
  const dataset = data.current;
  const now = Date.now();
  return {
    id: newRunId(),
    modelId: sources.modelIdFor(source),
    modelLabel: sources.modelLabel,
    source,
    datasetName: dataset.name,
    datasetSource: dataset.source,
    mode: settings.mode,
    timeLimitSeconds: settings.timeLimitSeconds,
    concurrency: settings.activeConcurrency,
    problemCount: problems.length,
    languages: [...new Set(problems.map((p) => p.language))],
    createdAt: now,
    startedAt: now,
    finishedAt: null,
    state: 'running',
    error: null,
    counts: emptyCounts(),
    samples: settings.activeSamples,
    turns: settings.activeTurns,
    feedback: settings.feedback,
    ...(source.kind === 'provider' && source.settings.completion ? { completion: true } : {}),
    ...(dataset.sha256 ? { datasetSha256: dataset.sha256 } : {}),
    duplicates: {
      choice: data.duplicateChoice,
      questions: dataset.duplicates.length,
      dropped: data.dropped,
    },
    selection: {
      languages: [...data.languages],
      difficulties: [...data.difficulties],
      ...(data.limit !== null && !data.subset ? { limit: data.limit } : {}),
      ...(data.subset ? { sample: data.subset.plan } : {}),
      ...(data.liteOnly && data.liteMembers ? { liteOnly: true as const } : {}),
    },
  };
}
