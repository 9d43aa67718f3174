/**
 * The official AutoCodeBench datasets, one click away: their public Hugging Face files (the
 * tencent/AutoCodeBenchmark dataset repository, branch main). File names and approximate sizes are
 * those the Hub's file list showed (autocodebench.jsonl 29.6 MB, autocodebench_lite.jsonl 11.8 MB,
 * autocodebench_completion_3shot.jsonl 20 MB); the exact size comes from a HEAD request when the
 * page may connect to the host. The repository also holds autocodebench-v2.jsonl, which is not
 * one of the three published sets and is left out.
 */

export interface DatasetPreset {
  id: 'full' | 'lite' | 'complete';
  title: string;
  /** The file's name in the repository (and the dataset's name once loaded). */
  file: string;
  problems: number;
  /** Bytes, as the Hub lists them (rounded): shown when a HEAD request cannot tell. */
  approxBytes: number;
  note: string;
}

const MB = 1_000_000;

export const DATASET_PRESETS: readonly DatasetPreset[] = [
  { id: 'full', title: 'AutoCodeBench', file: 'autocodebench.jsonl', problems: 3920, approxBytes: 29.6 * MB, note: '20 languages' },
  { id: 'lite', title: 'AutoCodeBench-Lite', file: 'autocodebench_lite.jsonl', problems: 1586, approxBytes: 11.8 * MB, note: 'the problems most models tell apart' },
  { id: 'complete', title: 'AutoCodeBench-Complete', file: 'autocodebench_completion_3shot.jsonl', problems: 1000, approxBytes: 20 * MB, note: '3-shot, for base models (completion mode)' },
];

export const OFFICIAL_PRESET_BASE = 'https://huggingface.co/datasets/tencent/AutoCodeBenchmark/resolve/main/';

/** The query parameter that points the presets at another copy of the files (a mirror, or a test's local server). */
export const PRESET_BASE_PARAM = 'dataset-base';

/**
 * The folder the preset files are fetched from: `?dataset-base=<http(s) URL>` when given and
 * valid, else the Hub. The page still connects only where its policy allows (docs/security.md),
 * and the panel shows the files' real URLs, so a link with another base cannot pass a mirror off
 * as the Hub silently.
 */
export function presetBase(search: string): string {
  const given = new URLSearchParams(search).get(PRESET_BASE_PARAM);
  if (!given) return OFFICIAL_PRESET_BASE;
  try {
    const url = new URL(given);
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return OFFICIAL_PRESET_BASE;
    return url.href.endsWith('/') ? url.href : `${url.href}/`;
  } catch {
    return OFFICIAL_PRESET_BASE;
  }
}

export function presetUrl(preset: DatasetPreset, base: string): string {
  return new URL(preset.file, base).href;
}

/** The preset a URL fetches under this base, if any (a URL typed by hand is kept like a click on the preset). */
export function presetForUrl(url: string, base: string): DatasetPreset | undefined {
  return DATASET_PRESETS.find((p) => presetUrl(p, base) === url);
}
