import { describe, expect, it } from 'vitest';
import { DATASET_PRESETS, OFFICIAL_PRESET_BASE, presetBase, presetForUrl, presetUrl } from '../../src/app/state/presets';

const lite = DATASET_PRESETS.find((p) => p.id === 'lite')!;

describe('official dataset presets', () => {
  it('are the three published sets, by their file names on the Hub', () => {
    expect(DATASET_PRESETS.map((p) => [p.title, p.problems])).toEqual([
      ['AutoCodeBench', 3920],
      ['AutoCodeBench-Lite', 1586],
      ['AutoCodeBench-Complete', 1000],
    ]);
    expect(presetUrl(lite, OFFICIAL_PRESET_BASE)).toBe('https://huggingface.co/datasets/tencent/AutoCodeBenchmark/resolve/main/autocodebench_lite.jsonl');
  });

  it('take their base from ?dataset-base= only when it is an http(s) URL without credentials', () => {
    expect(presetBase('')).toBe(OFFICIAL_PRESET_BASE);
    const local = 'http://127.0.0.1:4000/datasets/tencent/AutoCodeBenchmark/resolve/main';
    expect(presetBase(`?dataset-base=${encodeURIComponent(local)}`)).toBe(`${local}/`);
    expect(presetUrl(lite, presetBase(`?dataset-base=${encodeURIComponent(local)}`))).toBe(`${local}/autocodebench_lite.jsonl`);
    for (const bad of ['javascript:alert(1)//', 'file:///etc/', 'https://user:pw@example.com/', 'not a url']) {
      expect(presetBase(`?dataset-base=${encodeURIComponent(bad)}`), bad).toBe(OFFICIAL_PRESET_BASE);
    }
  });

  it('recognise their own URL under the page\'s base, and nothing else', () => {
    expect(presetForUrl('https://huggingface.co/datasets/tencent/AutoCodeBenchmark/resolve/main/autocodebench_lite.jsonl', OFFICIAL_PRESET_BASE)).toBe(lite);
    expect(presetForUrl('https://huggingface.co/datasets/tencent/AutoCodeBenchmark/resolve/main/autocodebench-v2.jsonl', OFFICIAL_PRESET_BASE)).toBeUndefined();
    expect(presetForUrl('https://huggingface.co/datasets/tencent/AutoCodeBenchmark/resolve/main/autocodebench_lite.jsonl', 'http://127.0.0.1:4000/x/')).toBeUndefined();
  });
});
