/**
 * The app's state (Svelte 5 runes) and the commands the UI sends: load a dataset, choose a model,
 * run, stop. Components read from here and call these methods; they hold no state of their own
 * beyond what is purely visual.
 */
import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import demoText from '../../bench-data/demo.jsonl?raw';
import demoAnswersText from '../../bench-data/demo-answers.jsonl?raw';
import { createBrowserExecutor } from '../../runtimes/host/browser';
import type { Executor } from '../../runtimes/types';
import { evaluateAll } from '../core/engine';
import type { ExtractionMode } from '../core/extract';
import type { LanguageId } from '../core/languages';
import { summarize, type Summary } from '../core/metrics';
import { DIFFICULTIES, filterProblems, formatLoadError, parseDataset, type LoadError, type Problem } from '../core/records';
import type { ProblemResult } from '../core/results';
import { canonicalModel } from '../models/canonical';
import { parseAnswers, replayAnswersModel, replayOwnOutputModel, type RecordedAnswer } from '../models/replay';
import type { Model } from '../models/types';
import { fetchText, nameFromUrl, readFile, type Progress } from './lib/load';

export interface Dataset {
  name: string;
  /** Where it came from: "embedded demo set", a file name or a URL. */
  source: string;
  bytes: number;
  problems: Problem[];
  errors: LoadError[];
  unknownLanguages: Record<string, number>;
  /** Problem count per language, in order of first appearance. */
  languageCounts: Array<[LanguageId, number]>;
  difficultyCounts: Record<string, number>;
  /** Some records carry a recorded model answer (`output`). */
  hasOutput: boolean;
}

export interface AnswersFile {
  name: string;
  answers: RecordedAnswer[];
  errors: string[];
}

export type ModelChoice = 'canonical' | 'demo-answers' | 'dataset-output' | 'answers-file';

export type RunState = 'running' | 'stopping' | 'done' | 'stopped' | 'failed';

/** One run: a snapshot of what was asked, so later changes to the settings do not alter it. */
export interface Run {
  datasetName: string;
  modelId: string;
  modelLabel: string;
  mode: ExtractionMode;
  timeLimit: string;
  concurrency: number;
  problems: Problem[];
  startedAt: number;
  finishedAt: number | null;
  state: RunState;
  error: string | null;
}

export const DEMO_ANSWERS_NAME = 'demo-answers.jsonl';

function describeDataset(name: string, source: string, text: string): Dataset {
  const parsed = parseDataset(text);
  if (parsed.problems.length === 0) {
    const first = parsed.errors[0];
    const why = first ? `no valid records (${formatLoadError(first)}${parsed.errors.length > 1 ? `, and ${parsed.errors.length - 1} more errors` : ''})` : 'the file is empty';
    throw new Error(`Could not load ${source}: ${why}`);
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
    bytes: new TextEncoder().encode(text).byteLength,
    problems: parsed.problems,
    errors: parsed.errors,
    unknownLanguages: parsed.unknownLanguages,
    languageCounts: [...languageCounts.entries()],
    difficultyCounts,
    hasOutput: parsed.problems.some((p) => typeof p.record.output === 'string'),
  };
}

function describeAnswers(name: string, text: string): AnswersFile {
  const { answers, errors } = parseAnswers(text);
  if (answers.length === 0) {
    throw new Error(`Could not load answers from ${name}: no line has an "output" text${errors[0] ? ` (${errors[0]})` : ''}`);
  }
  return { name, answers, errors };
}

export class AppState {
  // ── dataset ────────────────────────────────────────────────────────────────────────────────
  dataset = $state.raw<Dataset>(describeDataset('demo.jsonl', 'embedded demo set', demoText));
  /** Languages to run; all of the dataset's languages when it loads. */
  languages = $state<string[]>([]);
  difficulties = $state<string[]>([...DIFFICULTIES]);
  /** Keep only the first N problems after the other filters; null = all. */
  limit = $state<number | null>(null);
  loading = $state<{ what: string; progress: Progress } | null>(null);
  loadError = $state<string | null>(null);
  private loadController: AbortController | null = null;

  // ── model and settings ─────────────────────────────────────────────────────────────────────
  modelChoice = $state<ModelChoice>('canonical');
  answersFile = $state.raw<AnswersFile | null>(null);
  answersError = $state<string | null>(null);
  /** The recorded answers that ship with the demo set. */
  readonly demoAnswers = parseAnswers(demoAnswersText);
  mode = $state<ExtractionMode>('compat');
  concurrency = $state(2);
  /** Per-run time limit in seconds; null = the official limit of each language. */
  timeLimitSeconds = $state<number | null>(null);

  // ── run ────────────────────────────────────────────────────────────────────────────────────
  run = $state.raw<Run | null>(null);
  /** Results of the current run, keyed by problem index. */
  readonly results = new SvelteMap<number, ProblemResult>();
  /** Problems of the current run that have started and not finished. */
  readonly inFlight = new SvelteSet<number>();
  /** Latest message of each runtime ("loading Pyodide (13 MB)…", "… ready"). */
  runtimeStatus = $state<Record<string, string>>({});
  /** Ticks while a run is going, for elapsed time and ETA. */
  now = $state(Date.now());
  private runController: AbortController | null = null;
  private executor: (Executor & { describe?(language: LanguageId): string }) | null = null;
  executorError = $state<string | null>(null);

  // ── results view ───────────────────────────────────────────────────────────────────────────
  outcomeFilter = $state<string>('all');
  languageFilter = $state<string>('all');
  /** Problem index shown in the detail view. */
  selected = $state<number | null>(null);

  constructor() {
    this.languages = this.dataset.languageCounts.map(([l]) => l);
    try {
      this.executor = createBrowserExecutor({
        onStatus: (language, message) => {
          this.runtimeStatus = { ...this.runtimeStatus, [language]: message };
        },
      });
    } catch (e) {
      this.executorError = `Could not start the runtimes: ${(e as Error).message}`;
    }
  }

  /** Languages that have a runtime in this page. */
  get runnableLanguages(): readonly LanguageId[] {
    return this.executor?.languages() ?? [];
  }

  /** The problems a run would evaluate now. */
  selection = $derived.by(() => {
    const all = this.dataset.languageCounts.map(([l]) => l);
    const languages = this.languages.length === all.length ? undefined : this.languages;
    const difficulties = this.difficulties.length === DIFFICULTIES.length ? undefined : this.difficulties;
    // A language or difficulty filter with nothing ticked selects nothing.
    if (languages?.length === 0 || difficulties?.length === 0) return [];
    return filterProblems(this.dataset.problems, { languages, difficulties, limit: this.limit ?? undefined });
  });

  summary: Summary = $derived(summarize([...this.results.values()]));

  get running(): boolean {
    return this.run?.state === 'running' || this.run?.state === 'stopping';
  }

  get modelOptions(): Array<{ value: ModelChoice; label: string }> {
    const options: Array<{ value: ModelChoice; label: string }> = [
      { value: 'canonical', label: 'Canonical solutions (self-check)' },
      { value: 'demo-answers', label: 'Recorded demo answers' },
    ];
    if (this.dataset.hasOutput) options.push({ value: 'dataset-output', label: 'Answers in the dataset (output field)' });
    if (this.answersFile) options.push({ value: 'answers-file', label: `Answers from ${this.answersFile.name} (${this.answersFile.answers.length})` });
    return options;
  }

  get modelLabel(): string {
    return this.modelOptions.find((o) => o.value === this.modelChoice)?.label ?? this.modelChoice;
  }

  private buildModel(): Model {
    switch (this.modelChoice) {
      case 'canonical':
        return canonicalModel;
      case 'demo-answers':
        return replayAnswersModel(DEMO_ANSWERS_NAME, this.demoAnswers.answers);
      case 'dataset-output':
        return replayOwnOutputModel;
      case 'answers-file':
        if (!this.answersFile) throw new Error('no answers file loaded');
        return replayAnswersModel(this.answersFile.name, this.answersFile.answers);
    }
  }

  // ── commands: dataset ──────────────────────────────────────────────────────────────────────

  private useDataset(dataset: Dataset): void {
    this.dataset = dataset;
    this.languages = dataset.languageCounts.map(([l]) => l);
    this.difficulties = [...DIFFICULTIES];
    if (this.modelChoice === 'dataset-output' && !dataset.hasOutput) this.modelChoice = 'canonical';
  }

  async loadUrl(url: string): Promise<void> {
    url = url.trim();
    if (!url || this.loading) return;
    await this.load(url, (signal, onProgress) => fetchText(url, onProgress, signal), nameFromUrl(url));
  }

  async loadFile(file: File): Promise<void> {
    if (this.loading) return;
    await this.load(file.name, (_signal, onProgress) => readFile(file, onProgress), file.name);
  }

  private async load(
    what: string,
    read: (signal: AbortSignal, onProgress: (p: Progress) => void) => Promise<string>,
    name: string,
  ): Promise<void> {
    this.loadError = null;
    this.loadController = new AbortController();
    this.loading = { what, progress: { loaded: 0, total: null } };
    try {
      const text = await read(this.loadController.signal, (progress) => {
        this.loading = { what, progress };
      });
      this.useDataset(describeDataset(name, what, text));
    } catch (e) {
      const error = e as Error;
      this.loadError = error.name === 'AbortError' ? `Loading ${what} was cancelled` : error.message;
    } finally {
      this.loading = null;
      this.loadController = null;
    }
  }

  cancelLoad(): void {
    this.loadController?.abort();
  }

  useEmbeddedDemo(): void {
    this.loadError = null;
    this.useDataset(describeDataset('demo.jsonl', 'embedded demo set', demoText));
  }

  // ── commands: model ────────────────────────────────────────────────────────────────────────

  async loadAnswersFile(file: File): Promise<void> {
    this.answersError = null;
    try {
      const text = await readFile(file, () => {});
      this.answersFile = describeAnswers(file.name, text);
      this.modelChoice = 'answers-file';
    } catch (e) {
      this.answersError = (e as Error).message;
    }
  }

  // ── commands: run ──────────────────────────────────────────────────────────────────────────

  async start(): Promise<void> {
    if (this.running) return;
    const problems = this.selection;
    if (problems.length === 0) return;
    const executor = this.executor;
    let model: Model;
    try {
      if (!executor) throw new Error(this.executorError ?? 'no executor');
      model = this.buildModel();
    } catch (e) {
      this.run = this.newRun(problems, 'failed', (e as Error).message);
      return;
    }
    // Marks a problem as in progress when the engine asks for its answer.
    const tracked: Model = {
      id: model.id,
      answer: (problem, signal) => {
        this.inFlight.add(problem.index);
        return model.answer(problem, signal);
      },
    };
    this.results.clear();
    this.inFlight.clear();
    this.selected = null;
    this.outcomeFilter = 'all';
    this.languageFilter = 'all';
    this.runController = new AbortController();
    const controller = this.runController;
    this.run = this.newRun(problems, 'running', null, model.id);
    const seconds = this.timeLimitSeconds;
    const tick = setInterval(() => (this.now = Date.now()), 500);
    try {
      await evaluateAll(problems, tracked, executor!, {
        mode: this.mode,
        concurrency: Math.max(1, Math.floor(this.concurrency) || 1),
        signal: controller.signal,
        timeoutMs: seconds ? () => seconds * 1000 : undefined,
        onResult: (result) => {
          this.results.set(result.index, result);
          this.inFlight.delete(result.index);
        },
      });
      this.finish(controller.signal.aborted ? 'stopped' : 'done', null);
    } catch (e) {
      this.finish('failed', `The run stopped with an error: ${(e as Error).message}`);
    } finally {
      clearInterval(tick);
      this.inFlight.clear();
      this.runController = null;
      this.now = Date.now();
    }
  }

  private newRun(problems: Problem[], state: RunState, error: string | null, modelId: string = this.modelChoice): Run {
    const seconds = this.timeLimitSeconds;
    const now = Date.now();
    this.now = now;
    return {
      datasetName: this.dataset.name,
      modelId,
      modelLabel: this.modelLabel,
      mode: this.mode,
      timeLimit: seconds ? `${seconds} s per run` : 'official per language',
      concurrency: this.concurrency,
      problems,
      startedAt: now,
      finishedAt: state === 'running' ? null : now,
      state,
      error,
    };
  }

  private finish(state: RunState, error: string | null): void {
    if (!this.run) return;
    this.run = { ...this.run, state, error, finishedAt: Date.now() };
  }

  /** Stops handing out problems; those already running finish and are kept. */
  stop(): void {
    if (this.run?.state !== 'running') return;
    this.runController?.abort();
    this.run = { ...this.run, state: 'stopping' };
  }

  /** The problems the results view lists: the run's, or the current selection before any run. */
  get listedProblems(): Problem[] {
    return this.run ? this.run.problems : this.selection;
  }

  problemByIndex(index: number): Problem | undefined {
    return this.listedProblems.find((p) => p.index === index) ?? this.dataset.problems[index];
  }
}

export const app = new AppState();
