/**
 * Fair subsets: K problems drawn at random from each language (optionally from each language ×
 * difficulty), with a seeded PRNG. The official files are sorted by language, so "the first N"
 * is not a sample of the benchmark; this is. Each stratum gets its own stream seeded from the
 * seed and the stratum's name, so the same seed picks the same problems from the same file
 * anywhere, and narrowing the languages does not change what is drawn from the others.
 */
import type { Problem } from '../contracts';
import { seededRandom } from './stats';

export interface SampleSpec {
  /** Problems per stratum (a stratum with fewer is taken whole). */
  perStratum: number;
  seed: number;
  /** Strata are language × difficulty instead of language. */
  byDifficulty: boolean;
}

/** What a sampled run records: the spec, each stratum's size in the full file, and the ids drawn. */
export interface SubsetPlan extends SampleSpec {
  /** Problems per stratum in the file sampled from (after the language and difficulty filters). */
  population: Record<string, number>;
  /** Ids of the chosen problems, in file order. */
  ids: string[];
}

export const stratumKey = (p: { language: string; difficulty: string }, byDifficulty: boolean): string =>
  byDifficulty ? `${p.language}/${p.difficulty}` : p.language;

/** 32-bit FNV-1a of a string: the per-stratum seed. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The chosen problems in file order, and the plan to record. */
export function samplePerStratum(problems: readonly Problem[], spec: SampleSpec): { problems: Problem[]; plan: SubsetPlan } {
  if (!Number.isInteger(spec.perStratum) || spec.perStratum < 1) throw new RangeError(`problems per stratum must be a whole number above 0, got ${spec.perStratum}`);
  if (!Number.isInteger(spec.seed)) throw new RangeError(`the seed must be a whole number, got ${spec.seed}`);
  const strata = new Map<string, Problem[]>();
  for (const p of problems) {
    const key = stratumKey(p, spec.byDifficulty);
    const list = strata.get(key) ?? [];
    list.push(p);
    strata.set(key, list);
  }
  const chosen = new Set<Problem>();
  const population: Record<string, number> = {};
  for (const key of [...strata.keys()].sort()) {
    const list = [...strata.get(key)!];
    population[key] = list.length;
    const random = seededRandom(fnv1a(`${spec.seed}:${key}`));
    const take = Math.min(spec.perStratum, list.length);
    // Partial Fisher–Yates: the first `take` places end up a uniform sample without replacement.
    for (let i = 0; i < take; i++) {
      const j = i + Math.floor(random() * (list.length - i));
      [list[i], list[j]] = [list[j]!, list[i]!];
      chosen.add(list[i]!);
    }
  }
  const picked = problems.filter((p) => chosen.has(p));
  return { problems: picked, plan: { ...spec, population, ids: picked.map((p) => p.id) } };
}
