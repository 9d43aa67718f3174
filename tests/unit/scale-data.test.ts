/**
 * The scale run's dataset (src/bench/scale-data.ts): exactly the size asked for, split over the
 * languages in Lite's proportions, every problem with an id of its own once loaded (src/core/ids.ts),
 * and each copy keeping its demo record's solution and tests, so its canonical verdict stays known.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apportion, LITE_SIZE, scaleDataset } from '../../src/bench/scale-data';
import { parseDataset } from '../../src/core/records';
import type { BenchRecord, LanguageId } from '../../src/contracts';

const demo = readFileSync('bench-data/demo.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l) as BenchRecord);
const NINE: LanguageId[] = ['python', 'javascript', 'typescript', 'ruby', 'php', 'r', 'perl', 'shell', 'cpp'];

describe('scale dataset', () => {
  it('Lite size over the nine in-page languages: 1,586 problems, 176 or 177 each, ids all distinct', () => {
    const records = scaleDataset(demo, NINE, LITE_SIZE);
    expect(records).toHaveLength(1586);
    const counts = new Map<string, number>();
    for (const r of records) counts.set(r.language, (counts.get(r.language) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual([...NINE].sort());
    // 1,586 = 9 × 176 + 2: equal weights, the remainder to the first languages.
    expect([...counts.values()].sort()).toEqual([176, 176, 176, 176, 176, 176, 176, 177, 177]);
    const loaded = parseDataset(records.map((r) => JSON.stringify(r)).join('\n'));
    expect(loaded.problems).toHaveLength(1586);
    expect(new Set(loaded.problems.map((p) => p.id)).size).toBe(1586);
    // Distinct content ids, not the -2/-3 suffixes that repeated questions get.
    expect(loaded.problems.filter((p) => /-\d+$/.test(p.id))).toEqual([]);
  });

  it('every copy keeps its demo record\'s solution and tests', () => {
    const bySolution = new Map(demo.map((r) => [r.canonical_solution, r]));
    for (const r of scaleDataset(demo, NINE, 90)) {
      const source = bySolution.get(r.canonical_solution)!;
      expect(source.language).toBe(r.language);
      expect([r.demo_test_func, r.full_test_func]).toEqual([source.demo_test_func, source.full_test_func]);
      expect(r.question.startsWith(source.question)).toBe(true);
    }
  });

  it('apportion: the counts always sum to the size, and no language gets two more than another', () => {
    for (const size of [1, 5, 9, 10, 137, 1586]) {
      const counts = [...apportion(NINE, size).values()];
      expect(counts.reduce((a, n) => a + n, 0)).toBe(size);
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    }
  });

  it('a language the demo set lacks is left out, and none at all is an error', () => {
    expect(() => scaleDataset(demo.filter((r) => r.language !== 'python'), ['python'], 5)).toThrow(/has none of python/);
  });
});
