/**
 * The Lite-sized dataset of `npm run bench -- --scale` (issue #16 §3): `size` problems (1,586 by
 * default, AutoCodeBench-Lite's row count) spread over the chosen languages in Lite's language
 * proportions, built from the demo set's records. Each copy gets a question of its own (a trailing
 * line naming the copy), so every problem has its own content id (src/core/ids.ts) as in a real
 * dataset; the canonical solution and both tests are the demo record's, so the canonical answer's
 * verdict is known (it passes). Pure: no files, no clock.
 */
import type { BenchRecord, LanguageId } from '../contracts';

/** AutoCodeBench-Lite's row count (SPEC §1: autocodebench_lite.jsonl, 1,586 rows). */
export const LITE_SIZE = 1586;

/**
 * Lite's share per language. The paper and the dataset card give Lite's total (1,586) but, in the
 * sources we could read, no per-language table; the full set is "evenly distributed across 20
 * languages" and issue #16 says "about 80 per language". So every language weighs the same here
 * (1,586 / 20 = 79.3): replace these weights when a per-language count is published.
 */
export const LITE_WEIGHTS: Readonly<Record<LanguageId, number>> = {
  python: 1, cpp: 1, java: 1, javascript: 1, go: 1, shell: 1, csharp: 1, dart: 1, elixir: 1, julia: 1,
  kotlin: 1, perl: 1, php: 1, racket: 1, r: 1, ruby: 1, rust: 1, scala: 1, swift: 1, typescript: 1,
};


/**
 * How many problems each language gets: `size` split by the weights of `languages` (largest
 * remainder, ties to the earlier language), so the counts sum to exactly `size`.
 */
export function apportion(languages: readonly LanguageId[], size: number): Map<LanguageId, number> {
  const total = languages.reduce((a, l) => a + LITE_WEIGHTS[l], 0);
  const exact = languages.map((l) => (size * LITE_WEIGHTS[l]) / total);
  const counts = exact.map(Math.floor);
  let left = size - counts.reduce((a, n) => a + n, 0);
  const order = exact.map((x, i) => ({ i, rest: x - Math.floor(x) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left-- <= 0) break;
    counts[i]!++;
  }
  return new Map(languages.map((l, i) => [l, counts[i]!]));
}

/**
 * `size` records over `languages` (only those the demo set has), interleaved by language the way a
 * shuffled dataset would be, each language cycling through its demo records.
 */
export function scaleDataset(demo: readonly BenchRecord[], languages: readonly LanguageId[], size: number): BenchRecord[] {
  const pools = new Map<LanguageId, BenchRecord[]>();
  for (const record of demo) {
    const language = record.language.toLowerCase() as LanguageId;
    if (languages.includes(language)) pools.set(language, [...(pools.get(language) ?? []), record]);
  }
  const present = languages.filter((l) => pools.has(l));
  if (!present.length) throw new Error(`the demo set has none of ${languages.join(', ')}`);
  const counts = apportion(present, size);
  const lists = present.map((language) => Array.from({ length: counts.get(language)! }, (_, k) => {
    const pool = pools.get(language)!;
    const base = pool[k % pool.length]!;
    return { ...base, question: `${base.question}\n\n(Scale run copy ${k + 1} of this ${language} problem.)` };
  }));
  const out: BenchRecord[] = [];
  for (let round = 0; out.length < size; round++) {
    for (const list of lists) if (round < list.length) out.push(list[round]!);
  }
  return out;
}
