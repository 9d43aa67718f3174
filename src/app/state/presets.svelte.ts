/**
 * The official datasets as presets (presets.ts): their sizes before download (a HEAD request, else
 * the listed size), loading one (from the copy kept in this browser when there is one, else
 * downloading it with progress and keeping it), forgetting a kept copy, and the Lite file's problem
 * ids, which make "Lite only" possible on the full set.
 */
import { subsetMembers } from '../../core/records';
import { forgetDataset, keepDataset, keptDataset, keptDatasetUrls } from '../lib/kept-datasets';
import { loadDatasetFile, loadDatasetUrl, remoteSize } from '../lib/load';
import type { DatasetStore } from './dataset.svelte';
import { DATASET_PRESETS, presetBase, presetForUrl, presetUrl, type DatasetPreset } from './presets';

/** The Lite file's problem ids, saved when it loads: the filter outlives the page. */
const LITE_MEMBERS_KEY = 'benchtop.lite-members';

function savedLiteMembers(): ReadonlySet<string> | null {
  try {
    const saved = JSON.parse(localStorage.getItem(LITE_MEMBERS_KEY) ?? 'null') as unknown;
    return Array.isArray(saved) && saved.length && saved.every((id) => typeof id === 'string') ? new Set(saved as string[]) : null;
  } catch {
    return null;
  }
}

function saveLiteMembers(members: ReadonlySet<string> | null): void {
  try {
    if (members) localStorage.setItem(LITE_MEMBERS_KEY, JSON.stringify([...members]));
    else localStorage.removeItem(LITE_MEMBERS_KEY);
  } catch {
    /* storage disabled: the filter lasts for this visit */
  }
}

export class PresetStore {
  /** Where the files come from: `?dataset-base=…`, else the Hub. */
  readonly base = presetBase(globalThis.location?.search ?? '');
  readonly list = DATASET_PRESETS;
  /** URLs whose file is kept in this browser. */
  kept = $state<string[]>([]);
  /** Sizes the server gave for a HEAD request, by URL. */
  sizes = $state<Record<string, number>>({});
  /** The Lite file's problem ids, once it has been loaded here. */
  liteMembers = $state.raw<ReadonlySet<string> | null>(savedLiteMembers());
  /** A kept copy could not be written (no room): said once, beside the presets. */
  notice = $state<string | null>(null);

  constructor(private readonly dataset: DatasetStore) {
    void this.refresh();
  }

  url(preset: DatasetPreset): string {
    return presetUrl(preset, this.base);
  }

  isKept(preset: DatasetPreset): boolean {
    return this.kept.includes(this.url(preset));
  }

  /** Bytes to download (exact from the server, else the listed size) and whether that is exact. */
  size(preset: DatasetPreset): { bytes: number; exact: boolean } {
    const exact = this.sizes[this.url(preset)];
    return exact ? { bytes: exact, exact: true } : { bytes: preset.approxBytes, exact: false };
  }

  /** Which files are kept; the size of the others, from their server when the page may ask it. */
  async refresh(): Promise<void> {
    this.kept = await keptDatasetUrls();
    for (const preset of this.list) {
      const url = this.url(preset);
      if (this.kept.includes(url) || this.sizes[url]) continue;
      const bytes = await remoteSize(url);
      if (bytes) this.sizes = { ...this.sizes, [url]: bytes };
    }
  }

  /** The preset this URL is, under this page's base (a typed or resumed URL is kept like a click). */
  forUrl(url: string): DatasetPreset | undefined {
    return presetForUrl(url, this.base);
  }

  /** Loads a preset: the kept copy if there is one (no request at all), else downloads and keeps it. */
  async load(preset: DatasetPreset): Promise<void> {
    const url = this.url(preset);
    const remember = (problems: Parameters<typeof subsetMembers>[0]) => {
      if (preset.id !== 'lite') return;
      this.liteMembers = subsetMembers(problems);
      saveLiteMembers(this.liteMembers);
    };
    const file = this.isKept(preset) ? await keptDataset(url, preset.file).catch(() => null) : null;
    if (file) {
      await this.dataset.loadWith(url, preset.file, (signal, onProgress) => loadDatasetFile(file, onProgress, signal), (d) => remember(d.problems));
      return;
    }
    // Listed as kept but gone (cleared by the browser): downloaded again.
    this.kept = this.kept.filter((u) => u !== url);
    await this.dataset.loadWith(url, preset.file, (signal, onProgress) => loadDatasetUrl(url, onProgress, signal, { keepBytes: true }), async (d, parsed) => {
      remember(d.problems);
      const chunks = (parsed as { kept?: Uint8Array[] }).kept;
      if (!chunks) return;
      if (await keepDataset(url, chunks)) this.kept = [...this.kept.filter((u) => u !== url), url];
      else this.notice = `${preset.file} could not be kept in this browser (no room, or no Cache Storage here): it will be downloaded again next time.`;
    });
  }

  /** Deletes the kept copy (and, for Lite, the ids "Lite only" used). */
  async forget(preset: DatasetPreset): Promise<void> {
    const url = this.url(preset);
    await forgetDataset(url);
    this.kept = this.kept.filter((u) => u !== url);
    if (preset.id === 'lite') {
      this.liteMembers = null;
      saveLiteMembers(null);
    }
    void this.refresh();
  }
}
