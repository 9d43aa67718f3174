/**
 * The dataset store: the loaded problems (the embedded demo set, a file or a URL), the selection a
 * run would evaluate (languages, difficulties, first N, a seeded sample, duplicate choice), and the
 * reload that follows allowing a refused origin (docs/security.md).
 */
import { acceptedLanguages, type LanguageId, type Problem } from '../../contracts';
import { sha256Hex } from '../../core/manifest';
import { applyDuplicateChoice, DIFFICULTIES, filterProblems, formatLoadError, parseDataset, type DuplicateChoice, type DuplicateGroup, type LoadedDataset, type LoadError } from '../../core/records';
import { samplePerStratum } from '../../core/sample';
import { allowConnectOrigin } from '../lib/csp';
import { plural } from '../lib/format';
import { BlockedOriginError, loadDatasetFile, loadDatasetUrl, nameFromUrl, type Progress } from '../lib/load';
import { demoText } from './demo';
import { PresetStore } from './presets.svelte';

export interface Dataset {
  name: string;
  /** Where it came from: "embedded demo set", a file name or a URL. */
  source: string;
  bytes: number;
  problems: Problem[];
  errors: LoadError[];
  /** Errors past the listed ones: counted only. */
  moreErrors: number;
  /** Lines that loaded after a repair (invalid UTF-8 replaced). */
  warnings: LoadError[];
  unknownLanguages: Record<string, number>;
  /** Problem count per language, in order of first appearance. */
  languageCounts: Array<[LanguageId, number]>;
  difficultyCounts: Record<string, number>;
  /** Some records carry a recorded model answer (`output`). */
  hasOutput: boolean;
  /** sha256 (hex) of the file's bytes, for manifests (absent if the file was read in another way). */
  sha256?: string;
  /** Questions more than one record holds, with their lines. */
  duplicates: DuplicateGroup[];
}

/** A URL to load right after the page reloads with a newly allowed origin (allowOriginAndReload). */
const PENDING_URL_KEY = 'benchtop.pending-dataset-url';

const demoSha256 = sha256Hex(demoText);
const demoDataset = () => describeDataset('demo.jsonl', 'embedded demo set', parseDataset(demoText), new TextEncoder().encode(demoText).byteLength, demoSha256);

function describeDataset(name: string, source: string, parsed: LoadedDataset, bytes: number, sha256?: string): Dataset {
  if (parsed.problems.length === 0) {
    const first = parsed.errors[0];
    const others = parsed.errors.length - 1 + (parsed.moreErrors ?? 0);
    const why = first ? `no valid records (${formatLoadError(first)}${others > 0 ? `, and ${plural(others, 'more error')}` : ''})` : 'the file is empty';
    const languages = Object.keys(parsed.unknownLanguages).length ? `. Accepted language ids (any case): ${acceptedLanguages()}` : '';
    throw new Error(`Could not load ${source}: ${why}${languages}`);
  }
  const languageCounts = new Map<LanguageId, number>();
  const difficultyCounts: Record<string, number> = {};
  for (const p of parsed.problems) {
    languageCounts.set(p.language, (languageCounts.get(p.language) ?? 0) + 1);
    difficultyCounts[p.difficulty] = (difficultyCounts[p.difficulty] ?? 0) + 1;
  }
  return {
    name,
    source,
    bytes,
    problems: parsed.problems,
    errors: parsed.errors,
    moreErrors: parsed.moreErrors ?? 0,
    warnings: parsed.warnings ?? [],
    unknownLanguages: parsed.unknownLanguages,
    duplicates: parsed.duplicates,
    languageCounts: [...languageCounts.entries()],
    difficultyCounts,
    hasOutput: parsed.problems.some((p) => typeof p.record.output === 'string'),
    ...(sha256 ? { sha256 } : {}),
  };
}

export class DatasetStore {
  current = $state.raw<Dataset>(demoDataset());
  /** Records that repeat a question: all evaluated, or only the first copy of each. */
  duplicateChoice = $state<DuplicateChoice>('keep-all');
  /** Languages to run; those that can run here when the dataset loads. */
  languages = $state<string[]>([]);
  difficulties = $state<string[]>([...DIFFICULTIES]);
  /** Keep only the first N problems after the other filters; null = all. */
  limit = $state<number | null>(null);
  /** A seeded random sample of K problems per language (per language × difficulty); null = off. */
  samplePerLanguage = $state<number | null>(null);
  sampleSeed = $state(1);
  samplePerDifficulty = $state(false);
  /** Only the problems the Lite file holds (when it is known and this file holds others too). */
  liteOnly = $state(false);
  /** The official datasets, one click away. */
  readonly presets: PresetStore;
  loading = $state<{ what: string; progress: Progress } | null>(null);
  loadError = $state<string | null>(null);
  /** The origin whose connection the page's policy refused in the last load, if that was the cause. */
  loadBlockedOrigin = $state<string | null>(null);
  /** The URL of the last load, kept for allowOriginAndReload. */
  private lastUrl: string | null = null;
  private loadController: AbortController | null = null;

  /**
   * `runnable`: the languages that can run here (in the page or on the runner); `onUse`: told of
   * every dataset put in use (the answer sources drop one the new dataset cannot give).
   */
  constructor(
    private readonly runnable: () => readonly LanguageId[],
    private readonly onUse: (dataset: Dataset) => void,
  ) {
    this.languages = this.defaultLanguages(this.current);
    this.presets = new PresetStore(this);
    this.resumePendingLoad();
  }

  /**
   * The languages ticked when a dataset loads: those that can run here (in the page or on the
   * runner), so Run does not count problems that would only be reported UNSUPPORTED; all of them
   * when none can.
   */
  private defaultLanguages(dataset: Dataset): LanguageId[] {
    const all = dataset.languageCounts.map(([l]) => l);
    const runnable = new Set(this.runnable());
    const here = all.filter((l) => runnable.has(l));
    return here.length ? here : all;
  }

  /**
   * Problems that need a remote runner (no runtime here), under the difficulty and duplicate
   * choices: `selected` among the selection, `left` among the languages not ticked.
   */
  get needRunner(): { selected: number; left: number } {
    const runnable = new Set(this.runnable());
    const ticked = new Set(this.languages);
    const difficulties = new Set(this.difficulties);
    let selected = 0;
    let left = 0;
    for (const p of this.selection) if (!runnable.has(p.language)) selected++;
    for (const p of applyDuplicateChoice(this.current.problems, this.current.duplicates, this.duplicateChoice)) {
      if (!runnable.has(p.language) && !ticked.has(p.language) && difficulties.has(p.difficulty)) left++;
    }
    return { selected, left };
  }

  /** The Lite file's ids when "Lite only" can apply here: the file holds some of them, and others. */
  get liteMembers(): ReadonlySet<string> | null {
    const members = this.presets.liteMembers;
    if (!members) return null;
    const inLite = this.current.problems.filter((p) => members.has(p.id)).length;
    return inLite > 0 && inLite < this.current.problems.length ? members : null;
  }

  /** The "Lite only" filter in force, if any. */
  private get members(): ReadonlySet<string> | undefined {
    return (this.liteOnly && this.liteMembers) || undefined;
  }

  /** The problems a run would evaluate now. */
  selection = $derived.by(() => {
    const all = this.current.languageCounts.map(([l]) => l);
    const languages = this.languages.length === all.length ? undefined : this.languages;
    const difficulties = this.difficulties.length === DIFFICULTIES.length ? undefined : this.difficulties;
    // A language or difficulty filter with nothing ticked selects nothing.
    if (languages?.length === 0 || difficulties?.length === 0) return [];
    return this.subset?.problems ?? filterProblems(applyDuplicateChoice(this.current.problems, this.current.duplicates, this.duplicateChoice), { languages, difficulties, members: this.members, limit: this.limit ?? undefined });
  });

  /** The stratified sample and its plan when "per language" is set (the "first N" limit does not apply then). */
  subset = $derived.by(() => {
    if (this.samplePerLanguage === null) return null;
    const all = this.current.languageCounts.map(([l]) => l);
    const languages = this.languages.length === all.length ? undefined : this.languages;
    const difficulties = this.difficulties.length === DIFFICULTIES.length ? undefined : this.difficulties;
    if (languages?.length === 0 || difficulties?.length === 0) return null;
    return samplePerStratum(filterProblems(applyDuplicateChoice(this.current.problems, this.current.duplicates, this.duplicateChoice), { languages, difficulties, members: this.members }), { perStratum: this.samplePerLanguage, seed: this.sampleSeed, byDifficulty: this.samplePerDifficulty });
  });

  /** How many records the duplicate choice drops. */
  get dropped(): number {
    return this.current.problems.length - applyDuplicateChoice(this.current.problems, this.current.duplicates, this.duplicateChoice).length;
  }

  private useDataset(dataset: Dataset): void {
    this.current = dataset;
    this.languages = this.defaultLanguages(dataset);
    this.difficulties = [...DIFFICULTIES];
    this.onUse(dataset);
  }

  async loadUrl(url: string): Promise<void> {
    url = url.trim();
    if (!url || this.loading) return;
    const preset = this.presets.forUrl(url);
    if (preset) return this.presets.load(preset);
    await this.loadWith(url, nameFromUrl(url), (signal, onProgress) => loadDatasetUrl(url, onProgress, signal));
  }

  async loadFile(file: File): Promise<void> {
    await this.loadWith(file.name, file.name, (signal, onProgress) => loadDatasetFile(file, onProgress, signal));
  }

  /**
   * Loads a dataset through `read` (a file, a URL, a kept copy) with progress and errors shown;
   * `loaded` runs once it is in use (a preset keeps its file then).
   */
  async loadWith<T extends LoadedDataset & { bytes: number; sha256?: string }>(
    what: string,
    name: string,
    read: (signal: AbortSignal, onProgress: (p: Progress) => void) => Promise<T>,
    loaded?: (dataset: Dataset, parsed: T) => unknown,
  ): Promise<void> {
    if (this.loading) return;
    this.lastUrl = /^https?:/i.test(what) ? what : null;
    this.loadError = null;
    this.loadBlockedOrigin = null;
    this.loadController = new AbortController();
    this.loading = { what, progress: { loaded: 0, total: null } };
    try {
      const parsed = await read(this.loadController.signal, (progress) => {
        this.loading = { what, progress };
      });
      const dataset = describeDataset(name, what, parsed, parsed.bytes, parsed.sha256);
      this.useDataset(dataset);
      await loaded?.(dataset, parsed);
    } catch (e) {
      const error = e as Error;
      this.loadError = error.name === 'AbortError' ? `Loading ${what} was cancelled` : error.message;
      if (error instanceof BlockedOriginError) this.loadBlockedOrigin = error.origin;
    } finally {
      this.loading = null;
      this.loadController = null;
    }
  }

  cancelLoad(): void {
    this.loadController?.abort();
  }

  /**
   * Puts a stored run's dataset back in the panel (after a reload the panel would hold the demo set
   * while the interrupted run is on another file): the file itself if it is loaded, else the run's
   * own problems as the browser stored them.
   */
  useRunDataset(run: { datasetName: string; datasetSource: string; datasetSha256?: string }, problems: readonly Problem[]): void {
    if (this.loading || !problems.length) return;
    const current = this.current;
    if (current.name === run.datasetName && (!run.datasetSha256 || current.sha256 === run.datasetSha256)) return;
    const parsed: LoadedDataset = { problems: [...problems], errors: [], unknownLanguages: {}, duplicates: [] };
    const bytes = problems.reduce((n, p) => n + JSON.stringify(p.record).length + 1, 0);
    const source = `${run.datasetSource}: the problems of a stored run, from this browser`;
    this.loadError = null;
    this.useDataset(describeDataset(run.datasetName, source, parsed, bytes, run.datasetSha256));
  }

  useEmbeddedDemo(): void {
    this.loadError = null;
    this.useDataset(demoDataset());
  }

  /**
   * Allows the origin the page's policy refused (saved as a setting), then reloads the page, which
   * builds its policy anew and loads the same URL again (docs/security.md).
   */
  allowOriginAndReload(): void {
    const origin = this.loadBlockedOrigin;
    if (!origin) return;
    try {
      allowConnectOrigin(origin);
      if (this.lastUrl) sessionStorage.setItem(PENDING_URL_KEY, this.lastUrl);
    } catch (e) {
      this.loadError = (e as Error).message;
      this.loadBlockedOrigin = null;
      return;
    }
    location.reload();
  }

  private resumePendingLoad(): void {
    let url: string | null = null;
    try {
      url = sessionStorage.getItem(PENDING_URL_KEY);
      sessionStorage.removeItem(PENDING_URL_KEY);
    } catch {
      return;
    }
    if (url) void this.loadUrl(url);
  }
}
