/**
 * `npm run bench -- --scale`'s settings (src/cli/bench-scale.ts): the size from the flag or the
 * environment, BENCH_SCALE_WAYS narrowing the ways (an experiment on one way writes no report, so
 * a typo must stop the run before it starts, not after minutes of measuring), and bad numbers refused.
 */
import { describe, expect, it } from 'vitest';
import { scaleSettings } from '../../src/cli/bench-scale';

describe('scale settings', () => {
  it('runs every way at Lite size by default', () => {
    const s = scaleSettings(['--scale'], {});
    expect(s.size).toBe(1586);
    expect(s.ways).toEqual(['page', 'cli', 'runner', 'curve']);
    expect(s.narrowed).toBe(false);
  });

  it('takes the size from --scale-size before BENCH_SCALE_SIZE', () => {
    expect(scaleSettings(['--scale', '--scale-size', '27'], { BENCH_SCALE_SIZE: '90' }).size).toBe(27);
    expect(scaleSettings(['--scale'], { BENCH_SCALE_SIZE: '90' }).size).toBe(90);
    expect(() => scaleSettings(['--scale', '--scale-size', '2.5'], {})).toThrow(/whole number/);
  });

  it('narrows the ways with BENCH_SCALE_WAYS and refuses an unknown one', () => {
    expect(scaleSettings(['--scale'], { BENCH_SCALE_WAYS: 'page' }).ways).toEqual(['page']);
    expect(scaleSettings(['--scale'], { BENCH_SCALE_WAYS: 'runner, curve' }).ways).toEqual(['runner', 'curve']);
    expect(() => scaleSettings(['--scale'], { BENCH_SCALE_WAYS: 'page,browser' })).toThrow(/"browser" is not one of page, cli, runner, curve/);
  });
});
