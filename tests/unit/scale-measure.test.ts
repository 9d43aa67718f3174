/**
 * The scale run's memory figures (src/bench/scale-measure.ts): the mean per quarter of the run's
 * time, and the flatness figure (last quarter over first) taken from those same quarters.
 */
import { describe, expect, it } from 'vitest';
import { growth, quarterMeans, type MemorySample } from '../../src/bench/scale-measure';

const samples = (bytes: number[]): MemorySample[] => bytes.map((b, i) => ({ at: i * 1000, bytes: b }));

describe('memory by quarter', () => {
  it('averages each quarter of the time, so a rise that levels off is told from one that keeps on', () => {
    // 9 samples over 8 s: quarters [0,2], [2,4], [4,6], [6,8] s share their edge samples.
    const levels = samples([100, 200, 300, 300, 300, 300, 300, 300, 300]);
    expect(quarterMeans(levels)).toEqual([200, 300, 300, 300]);
    expect(growth(levels)).toBeCloseTo(0.5);
    const leak = samples([100, 110, 120, 130, 140, 150, 160, 170, 180]);
    expect(quarterMeans(leak)).toEqual([110, 130, 150, 170]);
    expect(growth(leak)).toBeCloseTo(170 / 110 - 1);
  });

  it('gives no figure for fewer than four samples', () => {
    expect(growth(samples([1, 2, 3]))).toBeNaN();
  });
});
