/**
 * The app's state (Svelte 5 runes) and the commands the UI sends: load a dataset, choose a model,
 * run, stop. Components read from here and call these methods; they hold no state of their own
 * beyond what is purely visual.
 */
import { SvelteMap } from 'svelte/reactivity';
import demoUrl from '../../bench-data/demo.jsonl?url';
import demoAnswersUrl from '../../bench-data/demo-answers.jsonl?url';
import demoMultiAnswersUrl from '../../bench-data/demo-answers-multi.jsonl?url';
import { createBrowserExecutor } from '../../runtimes/host/browser';
import type { Executor } from '../../runtimes/types';
import { evaluateAll } from '../core/engine';
import type { ExtractionMode } from '../core/extract';
import type { FeedbackSource } from '../core/feedback';
import type { LanguageId } from '../core/languages';
import { summarize, type Summary } from '../core/metrics';
import { applyDuplicateChoice, DIFFICULTIES, filterProblems, formatLoadError, parseDataset, type DuplicateChoice, type DuplicateGroup, type LoadedDataset, type LoadError, type Problem } from '../core/records';
import { samplePerStratum } from '../core/sample';
import { resultKey, sampleOf, turnOf, type ProblemResult } from '../core/results';
import { canonicalModel } from '../models/canonical';
import { parseAnswers, replayAnswersModel, replayOwnOutputModel, type RecordedAnswer } from '../models/replay';
import { AuthenticationError, FIRST_ATTEMPT, type Model } from '../models/types';
import { createProviderModel, ProviderSettingsError, type Prices } from '../models/providers';
import { meteredModel } from '../models/meter';
import { addUsage, costOf, emptyTotals } from '../models/usage';
import { IdAssigner, ownId, problemId } from '../core/ids';
import { sha256Hex } from '../core/manifest';
import { acceptedLanguages, normalizeLanguage } from '../core/languages';
import { plural } from './lib/format';
import { emptyCounts, newRunId, type RunRecord, type RunSource, type StoredAnswer } from '../store/types';
import { alignResults, legacyIds, type LegacyIds } from '../store/legacy';
import { holdRunLock, RunHistory } from './state/history.svelte';
import { download } from './lib/download';
import { fileStem, manifest, officialJsonl, resultsCsv, resultsJsonl, type RunData } from './lib/exports';
import { chainEnds, chainOver, chainsDone, metricLines } from './lib/figures';
import { ProviderForm } from './state/provider.svelte';
import { choicesInEffect, effectiveRoute, RunnerSettings } from './state/runner-settings.svelte';
import { createRoutedExecutor } from '../../runtimes/remote/routing';
import { allowConnectOrigin } from './lib/csp';
import { adviceFor, FailureBreaker, RepeatedFailureError } from './lib/breaker';
import { BlockedOriginError, loadDatasetFile, loadDatasetUrl, nameFromUrl, readFile, type Progress } from './lib/load';

/**
 * The embedded demo set ships as two static files of the app (not inside its JavaScript, which
 * stays small); the page reads them from its own origin before it first renders.
 */
const [demoText = '', demoAnswersText = ''] = await Promise.all(
  [demoUrl, demoAnswersUrl].map(async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`could not load the embedded demo set (${url}: HTTP ${response.status})`);
    return response.text();
  }),
);

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

export interface AnswersFile {
  name: string;
  answers: RecordedAnswer[];
  errors: string[];
}

export type ModelChoice = 'canonical' | 'demo-answers' | 'demo-answers-multi' | 'dataset-output' | 'answers-file' | 'provider';

/**
 * `interrupted`: stored as running, but no tab runs it (the tab was closed or reloaded);
 * `elsewhere`: another tab of this browser is running it.
 */
export type RunState = 'running' | 'stopping' | 'done' | 'stopped' | 'failed' | 'interrupted' | 'elsewhere';

/** One run: a snapshot of what was asked, so later changes to the settings do not alter it. */
export interface Run {
  /** The stored run's id; null for a run that could not start. */
  id: string | null;
  /** The run as stored (its source, settings and counts when it was opened). */
  record: RunRecord | null;
  datasetName: string;
  modelId: string;
  modelLabel: string;
  mode: ExtractionMode;
  timeLimit: string;
  concurrency: number;
  /** Samples per problem and refinement turns (1 and 1 for a classic run). */
  samples: number;
  turns: number;
  problems: Problem[];
  startedAt: number;
  finishedAt: number | null;
  state: RunState;
  error: string | null;
  /** Set for a run stored before records that repeat a question got ids of their own (store/legacy.ts). */
  legacy: LegacyIds;
}

export const DEMO_ANSWERS_NAME = 'demo-answers.jsonl';
/** Recorded answers of the demo set's Python, JavaScript and TypeScript problems: 5 samples per problem, up to 3 turns each. */
export const DEMO_MULTI_ANSWERS_NAME = 'demo-answers-multi.jsonl';
export const DEMO_MULTI_SHAPE = { samples: 5, turns: 3 } as const;

/** Live figures of the run going on: provider requests, tokens, retries. */
export interface LiveCounters {
  /** Requests in flight (retries included). */
  inFlight: number;
  /** Answers received in this page, and requests that failed after their retries. */
  received: number;
  failed: number;
  retries: number;
  /** The latest retry, for the status line. */
  lastRetry: string | null;
  /** Tokens of the whole run (answers stored before this page included). */
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  prices?: Partial<Prices>;
}

const emptyCounters = (): LiveCounters => ({ inFlight: 0, received: 0, failed: 0, retries: 0, lastRetry: null, inputTokens: 0, outputTokens: 0, reasoningTokens: 0 });

const MODEL_CHOICE_KEY = 'benchtop.model-choice';

/** The answer source chosen last time, when it is one that needs no file. */
function savedModelChoice(): ModelChoice | null {
  try {
    const saved = localStorage.getItem(MODEL_CHOICE_KEY);
    return saved === 'canonical' || saved === 'demo-answers' || saved === 'demo-answers-multi' || saved === 'provider' ? saved : null;
  } catch {
    return null;
  }
}

function saveModelChoice(choice: ModelChoice): void {
  try {
    if (choice === 'canonical' || choice === 'demo-answers' || choice === 'demo-answers-multi' || choice === 'provider') localStorage.setItem(MODEL_CHOICE_KEY, choice);
  } catch {
    /* storage disabled */
  }
}

const timeLimitText = (seconds: number | null) => (seconds ? `${seconds} s per run` : 'official per language');

/**
 * The signal for a provider request: the user's Stop lets requests in flight finish (their
 * answers are paid for and kept); only a stop of the whole run (a refused key) aborts them.
 */
function untilAuthStop(signal: AbortSignal | undefined): AbortSignal | undefined {
  if (!signal) return undefined;
  const inner = new AbortController();
  const follow = () => {
    // A refused key or a provider that fails every request: the requests in flight are wasted.
    if (signal.reason instanceof AuthenticationError || signal.reason instanceof RepeatedFailureError) inner.abort(signal.reason);
  };
  if (signal.aborted) follow();
  else signal.addEventListener('abort', follow, { once: true });
  return inner.signal;
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

function describeAnswers(name: string, text: string): AnswersFile {
  const { answers, errors } = parseAnswers(text);
  if (answers.length === 0) {
    throw new Error(`Could not load answers from ${name}: no line has an "output" text${errors[0] ? ` (${errors[0]})` : ''}`);
  }
  // A file in the official format (input records + output) has no ids: each line's problem is
  // known from its language and question, as in the dataset, so a subset still matches.
  let n = 0;
  // Copies of one question get the ids the dataset gives them (-2, -3, … by order).
  const ids = new IdAssigner(answers.flatMap((a) => (a.id ? [a.id] : [])));
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    let line: { output?: unknown; question?: unknown; language?: unknown };
    try {
      line = JSON.parse(raw) as typeof line;
    } catch {
      continue;
    }
    if (typeof line?.output !== 'string') continue;
    const answer = answers[n++];
    const language = typeof line.language === 'string' ? normalizeLanguage(line.language) : null;
    if (!answer || answer.id) continue;
    // A record's task_id is its id, as in the dataset.
    const own = ownId(line as Record<string, unknown>);
    if (own !== undefined) answer.id = own;
    else if (language && typeof line.question === 'string') answer.id = ids.next(problemId(language, line.question));
  }
  return { name, answers, errors };
}

export class AppState {
  // ── dataset ────────────────────────────────────────────────────────────────────────────────
  dataset = $state.raw<Dataset>(demoDataset());
  /** Records that repeat a question: all evaluated, or only the first copy of each. */
  duplicateChoice = $state<DuplicateChoice>('keep-all');
  /** Stored runs made before copies of a question had ids of their own, as loaded. */
  private readonly legacyRuns = new Map<string, LegacyIds>();
  /** Languages to run; all of the dataset's languages when it loads. */
  languages = $state<string[]>([]);
  difficulties = $state<string[]>([...DIFFICULTIES]);
  /** Keep only the first N problems after the other filters; null = all. */
  limit = $state<number | null>(null);
  /** A seeded random sample of K problems per language (per language × difficulty); null = off. */
  samplePerLanguage = $state<number | null>(null);
  sampleSeed = $state(1);
  samplePerDifficulty = $state(false);
  loading = $state<{ what: string; progress: Progress } | null>(null);
  loadError = $state<string | null>(null);
  /** The origin whose connection the page's policy refused in the last load, if that was the cause. */
  loadBlockedOrigin = $state<string | null>(null);
  /** The URL of the last load, kept for allowOriginAndReload. */
  private lastUrl: string | null = null;
  private loadController: AbortController | null = null;

  // ── model and settings ─────────────────────────────────────────────────────────────────────
  modelChoice = $state<ModelChoice>('canonical');
  answersFile = $state.raw<AnswersFile | null>(null);
  answersError = $state<string | null>(null);
  /** The recorded answers that ship with the demo set. */
  readonly demoAnswers = parseAnswers(demoAnswersText);
  private demoMulti: Promise<RecordedAnswer[]> | null = null;

  /** The demo set's recorded answers with several samples and turns: read from the app's own origin when first used. */
  private demoMultiAnswers(): Promise<RecordedAnswer[]> {
    this.demoMulti ??= fetch(demoMultiAnswersUrl).then(async (response) => {
      if (!response.ok) throw new Error(`could not load ${DEMO_MULTI_ANSWERS_NAME} (HTTP ${response.status})`);
      return parseAnswers(await response.text()).answers;
    });
    this.demoMulti.catch(() => (this.demoMulti = null));
    return this.demoMulti;
  }
  mode = $state<ExtractionMode>('compat');
  /** Programs in parallel with the canonical/recorded models: one per core (the input allows 1–16). */
  concurrency = $state(Math.min(16, Math.max(1, globalThis.navigator?.hardwareConcurrency || 2)));
  /** Per-run time limit in seconds; null = the official limit of each language. */
  timeLimitSeconds = $state<number | null>(null);
  /** Samples per problem (n): pass@k for each k ≤ n among 1, 5, 10. */
  samples = $state(1);
  /** Refinement turns: after a failing run the model gets its answer and the test output back. */
  turns = $state(1);
  /** What is fed back between turns: the public (demo) test's output only, or the full tests'. */
  feedback = $state<FeedbackSource>('demo');
  /** The "Model provider" settings (the key stays in its memory). */
  readonly provider = new ProviderForm();
  /** Remote runner URLs, token and per-language choice (state/runner-settings.svelte.ts). */
  readonly runner = new RunnerSettings();

  // ── run ────────────────────────────────────────────────────────────────────────────────────
  run = $state.raw<Run | null>(null);
  /** First attempts (sample 0, turn 1) of the current run, keyed by problem index: the headline figures. */
  readonly results = new SvelteMap<number, ProblemResult>();
  /** Every result of the current run, keyed by resultKey(problem id, sample, turn). */
  readonly attempts = new SvelteMap<string, ProblemResult>();
  /** Problems of the current run with an attempt that has started and not finished, with how many. */
  readonly inFlight = new SvelteMap<number, number>();
  /** Latest message of each runtime ("loading Pyodide (13 MB)…", "… ready"). */
  runtimeStatus = $state<Record<string, string>>({});
  /** Ticks while a run is going, for elapsed time and ETA. */
  now = $state(Date.now());
  private runController: AbortController | null = null;
  /** Watches the provider requests of the run going on for the same failure repeated. */
  private breaker: FailureBreaker | null = null;
  /** Requests, tokens and retries of the run going on in this page. */
  counters = $state<LiveCounters>(emptyCounters());
  /** Past runs (IndexedDB), interrupted runs, comparison. */
  readonly history = new RunHistory();
  /** A write to the run store failed during the current run (the run goes on). */
  storeError = $state<string | null>(null);
  /** Counts the evaluations started in this page (a new run, a continuation, a retry). */
  runSession = $state(0);
  /** Which page is shown: set-up and results, the run list, or the leaderboard of stored runs. */
  view = $state<'evaluate' | 'runs' | 'leaderboard'>('evaluate');
  private executor: (Executor & { describe?(language: LanguageId): string }) | null = null;
  executorError = $state<string | null>(null);

  // ── results view ───────────────────────────────────────────────────────────────────────────
  outcomeFilter = $state<string>('all');
  languageFilter = $state<string>('all');
  /** Problem index shown in the detail view. */
  selected = $state<number | null>(null);

  constructor() {
    try {
      this.executor = createBrowserExecutor({
        onStatus: (language, message) => {
          this.runtimeStatus = { ...this.runtimeStatus, [language]: message };
        },
      });
    } catch (e) {
      this.executorError = `Could not start the runtimes: ${(e as Error).message}`;
    }
    this.languages = this.defaultLanguages(this.dataset);
    this.resumePendingLoad();
    this.modelChoice = savedModelChoice() ?? this.modelChoice;
    $effect.root(() => {
      $effect(() => saveModelChoice(this.modelChoice));
    });
  }

  /** Languages that have a runtime in this page. */
  get runnableLanguages(): readonly LanguageId[] {
    const local = this.executor?.languages() ?? [];
    // With a runner: what the last connection test found, under the per-language choice.
    const remote = this.runner.configured ? this.runner.offered : [];
    return [...new Set([...local, ...remote])].filter((l) => effectiveRoute(l, this.runner.choiceFor(l), local, remote, this.runner.configured) !== null);
  }

  /**
   * The languages ticked when a dataset loads: those that can run here (in the page or on the
   * runner), so Run does not count problems that would only be reported UNSUPPORTED; all of them
   * when none can.
   */
  private defaultLanguages(dataset: Dataset): LanguageId[] {
    const all = dataset.languageCounts.map(([l]) => l);
    const runnable = new Set(this.runnableLanguages);
    const here = all.filter((l) => runnable.has(l));
    return here.length ? here : all;
  }

  /**
   * Problems that need a remote runner (no runtime here), under the difficulty and duplicate
   * choices: `selected` among the selection, `left` among the languages not ticked.
   */
  get needRunner(): { selected: number; left: number } {
    const runnable = new Set(this.runnableLanguages);
    const ticked = new Set(this.languages);
    const difficulties = new Set(this.difficulties);
    let selected = 0;
    let left = 0;
    for (const p of this.selection) if (!runnable.has(p.language)) selected++;
    for (const p of applyDuplicateChoice(this.dataset.problems, this.dataset.duplicates, this.duplicateChoice)) {
      if (!runnable.has(p.language) && !ticked.has(p.language) && difficulties.has(p.difficulty)) left++;
    }
    return { selected, left };
  }

  /** Languages the page's own runtimes can run. */
  get runnableLocal(): readonly LanguageId[] {
    return this.executor?.languages() ?? [];
  }

  /** The executor of a run: the page's runtimes, routed per language to the runner when one is set. */
  private async runExecutor(): Promise<Executor> {
    const local = this.executor!;
    // Routed even without a runner: `auto` skips in-page runtimes whose agreement is too low.
    if (!this.runner.configured) return createRoutedExecutor({ local, remote: null, choices: choicesInEffect(this.runner.choices, false) });
    const remote = await this.runner.connect((message) => {
      this.runtimeStatus = { ...this.runtimeStatus, 'remote runner': message };
    });
    const described = remote.runners.map((r) => (r.error ? `${r.url}: ${r.error}` : `${r.url}: ${r.official ? 'official sandbox' : `${r.languages?.filter((l) => l.available).length ?? 0} languages`}`));
    this.runtimeStatus = { ...this.runtimeStatus, 'remote runner': described.join('; ') };
    // Not the routed executor's dispose: it would dispose the page's runtimes too.
    return createRoutedExecutor({ local, remote, choices: { ...this.runner.choices } });
  }

  /** The problems a run would evaluate now. */
  selection = $derived.by(() => {
    const all = this.dataset.languageCounts.map(([l]) => l);
    const languages = this.languages.length === all.length ? undefined : this.languages;
    const difficulties = this.difficulties.length === DIFFICULTIES.length ? undefined : this.difficulties;
    // A language or difficulty filter with nothing ticked selects nothing.
    if (languages?.length === 0 || difficulties?.length === 0) return [];
    return this.subset?.problems ?? filterProblems(applyDuplicateChoice(this.dataset.problems, this.dataset.duplicates, this.duplicateChoice), { languages, difficulties, limit: this.limit ?? undefined });
  });

  /** The stratified sample and its plan when "per language" is set (the "first N" limit does not apply then). */
  subset = $derived.by(() => {
    if (this.samplePerLanguage === null) return null;
    const all = this.dataset.languageCounts.map(([l]) => l);
    const languages = this.languages.length === all.length ? undefined : this.languages;
    const difficulties = this.difficulties.length === DIFFICULTIES.length ? undefined : this.difficulties;
    if (languages?.length === 0 || difficulties?.length === 0) return null;
    return samplePerStratum(filterProblems(applyDuplicateChoice(this.dataset.problems, this.dataset.duplicates, this.duplicateChoice), { languages, difficulties }), { perStratum: this.samplePerLanguage, seed: this.sampleSeed, byDifficulty: this.samplePerDifficulty });
  });

  summary: Summary = $derived(summarize([...this.results.values()]));
  /** Every result of the current run (every sample and turn). */
  allResults: ProblemResult[] = $derived([...this.attempts.values()]);
  /** The `pass@k: …` and `Pass@1 after turn t: …` lines of the shown run, exactly as the CLI prints them. */
  metricLines: string[] = $derived(this.run ? metricLines(this.allResults, this.run) : []);
  /** (problem, sample) chains of the shown run that are over, and how many it has. */
  chainsDone: number = $derived(this.run ? chainsDone(this.attempts.values(), this.run.turns) : 0);
  get chainsTotal(): number {
    return this.run ? this.run.problems.length * this.run.samples : 0;
  }
  /** The run has several samples or turns. */
  get multi(): boolean {
    return !!this.run && (this.run.samples > 1 || this.run.turns > 1);
  }

  /** A run is being set up (stored, its answers read) and will start in a moment. */
  private starting = $state(false);

  get running(): boolean {
    return this.starting || this.run?.state === 'running' || this.run?.state === 'stopping';
  }

  /** Runs `task` unless a run is going on or starting, so a double click starts one run. */
  private async exclusive(task: () => Promise<void>): Promise<void> {
    if (this.running) return;
    this.starting = true;
    try {
      await task();
    } finally {
      this.starting = false;
    }
  }

  get modelOptions(): Array<{ value: ModelChoice; label: string }> {
    const options: Array<{ value: ModelChoice; label: string }> = [
      { value: 'canonical', label: 'Canonical solutions (self-check)' },
      { value: 'demo-answers', label: 'Recorded demo answers' },
      { value: 'demo-answers-multi', label: 'Recorded demo answers (several samples and turns)' },
      { value: 'provider', label: 'Model provider (your API key)' },
    ];
    if (this.dataset.hasOutput) options.push({ value: 'dataset-output', label: 'Answers in the dataset (output field)' });
    if (this.answersFile) options.push({ value: 'answers-file', label: `Answers from ${this.answersFile.name} (${this.answersFile.answers.length})` });
    return options;
  }

  get modelLabel(): string {
    if (this.modelChoice === 'provider') return this.provider.label;
    return this.modelOptions.find((o) => o.value === this.modelChoice)?.label ?? this.modelChoice;
  }

  /** Parallel problems for the chosen source: the provider's own setting, or the general one. */
  get activeConcurrency(): number {
    const n = this.modelChoice === 'provider' ? this.provider.concurrency : this.concurrency;
    return Math.max(1, Math.floor(n) || 1);
  }

  /**
   * What a new run stores about where its answers come from. Recorded answers from a file keep
   * only those of the run's problems, by problem id, so the run can be continued without the file.
   */
  private sourceFor(problems: readonly Problem[]): RunSource {
    switch (this.modelChoice) {
      case 'canonical':
      case 'demo-answers':
      case 'demo-answers-multi':
      case 'dataset-output':
        return { kind: this.modelChoice };
      case 'answers-file': {
        const file = this.answersFile;
        if (!file) throw new Error('no answers file loaded');
        // Every recorded sample and turn of the run's problems (by id), else the line-order answers.
        const withIds = file.answers.some((a) => a.id);
        const wanted = new Set(problems.map((p) => p.id));
        const answers: RecordedAnswer[] = withIds
          ? file.answers.filter((a) => a.id && wanted.has(a.id)).map((a) => ({ ...a }))
          : problems
              .map((p) => ({ id: p.id, output: file.answers[p.index]?.output }))
              .filter((a): a is { id: string; output: string } => a.output !== undefined);
        return { kind: 'answers-file', name: file.name, answers };
      }
      case 'provider': {
        const why = this.provider.problems;
        if (why.length) throw new Error(why.join(' '));
        return this.provider.runSource();
      }
    }
  }

  /** The model that answers for a stored run (a provider's with this page's key for it). */
  private async modelFor(record: RunRecord): Promise<{ model: Model; prices?: Partial<Prices> }> {
    const source = record.source;
    switch (source.kind) {
      case 'canonical':
        return { model: canonicalModel };
      case 'demo-answers':
        return { model: replayAnswersModel(DEMO_ANSWERS_NAME, this.demoAnswers.answers) };
      case 'demo-answers-multi':
        return { model: replayAnswersModel(DEMO_MULTI_ANSWERS_NAME, await this.demoMultiAnswers()) };
      case 'dataset-output':
        return { model: replayOwnOutputModel };
      case 'answers-file':
        return { model: replayAnswersModel(source.name, source.answers) };
      case 'provider': {
        if (!this.provider.hasKeyFor(source)) {
          // Show that provider in the form, so the key typed next is the one for it.
          this.provider.applyRunSource(source);
          this.modelChoice = 'provider';
          throw new Error(`Enter your API key for ${source.presetName} in the Model panel (it is kept in memory only), then press Continue (or Retry errors) again.`);
        }
        const settings = this.provider.settingsFor(source, record.modelId);
        try {
          const model = createProviderModel(settings, {
            onRetry: (info, problem) => {
              this.noteFailure(info.error, problem?.id);
              this.counters.retries++;
              this.counters.lastRetry = `${problem ? `problem ${problem.id}: ` : ''}${info.error.message} — retry ${info.retry} in ${(info.delayMs / 1000).toFixed(1)} s`;
            },
          });
          return { model, prices: source.prices };
        } catch (e) {
          if (e instanceof ProviderSettingsError) throw new Error(`Check the provider settings: ${e.message}`);
          throw e;
        }
      }
    }
  }

  // ── commands: dataset ──────────────────────────────────────────────────────────────────────

  private useDataset(dataset: Dataset): void {
    this.dataset = dataset;
    this.languages = this.defaultLanguages(dataset);
    this.difficulties = [...DIFFICULTIES];
    if (this.modelChoice === 'dataset-output' && !dataset.hasOutput) this.modelChoice = 'canonical';
  }

  async loadUrl(url: string): Promise<void> {
    url = url.trim();
    if (!url || this.loading) return;
    this.lastUrl = url;
    await this.load(url, (signal, onProgress) => loadDatasetUrl(url, onProgress, signal), nameFromUrl(url));
  }

  async loadFile(file: File): Promise<void> {
    if (this.loading) return;
    this.lastUrl = null;
    await this.load(file.name, (signal, onProgress) => loadDatasetFile(file, onProgress, signal), file.name);
  }

  private async load(
    what: string,
    read: (signal: AbortSignal, onProgress: (p: Progress) => void) => Promise<LoadedDataset & { bytes: number; sha256?: string }>,
    name: string,
  ): Promise<void> {
    this.loadError = null;
    this.loadBlockedOrigin = null;
    this.loadController = new AbortController();
    this.loading = { what, progress: { loaded: 0, total: null } };
    try {
      const parsed = await read(this.loadController.signal, (progress) => {
        this.loading = { what, progress };
      });
      this.useDataset(describeDataset(name, what, parsed, parsed.bytes, parsed.sha256));
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

  /** Starts a new run of the selected problems; it is stored before the first question is asked. */
  start(): Promise<void> {
    return this.exclusive(() => this.startNew());
  }

  private async startNew(): Promise<void> {
    const problems = this.selection;
    if (problems.length === 0) return;
    let source: RunSource;
    try {
      if (!this.executor) throw new Error(this.executorError ?? 'no executor');
      source = this.sourceFor(problems);
    } catch (e) {
      this.showFailure(problems, (e as Error).message);
      return;
    }
    const now = Date.now();
    const record: RunRecord = {
      id: newRunId(),
      modelId: source.kind === 'provider' ? this.provider.settings().id! : this.modelIdFor(source),
      modelLabel: this.modelLabel,
      source,
      datasetName: this.dataset.name,
      datasetSource: this.dataset.source,
      mode: this.mode,
      timeLimitSeconds: this.timeLimitSeconds,
      concurrency: this.activeConcurrency,
      problemCount: problems.length,
      languages: [...new Set(problems.map((p) => p.language))],
      createdAt: now,
      startedAt: now,
      finishedAt: null,
      state: 'running',
      error: null,
      counts: emptyCounts(),
      samples: this.activeSamples,
      turns: this.activeTurns,
      feedback: this.feedback,
      ...(source.kind === 'provider' && source.settings.completion ? { completion: true } : {}),
      ...(this.dataset.sha256 ? { datasetSha256: this.dataset.sha256 } : {}),
      duplicates: {
        choice: this.duplicateChoice,
        questions: this.dataset.duplicates.length,
        dropped: this.dataset.problems.length - applyDuplicateChoice(this.dataset.problems, this.dataset.duplicates, this.duplicateChoice).length,
      },
      selection: {
        languages: [...this.languages],
        difficulties: [...this.difficulties],
        ...(this.limit !== null && !this.subset ? { limit: this.limit } : {}),
        ...(this.subset ? { sample: this.subset.plan } : {}),
      },
    };
    const store = await this.history.ready;
    try {
      await store.createRun(record, problems);
    } catch (e) {
      this.showFailure(problems, `Could not store the run, so it was not started: ${(e as Error).message}`);
      return;
    }
    await this.execute(record, problems, problems, new Map(), []);
  }

  private modelIdFor(source: RunSource): string {
    if (source.kind === 'demo-answers') return `replay:${DEMO_ANSWERS_NAME}`;
    if (source.kind === 'demo-answers-multi') return `replay:${DEMO_MULTI_ANSWERS_NAME}`;
    if (source.kind === 'answers-file') return `replay:${source.name}`;
    if (source.kind === 'dataset-output') return 'replay';
    return source.kind;
  }

  /** A run that could not start: shown with its reason, not stored. */
  private showFailure(problems: Problem[], error: string): void {
    const now = Date.now();
    this.now = now;
    this.run = {
      id: null,
      record: null,
      datasetName: this.dataset.name,
      modelId: this.modelChoice,
      modelLabel: this.modelLabel,
      mode: this.mode,
      timeLimit: timeLimitText(this.timeLimitSeconds),
      concurrency: this.activeConcurrency,
      samples: this.activeSamples,
      turns: this.activeTurns,
      problems,
      startedAt: now,
      finishedAt: now,
      state: 'failed',
      error,
      legacy: null,
    };
  }

  /**
   * Imports a file in the official format (input records with the model's answer in `output`):
   * loads it as the dataset and re-scores its answers here, offline, as a new run.
   */
  async importAnswers(file: File): Promise<void> {
    if (this.running) return;
    this.view = 'evaluate';
    await this.loadFile(file);
    if (this.loadError) return;
    if (!this.dataset.hasOutput) {
      this.loadError = `${file.name} has no "output" field: it holds no answers to re-score (it is loaded as a dataset).`;
      return;
    }
    this.modelChoice = 'dataset-output';
    await this.start();
  }

  /** Loads a stored run into the results view (without running anything). */
  async openRun(id: string): Promise<RunData | null> {
    if (this.running) return null;
    const data = await this.loadRunData(id);
    if (!data) return null;
    this.showRun(data.run, [...data.problems], [...data.results.values()], false);
    this.view = 'evaluate';
    return data;
  }

  /**
   * Continues a stored run: problems with a result keep it, the others are evaluated, and any
   * problem whose answer is stored is evaluated from it, without asking the model again.
   */
  continueRun(id: string): Promise<void> {
    return this.exclusive(() => this.resume(id, 'missing'));
  }

  /** Evaluates again the problems of the shown run that ended in INFRA_ERROR (and only those). */
  retryErrors(): Promise<void> {
    const id = this.run?.id;
    return id ? this.exclusive(() => this.resume(id, 'errors')) : Promise.resolve();
  }

  private async resume(id: string, which: 'missing' | 'errors'): Promise<void> {
    const data = await this.loadRunData(id);
    if (!data) return;
    this.showRun(data.run, [...data.problems], [...data.results.values()], false);
    this.view = 'evaluate';
    const { run: record, problems } = data;
    // An INFRA_ERROR always ends its (problem, sample) chain: dropping it lets the chain resume there.
    const kept = [...data.results.values()].filter((r) => which === 'missing' || r.verdict !== 'infra_error');
    const samples = record.samples ?? 1;
    const turns = record.turns ?? 1;
    const ends = chainEnds(kept);
    const unfinished = (p: Problem) =>
      Array.from({ length: samples }, (_, s) => ends.get(`${p.id}#${s}`)).some((last) => !last || !chainOver(last, turns));
    const todo = problems.filter(unfinished);
    if (!todo.length) return;
    try {
      if (!this.executor) throw new Error(this.executorError ?? 'no executor');
      await this.modelFor(record);
    } catch (e) {
      if (this.run) this.run = { ...this.run, error: (e as Error).message };
      return;
    }
    await this.execute(record, [...problems], todo, new Map(data.answers), kept);
  }

  private async loadRunData(id: string): Promise<RunData | null> {
    const store = await this.history.ready;
    const run = await store.getRun(id);
    if (!run) return null;
    const [stored, results, answers] = await Promise.all([store.problems(id), store.results(id), store.answers(id)]);
    // A run stored before copies of a question had ids of their own: the later copies get theirs.
    const { problems, legacy } = legacyIds(run, stored);
    this.legacyRuns.set(id, legacy);
    const aligned = legacy?.shared ? alignResults(problems, results) : results;
    return { run, problems, results: new Map(aligned.map((r) => [resultKey(r.id, sampleOf(r), turnOf(r)), r])), answers };
  }

  /** The stored run, its problems, results and answers: what the exports are made of. */
  async currentRunData(): Promise<RunData | null> {
    return this.run?.id ? this.loadRunData(this.run.id) : null;
  }

  async exportRun(kind: 'official' | 'results-jsonl' | 'results-csv' | 'manifest', id: string | null = this.run?.id ?? null): Promise<void> {
    if (!id) return;
    const data = await this.loadRunData(id);
    if (!data) return;
    const [suffix, text, type] =
      kind === 'official'
        ? ['official.jsonl', officialJsonl(data), 'application/jsonl']
        : kind === 'results-jsonl'
          ? ['results.jsonl', resultsJsonl(data), 'application/jsonl']
          : kind === 'results-csv'
            ? ['results.csv', resultsCsv(data), 'text/csv']
            : ['manifest.json', JSON.stringify(manifest(data), null, 2) + '\n', 'application/json'];
    download(`${fileStem(data.run)}.${suffix}`, new Blob([text], { type }));
  }

  private showRun(record: RunRecord, problems: Problem[], results: ProblemResult[], live: boolean): void {
    this.results.clear();
    this.attempts.clear();
    for (const r of results) this.noteResult(r);
    this.inFlight.clear();
    this.selected = null;
    this.outcomeFilter = 'all';
    this.languageFilter = 'all';
    const state: RunState = record.state === 'running' && !live ? (this.history.busy.has(record.id) ? 'elsewhere' : 'interrupted') : record.state;
    this.now = Date.now();
    this.run = {
      id: record.id,
      record,
      datasetName: record.datasetName,
      modelId: record.modelId,
      modelLabel: record.modelLabel,
      mode: record.mode,
      timeLimit: timeLimitText(record.timeLimitSeconds),
      concurrency: record.concurrency,
      samples: record.samples ?? 1,
      turns: record.turns ?? 1,
      problems,
      startedAt: record.startedAt,
      finishedAt: record.finishedAt,
      state: live ? 'running' : state,
      error: record.error,
      legacy: this.legacyRuns.get(record.id) ?? null,
    };
    if (!live) this.counters = { ...emptyCounters(), inputTokens: record.counts.inputTokens, outputTokens: record.counts.outputTokens, reasoningTokens: record.counts.reasoningTokens, prices: record.source.kind === 'provider' ? record.source.prices : undefined };
  }

  /**
   * Evaluates `todo` (some of `problems`) for a stored run. Every answer is stored before it is
   * evaluated and every result as soon as it exists; answers already stored are reused.
   */
  private async execute(record: RunRecord, problems: Problem[], todo: Problem[], answers: Map<string, StoredAnswer>, kept: ProblemResult[]): Promise<void> {
    const store = await this.history.ready;
    let executor: Executor;
    let built: { model: Model; prices?: Partial<Prices> };
    const breaker = (this.breaker = record.source.kind === 'provider' ? this.newBreaker(record.source.settings.baseUrl) : null);
    try {
      built = await this.modelFor(record);
      executor = await this.runExecutor();
    } catch (e) {
      this.showRun(record, problems, kept, false);
      if (this.run) this.run = { ...this.run, error: (e as Error).message };
      return;
    }
    const startedAt = Date.now();
    this.runSession++;
    record = { ...record, state: 'running', startedAt, finishedAt: null, error: null };
    this.showRun(record, problems, kept, true);
    this.storeError = null;
    const usage = emptyTotals();
    for (const a of answers.values()) addUsage(usage, a.usage);
    this.counters = { ...emptyCounters(), inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, reasoningTokens: usage.reasoningTokens, prices: built.prices };
    const base = { ...this.counters };
    const metered = record.source.kind === 'provider'
      ? meteredModel(built.model, (m) => {
          this.counters.inFlight = m.inFlight;
          this.counters.received = m.received;
          this.counters.failed = m.failed;
          this.counters.inputTokens = base.inputTokens + m.inputTokens;
          this.counters.outputTokens = base.outputTokens + m.outputTokens;
          this.counters.reasoningTokens = base.reasoningTokens + m.reasoningTokens;
        }).model
      : built.model;
    const noteStoreError = (e: unknown) => {
      this.storeError ??= `Could not save to this browser's storage: ${(e as Error).message}. The run goes on, but what is not saved is lost on reload.`;
    };
    const runId = record.id;
    const inner = metered;
    // Marks a problem as in progress, answers from the store when it can, and stores every new
    // answer before handing it on to be evaluated.
    const model: Model = {
      id: inner.id,
      answer: async (problem, signal, context = FIRST_ATTEMPT) => {
        this.inFlight.set(problem.index, (this.inFlight.get(problem.index) ?? 0) + 1);
        const key = resultKey(problem.id, context.sample, context.turn);
        const stored = answers.get(key);
        if (stored) return { text: stored.output, ...(stored.isCode ? { isCode: true } : {}), ...(stored.usage ? { usage: stored.usage } : {}), ...(stored.reasoning ? { reasoning: stored.reasoning } : {}) };
        let answer: Awaited<ReturnType<Model['answer']>>;
        try {
          answer = await inner.answer(problem, untilAuthStop(signal), context);
        } catch (e) {
          this.noteFailure(e, problem.id);
          throw e;
        }
        breaker?.success();
        const entry: StoredAnswer = {
          output: answer.text,
          ...(answer.isCode ? { isCode: true } : {}),
          ...(answer.usage ? { usage: answer.usage } : {}),
          ...(answer.reasoning ? { reasoning: answer.reasoning } : {}),
          receivedAt: Date.now(),
        };
        answers.set(key, entry);
        await store.putAnswer(runId, key, entry).catch(noteStoreError);
        return answer;
      },
    };

    const controller = (this.runController = new AbortController());
    let release!: () => void;
    const running = new Promise<void>((resolve) => (release = resolve));
    if (!(await holdRunLock(runId, running))) {
      this.runController = null;
      this.run = { ...this.run!, state: 'elsewhere', error: 'This run is going on in another tab of this browser: continue it there, or close that tab first.' };
      return;
    }
    this.history.markBusy(runId, true);
    await store.updateRun(runId, { state: 'running', startedAt, finishedAt: null, error: null }).catch(noteStoreError);
    void this.history.refresh();
    const writes: Array<Promise<void>> = [];
    const seconds = record.timeLimitSeconds;
    const tick = setInterval(() => (this.now = Date.now()), 500);
    let state: RunState = 'done';
    let error: string | null = null;
    try {
      // The stored turns of each (problem, sample): a continued chain goes on after them.
      const chains = new Map<string, ProblemResult[]>();
      for (const r of kept) {
        const key = `${r.id}#${sampleOf(r)}`;
        chains.set(key, [...(chains.get(key) ?? []), r].sort((a, b) => turnOf(a) - turnOf(b)));
      }
      await evaluateAll(todo, model, executor, {
        mode: record.mode,
        concurrency: record.concurrency,
        signal: controller.signal,
        timeoutMs: seconds ? () => seconds * 1000 : undefined,
        samples: record.samples ?? 1,
        turns: record.turns ?? 1,
        feedback: record.feedback ?? 'demo',
        known: (problem, sample) => chains.get(`${problem.id}#${sample}`),
        onResult: (result) => {
          this.noteResult(result);
          const left = (this.inFlight.get(result.index) ?? 1) - 1;
          if (left > 0) this.inFlight.set(result.index, left);
          else this.inFlight.delete(result.index);
          writes.push(store.putResult(runId, result).catch(noteStoreError));
        },
      });
      state = controller.signal.aborted ? 'stopped' : 'done';
      if (controller.signal.reason instanceof RepeatedFailureError) {
        state = 'failed';
        error = `The run stopped early. ${controller.signal.reason.advice} Every answer received so far is kept.`;
      }
    } catch (e) {
      state = 'failed';
      error = e instanceof AuthenticationError
        ? `${e.message}. The run stopped at once; every answer received so far is kept. Check the key, then press Continue.`
        : `The run stopped with an error: ${(e as Error).message}`;
    } finally {
      clearInterval(tick);
      this.inFlight.clear();
      this.runController = null;
      if (this.breaker === breaker) this.breaker = null;
      await Promise.all(writes);
      const finishedAt = Date.now();
      this.now = finishedAt;
      const stored = await store.updateRun(runId, { state, error, finishedAt }).catch((e: unknown) => (noteStoreError(e), null));
      release();
      this.history.markBusy(runId, false);
      if (this.run?.id === runId) this.run = { ...this.run, record: stored ?? this.run.record, state, error, finishedAt };
      void this.history.refresh();
    }
  }

  private newBreaker(baseUrl: string): FailureBreaker {
    return new FailureBreaker((cls, error, tries) => adviceFor(cls, error, baseUrl, location.origin, tries));
  }

  /** A provider request failed (a try or the last one): stops the run when it fails the same way every time. */
  private noteFailure(error: unknown, problem: string | undefined): void {
    const advice = this.breaker?.failure(error, problem);
    if (advice) this.runController?.abort(new RepeatedFailureError(advice));
  }

  /** Shows one result: every attempt in `attempts`, a first attempt also in `results`. */
  private noteResult(result: ProblemResult): void {
    this.attempts.set(resultKey(result.id, sampleOf(result), turnOf(result)), result);
    if (sampleOf(result) === 0 && turnOf(result) === 1) this.results.set(result.index, result);
  }

  /** Samples a new run asks for (a whole number from 1 to 100). */
  get activeSamples(): number {
    return Math.min(100, Math.max(1, Math.floor(this.samples) || 1));
  }

  /** Turns a new run allows (1 to 10); completion mode has a single turn. */
  get activeTurns(): number {
    if (this.modelChoice === 'provider' && this.provider.completionActive) return 1;
    return Math.min(10, Math.max(1, Math.floor(this.turns) || 1));
  }

  /** Stops handing out problems; those already running finish (their answers are kept). */
  stop(): void {
    if (this.run?.state !== 'running' || !this.runController) return;
    this.runController.abort();
    this.run = { ...this.run, state: 'stopping' };
  }

  /** Estimated cost so far of the shown run, when its prices are known. */
  get cost(): number | undefined {
    return costOf(this.counters, this.counters.prices);
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
