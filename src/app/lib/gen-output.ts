/**
 * The manifest of a job of the Generate tab, as `npm run generate` writes one: models and their
 * settings (never a key), stage settings, the seeds' hash, the prompts' version and hashes, the
 * funnel's counts and every drop (translations' too) with its stage and reason, the journal's size, and the dates.
 */
import { translationDrops, type FunnelCounts } from '../../gen/funnel';
import type { StoredJob } from '../../gen/journal-idb';
import type { SeedOutcome } from '../../gen/journal';
import { hashText, PROMPT_VERSION, promptHashes } from '../../gen/prompts';
import type { JobSettings } from '../state/generate.svelte';

export function generatedManifest(job: StoredJob<JobSettings>, funnel: FunnelCounts, outcomes: readonly SeedOutcome[], journal: { entries: number; reused: number }): string {
  const s = job.settings;
  const provider = { preset: s.provider.presetId, ...s.provider.settings };
  // Named models are asked on the generator's provider ("<provider>:<name>", as the page asks
  // them) unless the job gave them another (`roles`): then on that one.
  const prefix = s.generatorId.slice(0, s.generatorId.indexOf(':'));
  const model = (name: string, role: 'critic' | 'difficulty') => {
    const other = s.roles?.[role];
    if (!name.trim()) return null;
    return other ? { id: `${other.presetId}:${name.trim()}`, preset: other.presetId, ...other.settings } : { id: `${prefix}:${name.trim()}`, ...provider, model: name.trim() };
  };
  return JSON.stringify({
    tool: 'benchtop generate (page)',
    language: s.language,
    models: { generator: { id: s.generatorId, ...provider }, critic: model(s.criticModel, 'critic') ?? { id: s.generatorId, ...provider }, difficulty: model(s.difficultyModel, 'difficulty') },
    settings: { translateTo: (s.translateTo ?? []).filter((l) => l !== s.language), samples: s.samples, criticThreshold: s.criticThreshold, dropAlwaysSolved: s.dropAlwaysSolved, concurrency: s.concurrency },
    seeds: { count: job.seeds.length, sha256: hashText(job.seeds.map((x) => x.code).join('\n\u0000\n')), names: job.seeds.map((x) => x.name) },
    prompts: { version: PROMPT_VERSION, sha256: promptHashes() },
    funnel,
    dropped: outcomes.filter((o) => !o.kept),
    translationsDropped: translationDrops(outcomes),
    journal: { store: 'IndexedDB', job: job.id, ...journal },
    started: new Date(job.createdAt).toISOString(),
    finished: new Date().toISOString(),
  }, null, 2) + '\n';
}
