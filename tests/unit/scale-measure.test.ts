/**
 * The scale run's memory figures (src/bench/scale-measure.ts): the mean per quarter of the run's
 * time, and the flatness figure (last quarter over first) taken from those same quarters; the
 * clicks answered in over 200 ms, with when they came.
 */
import { describe, expect, it } from 'vitest';
import { growth, growthAfterStart, quarterMeans, slowClicks, summarizeLongFrames, type MemorySample } from '../../src/bench/scale-measure';

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

  it('after start-up, compares the last quarter with the second: a start-up rise is flat, a leak is not', () => {
    const levels = quarterMeans(samples([100, 200, 300, 300, 300, 300, 300, 300, 300]));
    expect(growthAfterStart(levels)).toBe(0);
    const leak = quarterMeans(samples([100, 110, 120, 130, 140, 150, 160, 170, 180]));
    expect(growthAfterStart(leak)).toBeCloseTo(170 / 130 - 1);
    expect(growthAfterStart([])).toBeNaN();
  });

  it('gives no figure for fewer than four samples', () => {
    expect(growth(samples([1, 2, 3]))).toBeNaN();
  });
});

describe('slow clicks', () => {
  it('lists only the clicks over 200 ms, each with its time from the start and the problems done by then', () => {
    const done: Array<[number, number]> = [[500, 1], [2000, 10], [9000, 40]];
    expect(slowClicks([50, 250, 200, 380], [100, 1500, 3000, 9500], done)).toBe('2 of 4: 250 ms at 1.5 s (1 done), 380 ms at 9.5 s (40 done)');
    expect(slowClicks([10, 20], [0, 1000], done)).toBe('none');
  });

  it('names the long frames a slow click waited through, and the scripts that ran longest in them', () => {
    // The page's clock started 1000 ms before the run; the click came 1.5 s into the run.
    const frames = [
      { startTime: 2400, duration: 180, renderMs: 20, scripts: [{ what: 'MessagePort.onmessage', duration: 150 }] },
      { startTime: 2600, duration: 90, renderMs: 60, scripts: [] },
      { startTime: 9000, duration: 300, renderMs: 0, scripts: [{ what: 'elsewhere', duration: 300 }] },
    ];
    expect(slowClicks([250], [1500], [], frames, 1000)).toBe('1 of 1: 250 ms at 1.5 s (0 done; frames 180+90 ms, rendering 80 ms, MessagePort.onmessage 150 ms)');
  });

  it("sums the run's long frames only: one that ended before the run started is the dataset's load", () => {
    const frames = [
      { startTime: 90, duration: 1600, renderMs: 5, scripts: [] },
      { startTime: 1650, duration: 100, renderMs: 10, scripts: [{ what: 'MessagePort.onmessage', duration: 80 }] },
      { startTime: 5000, duration: 60, renderMs: 60, scripts: [] },
    ];
    expect(summarizeLongFrames(frames, 1700)).toBe('2 long frames, 160 ms in all, longest 100 ms; rendering 70 ms; scripts: MessagePort.onmessage 80 ms');
    expect(summarizeLongFrames(frames)).toMatch(/^3 long frames, 1760 ms in all, longest 1600 ms;/);
  });
});
