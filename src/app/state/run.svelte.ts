/**
 * The run the page shows and the commands that drive it: start a new run, continue a stored one,
 * retry its errors, stop. Every answer is stored before it is evaluated and every result as soon
 * as it exists (the run store, via RunHistory), so a closed tab loses nothing that was paid for.
 */
import { SvelteMap } from 'svelte/reactivity';
import { AuthenticationError, type AnswerSource, type Executor, type Problem } from '../../contracts';
import { evaluateAll } from '../../core/engine';
import { summarize, type Summary } from '../../core/metrics';
import { resultKey, sampleOf, turnOf, type AttemptResult } from '../../core/results';
import { meteredModel } from '../../models/meter';
import type { Prices } from '../../models/providers';
import { addUsage, costOf, emptyTotals } from '../../models/usage';
import type { LegacyIds } from '../../store/legacy';
import type { RunRecord, RunSource, StoredAnswer } from '../../store/types';
import { adviceFor, FailureBreaker, RepeatedFailureError } from '../../models/breaker';
import type { RunData } from '../lib/exports';
import { metricLines } from '../lib/figures';
import { chainKey, chainsOver, groupChains, openProblems } from '../../core/chains';
import { recordedModel } from '../../models/recorded';
import { storeAnswerLog } from '../../store/answer-log';
import type { DatasetStore } from './dataset.svelte';
import { holdRunLock, type RunHistory } from './history.svelte';
import { newRunRecord } from './run-record';
import { emptyCounters, Run, type LiveCounters, type RunState } from './run-model';
import type { Runtimes } from './runtimes.svelte';
import type { RunSettings } from './settings.svelte';
import type { AnswerSources } from './sources.svelte';
import { downloadExport, loadRunData, type ExportKind } from './stored-run';
import type { ViewState } from './view.svelte';

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

export interface RunDeps {
  dataset: DatasetStore;
  sources: AnswerSources;
  settings: RunSettings;
  runtimes: Runtimes;
  history: RunHistory;
  view: ViewState;
}

export class RunStore {
  current = $state.raw<Run | null>(null);
  /** First attempts (sample 0, turn 1) of the current run, keyed by problem index: the headline figures. */
  readonly results = new SvelteMap<number, AttemptResult>();
  /** Every result of the current run, keyed by resultKey(problem id, sample, turn). */
  readonly attempts = new SvelteMap<string, AttemptResult>();
  /** Problems of the current run with an attempt that has started and not finished, with how many. */
  readonly inFlight = new SvelteMap<number, number>();
  /** Ticks while a run is going, for elapsed time and ETA. */
  now = $state(Date.now());
  private runController: AbortController | null = null;
  /** Watches the provider requests of the run going on for the same failure repeated. */
  private breaker: FailureBreaker | null = null;
  /** Requests, tokens and retries of the run going on in this page. */
  counters = $state<LiveCounters>(emptyCounters());
  /** A write to the run store failed during the current run (the run goes on). */
  storeError = $state<string | null>(null);
  /** Counts the evaluations started in this page (a new run, a continuation, a retry). */
  runSession = $state(0);
  /** Stored runs made before copies of a question had ids of their own, as loaded. */
  private readonly legacyRuns = new Map<string, LegacyIds>();

  private readonly dataset: DatasetStore;
  private readonly sources: AnswerSources;
  private readonly settings: RunSettings;
  private readonly runtimes: Runtimes;
  private readonly history: RunHistory;
  private readonly view: ViewState;

  constructor(deps: RunDeps) {
    this.dataset = deps.dataset;
    this.sources = deps.sources;
    this.settings = deps.settings;
    this.runtimes = deps.runtimes;
    this.history = deps.history;
    this.view = deps.view;
  }

  /** The model that answers for a stored run; a provider's retries count, and feed the breaker. */
  private modelFor(record: RunRecord): Promise<{ model: AnswerSource; prices?: Partial<Prices> }> {
    return this.sources.modelFor(record, {
      onRetry: (info, problem) => {
        this.noteFailure(info.error, problem?.id);
        this.counters.retries++;
        this.counters.lastRetry = `${problem ? `problem ${problem.id}: ` : ''}${info.error.message} — retry ${info.retry} in ${(info.delayMs / 1000).toFixed(1)} s`;
      },
    });
  }

  private runExecutor(): Promise<Executor> {
    return this.runtimes.forRun();
  }

  private loadRunData(id: string): Promise<RunData | null> {
    return loadRunData(this.history, this.legacyRuns, id);
  }

  /** The stored run, its problems, results and answers: what the exports are made of. */
  async currentRunData(): Promise<RunData | null> {
    return this.current?.id ? this.loadRunData(this.current.id) : null;
  }

  async exportRun(kind: ExportKind, id: string | null = this.current?.id ?? null): Promise<void> {
    if (!id) return;
    const data = await this.loadRunData(id);
    if (data) downloadExport(data, kind);
  }

  summary: Summary = $derived(summarize([...this.results.values()]));
  /** Every result of the current run (every sample and turn). */
  allResults: AttemptResult[] = $derived([...this.attempts.values()]);
  /** The `pass@k: …` and `Pass@1 after turn t: …` lines of the shown run, exactly as the CLI prints them. */
  metricLines: string[] = $derived(this.current ? metricLines(this.allResults, this.current) : []);
  /** (problem, sample) chains of the shown run that are over, and how many it has. */
  chainsDone: number = $derived(this.current ? chainsOver(this.attempts.values(), this.current.turns) : 0);
  get chainsTotal(): number {
    return this.current ? this.current.problems.length * this.current.samples : 0;
  }
  /** The run has several samples or turns. */
  get multi(): boolean {
    return !!this.current && (this.current.samples > 1 || this.current.turns > 1);
  }

  /** A run is being set up (stored, its answers read) and will start in a moment. */
  private starting = $state(false);

  get running(): boolean {
    return this.starting || this.current?.state === 'running' || this.current?.state === 'stopping';
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

  /** Starts a new run of the selected problems; it is stored before the first question is asked. */
  start(): Promise<void> {
    return this.exclusive(() => this.startNew());
  }

  private async startNew(): Promise<void> {
    const problems = this.dataset.selection;
    if (problems.length === 0) return;
    let source: RunSource;
    try {
      this.runtimes.ensureStarted();
      source = this.sources.sourceFor(problems);
    } catch (e) {
      this.showFailure(problems, (e as Error).message);
      return;
    }
    const record = newRunRecord(problems, source, this.dataset, this.sources, this.settings);
    const store = await this.history.ready;
    try {
      await store.createRun(record, problems);
    } catch (e) {
      this.showFailure(problems, `Could not store the run, so it was not started: ${(e as Error).message}`);
      return;
    }
    await this.execute(record, problems, problems, new Map(), []);
  }

  /** A run that could not start: shown with its reason, not stored. */
  private showFailure(problems: Problem[], error: string): void {
    const now = Date.now();
    this.now = now;
    const s = this.settings;
    const head = { datasetName: this.dataset.current.name, modelId: this.sources.modelChoice, modelLabel: this.sources.modelLabel, mode: s.mode, timeLimitSeconds: s.timeLimitSeconds, concurrency: s.activeConcurrency, samples: s.activeSamples, turns: s.activeTurns, startedAt: now, finishedAt: now };
    this.current = Run.failed(head, problems, error);
  }

  /** Loads a stored run into the results view (without running anything). */
  async openRun(id: string): Promise<RunData | null> {
    if (this.running) return null;
    const data = await this.loadRunData(id);
    if (!data) return null;
    this.showRun(data.run, [...data.problems], [...data.results.values()], false);
    this.view.page = 'evaluate';
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
    const id = this.current?.id;
    return id ? this.exclusive(() => this.resume(id, 'errors')) : Promise.resolve();
  }

  /** After a reload: the dataset panel shows the interrupted run's dataset, not the demo set. */
  async showRunDataset(id: string): Promise<void> {
    if (this.running || this.current) return;
    const data = await this.loadRunData(id);
    if (data && !this.running && !this.current) this.dataset.useRunDataset(data.run, data.problems);
  }

  private async resume(id: string, which: 'missing' | 'errors'): Promise<void> {
    const data = await this.loadRunData(id);
    if (!data) return;
    if (which === 'missing') this.dataset.useRunDataset(data.run, data.problems);
    this.showRun(data.run, [...data.problems], [...data.results.values()], false);
    this.view.page = 'evaluate';
    const { run: record, problems } = data;
    // An INFRA_ERROR always ends its (problem, sample) chain: dropping it lets the chain resume there.
    const kept = [...data.results.values()].filter((r) => which === 'missing' || r.verdict !== 'infra_error');
    const samples = record.samples ?? 1;
    const turns = record.turns ?? 1;
    const chains = groupChains(kept);
    const todo = openProblems(problems, (p, sample) => chains.get(chainKey(p.id, sample)), samples, turns);
    if (!todo.length) return;
    try {
      this.runtimes.ensureStarted();
      await this.modelFor(record);
    } catch (e) {
      if (this.current) this.current = this.current.with({ error: (e as Error).message });
      return;
    }
    await this.execute(record, [...problems], todo, new Map(data.answers), kept);
  }

  private showRun(record: RunRecord, problems: Problem[], results: AttemptResult[], live: boolean): void {
    this.results.clear();
    this.attempts.clear();
    for (const r of results) this.noteResult(r);
    this.inFlight.clear();
    this.view.resetResults();
    const state: RunState = record.state === 'running' && !live ? (this.history.busy.has(record.id) ? 'elsewhere' : 'interrupted') : record.state;
    this.now = Date.now();
    this.current = Run.of(record, problems, live ? 'running' : state, this.legacyRuns.get(record.id) ?? null);
    if (!live) this.counters = { ...emptyCounters(), inputTokens: record.counts.inputTokens, outputTokens: record.counts.outputTokens, reasoningTokens: record.counts.reasoningTokens, prices: record.source.kind === 'provider' ? record.source.prices : undefined };
  }

  /**
   * Evaluates `todo` (some of `problems`) for a stored run. Every answer is stored before it is
   * evaluated and every result as soon as it exists; answers already stored are reused.
   */
  private async execute(record: RunRecord, problems: Problem[], todo: Problem[], answers: Map<string, StoredAnswer>, kept: AttemptResult[]): Promise<void> {
    const store = await this.history.ready;
    let executor: Executor;
    let built: { model: AnswerSource; prices?: Partial<Prices> };
    const breaker = (this.breaker = record.source.kind === 'provider' ? this.newBreaker(record.source.settings.baseUrl) : null);
    try {
      built = await this.modelFor(record);
      executor = await this.runExecutor();
    } catch (e) {
      this.showRun(record, problems, kept, false);
      if (this.current) this.current = this.current.with({ error: (e as Error).message });
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
    const asked: AnswerSource = {
      id: metered.id,
      answer: async (problem, signal, context) => {
        let answer: Awaited<ReturnType<AnswerSource['answer']>>;
        try {
          answer = await metered.answer(problem, untilAuthStop(signal), context);
        } catch (e) {
          this.noteFailure(e, problem.id);
          throw e;
        }
        breaker?.success();
        return answer;
      },
    };
    // Every answer is stored before it is evaluated; a stored one is used instead of asking again.
    const recorded = recordedModel(asked, storeAnswerLog(store, runId, answers, noteStoreError));
    const model: AnswerSource = {
      id: recorded.id,
      answer: (problem, signal, context) => {
        this.inFlight.set(problem.index, (this.inFlight.get(problem.index) ?? 0) + 1);
        return recorded.answer(problem, signal, context);
      },
    };

    const controller = (this.runController = new AbortController());
    let release!: () => void;
    const running = new Promise<void>((resolve) => (release = resolve));
    if (!(await holdRunLock(runId, running))) {
      this.runController = null;
      this.current = this.current!.with({ state: 'elsewhere', error: 'This run is going on in another tab of this browser: continue it there, or close that tab first.' });
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
      const chains = groupChains(kept);
      await evaluateAll(todo, model, executor, {
        mode: record.mode,
        concurrency: record.concurrency,
        signal: controller.signal,
        timeoutMs: seconds ? () => seconds * 1000 : undefined,
        samples: record.samples ?? 1,
        turns: record.turns ?? 1,
        feedback: record.feedback ?? 'demo',
        priorTurns: (problem, sample) => chains.get(chainKey(problem.id, sample)),
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
      if (this.current?.id === runId) this.current = this.current.with({ record: stored ?? { ...this.current.record!, state, error, finishedAt }, state, error });
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
  private noteResult(result: AttemptResult): void {
    this.attempts.set(resultKey(result.id, sampleOf(result), turnOf(result)), result);
    if (sampleOf(result) === 0 && turnOf(result) === 1) this.results.set(result.index, result);
  }

  /** Stops handing out problems; those already running finish (their answers are kept). */
  stop(): void {
    if (this.current?.state !== 'running' || !this.runController) return;
    this.runController.abort();
    this.current = this.current.with({ state: 'stopping' });
  }

  /** Estimated cost so far of the shown run, when its prices are known. */
  get cost(): number | undefined {
    return costOf(this.counters, this.counters.prices);
  }

  /** The problems the results view lists: the run's, or the current selection before any run. */
  get listedProblems(): Problem[] {
    return this.current ? this.current.problems : this.dataset.selection;
  }

  problemByIndex(index: number): Problem | undefined {
    return this.listedProblems.find((p) => p.index === index) ?? this.dataset.current.problems[index];
  }}
