/**
 * The Generate tab: seeds, the stage settings, and a job that runs them through the generator's
 * funnel (src/gen) with the Model panel's provider and the page's sandboxed runtimes (the routing
 * the Evaluate tab uses). Every model response and execution goes to IndexedDB first
 * (src/gen/journal-idb.ts); a reloaded page shows the job and continues it from there.
 */
import { AuthenticationError, type AnswerSource, type LanguageId } from '../../contracts';
import { SYSTEM_PROMPT } from '../../core/prompt';
import type { SeedResult } from '../../gen/funnel';
import type { GenStore, StoredEntry, StoredJob } from '../../gen/journal-idb';
import type { SeedOutcome } from '../../gen/journal';
import type { GenContext } from '../../gen/stages';
import type { TranslationOutcome } from '../../gen/translate';
import { meteredModel, type Meter } from '../../models/meter';
import { createProviderModel, type ProviderSettings } from '../../models/providers';
import { costOf, emptyTotals, type UsageTotals } from '../../models/usage';
import { download } from '../lib/download';
import { readFile } from '../lib/load';
import { seedsFor, seedsFromFile, type SeedInput } from '../lib/seeds';
import { roleSource, SAME_PROVIDER, type ProviderSource, type RoleProvider } from './generate-models';
import type { DatasetStore } from './dataset.svelte';
import type { Runtimes } from './runtimes.svelte';
import type { AnswerSources } from './sources.svelte';
import type { ViewState } from './view.svelte';

export interface GenSettings {
  language: LanguageId;
  concurrency: number;
  /** Model names; empty: the critic is the generator, no difficulty model. */
  criticModel: string;
  difficultyModel: string;
  /** Their providers: the generator's (the Model panel's) unless another preset is picked. */
  criticProvider: RoleProvider;
  difficultyProvider: RoleProvider;
  samples: number;
  criticThreshold: number;
  dropAlwaysSolved: boolean;
  /** Stage 6: languages each kept problem is translated into (and verified in). */
  translateTo: LanguageId[];
}

/** `roles`: the critic's and difficulty model's sources when on another provider than the generator. */
export type JobSettings = GenSettings & { provider: ProviderSource; generatorId: string; roles?: { critic?: ProviderSource; difficulty?: ProviderSource } };

export interface GenItem {
  index: number;
  name: string;
  seed: string;
  code: string;
  state: 'waiting' | 'running' | 'kept' | 'dropped';
  stage?: string;
  reason?: string;
  /** Stage 6 outcomes of a kept problem, in the order they finished. */
  translations?: TranslationOutcome[];
  entries: StoredEntry[];
}

export interface GenCounters extends UsageTotals {
  inFlight: number;
  received: number;
  failed: number;
}

const emptyCounters = (): GenCounters => ({ ...emptyTotals(), inFlight: 0, received: 0, failed: 0 });

/**
 * The generator's engine, loaded when a job runs or a stored job is shown, not with the page
 * (an evaluating user never opens the Generate tab): the funnel, its stages and prompts, the outputs.
 */
async function loadEngine() {
  const [funnel, prompts, stages, output] = await Promise.all([import('../../gen/funnel'), import('../../gen/prompts'), import('../../gen/stages'), import('../lib/gen-output')]);
  return { ...funnel, GEN_SYSTEM: prompts.GEN_SYSTEM, Stopped: stages.Stopped, generatedManifest: output.generatedManifest };
}

export interface GenerateDeps {
  sources: AnswerSources;
  runtimes: Runtimes;
  dataset: DatasetStore;
  view: ViewState;
}

export class GenerateStore {
  seeds = $state<SeedInput[]>([]);
  seedErrors = $state<string[]>([]);
  settings = $state<GenSettings>({ language: 'python', concurrency: 2, criticModel: '', difficultyModel: '', criticProvider: SAME_PROVIDER, difficultyProvider: SAME_PROVIDER, samples: 10, criticThreshold: 6, dropAlwaysSolved: false, translateTo: [] });
  /** The job shown: running here, done, or interrupted (stored as running, no tab runs it). */
  job = $state.raw<StoredJob<JobSettings> | null>(null);
  running = $state(false);
  items = $state<GenItem[]>([]);
  counters = $state<GenCounters>(emptyCounters());
  error = $state<string | null>(null);
  private readonly store: Promise<GenStore>;
  /** Aborts the running job's model requests and abandons its runs (Stop). */
  private controller: AbortController | null = null;

  constructor(private readonly deps: GenerateDeps) {
    // The job store at start-up (the newest job, shown as it was left); the engine when needed.
    this.store = import('../../gen/journal-idb').then((m) => m.GenStore.open());
    void this.restore();
  }

  /** A job to Continue: stopped, or interrupted (stored as running, no tab runs it). */
  get interrupted(): boolean {
    return !this.running && (this.job?.state === 'running' || this.job?.state === 'stopped');
  }

  get stopped(): boolean {
    return !this.running && this.job?.state === 'stopped';
  }

  /**
   * Ends the running job: the model requests in flight are aborted, the runs left to the pool and
   * anything answered after this moment are not journalled; the job is stored as stopped once the
   * funnel has wound down (execute), everything journalled before kept for Continue.
   */
  stop(): void {
    this.controller?.abort();
  }

  /** Seeds the next job would use. */
  get usable(): SeedInput[] {
    return seedsFor(this.seeds, this.settings.language);
  }

  /** Outcomes of the seeds decided so far (`funnelCounts` makes the funnel of them). */
  get outcomes(): SeedOutcome[] {
    return this.items.filter((i) => i.state === 'kept' || i.state === 'dropped').map((i) => ({ seed: i.seed, kept: i.state === 'kept', stage: i.stage, reason: i.reason, ...(this.job && this.translateTargets(this.job.settings).length ? { translations: i.translations ?? [] } : {}) }));
  }

  /** Each model's tokens at its own provider's prices (null: nothing metered in this tab yet). */
  private spent = $state<number | undefined | null>(null);

  get cost(): number | undefined {
    return this.spent !== null ? this.spent : costOf(this.counters, this.job?.settings.provider.prices);
  }

  /** Why a job cannot start now (empty when it can). */
  get problems(): string[] {
    const out = [...this.deps.sources.provider.problems];
    if (!this.usable.length) out.unshift(`Add seed code (${this.settings.language}).`);
    out.push(...this.runnerNeeded());
    return out;
  }

  /** Target languages only a runner runs, when none is configured: said before the job starts. */
  private runnerNeeded(): string[] {
    const runtimes = this.deps.runtimes;
    if (runtimes.runner.configured || !runtimes.local.length) return [];
    const missing = this.translateTargets(this.settings).filter((l) => !runtimes.local.includes(l));
    return missing.length ? [`Translating to ${missing.join(', ')} needs a runner: set one in the Evaluate tab's runner settings, or untick it.`] : [];
  }

  /** The stage 6 languages of `s`, without the source language. */
  translateTargets(s: GenSettings): LanguageId[] {
    return (s.translateTo ?? []).filter((l) => l !== s.language);
  }

  addSnippet(code: string): void {
    if (code.trim()) this.seeds = [...this.seeds, { name: `pasted ${this.seeds.length + 1}`, code, language: null }];
  }

  async addFiles(files: Iterable<File>): Promise<void> {
    const errors: string[] = [];
    for (const file of files) {
      try {
        const found = seedsFromFile(file.name, await readFile(file, () => {}));
        this.seeds = [...this.seeds, ...found.seeds];
        errors.push(...found.errors);
      } catch (e) {
        errors.push(`${file.name}: ${(e as Error).message}`);
      }
    }
    this.seedErrors = errors;
  }

  removeSeed(index: number): void {
    this.seeds = this.seeds.filter((_, i) => i !== index);
  }

  /** Stores a new job (before any question), then runs it. */
  async start(): Promise<void> {
    if (this.running || this.problems.length) return;
    const provider = this.deps.sources.provider;
    const chosen = $state.snapshot(this.settings);
    const critic = roleSource(provider, chosen.criticProvider, chosen.criticModel);
    const difficulty = roleSource(provider, chosen.difficultyProvider, chosen.difficultyModel);
    const roles = { ...(critic ? { critic } : {}), ...(difficulty ? { difficulty } : {}) };
    const settings: JobSettings = { ...chosen, provider: provider.runSource(), generatorId: provider.settings().id!, roles };
    const seeds = this.usable.map((s) => ({ name: s.name, code: s.code }));
    const job: StoredJob<JobSettings> = { id: `gen-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, createdAt: Date.now(), settings, seeds, state: 'running' };
    await (await this.store).putJob(job);
    await this.execute(job, []);
  }

  /** Runs the interrupted job again: what was answered or run comes from IndexedDB. */
  async continueJob(): Promise<void> {
    const job = this.job;
    if (!job || this.running) return;
    await this.execute(job, await (await this.store).entries(job.id));
  }

  private itemsOf(job: StoredJob<JobSettings>, entries: readonly StoredEntry[], seedHash: (language: LanguageId, code: string) => string): GenItem[] {
    return job.seeds.map((s, index) => {
      const seed = seedHash(job.settings.language, s.code);
      return { index, name: s.name, seed, code: s.code, state: 'waiting', entries: entries.filter((e) => e.seed === seed) };
    });
  }

  /** `role`: the source of a model on another provider (else the generator's provider). */
  private providerModel(job: StoredJob<JobSettings>, model: string, systemPrompt: string, onChange: () => void, role?: ProviderSource): { model: AnswerSource; meter: Readonly<Meter> } {
    const source = role ?? job.settings.provider;
    const prefix = role ? role.presetId : job.settings.generatorId.slice(0, job.settings.generatorId.indexOf(':'));
    const id = !role && model === source.settings.model ? job.settings.generatorId : `${prefix}:${model}`;
    // The generator's prompts are chat turns: completion mode is for evaluating base models only.
    const settings: ProviderSettings = { ...this.deps.sources.provider.settingsFor(source, id), model, systemPrompt, completion: undefined };
    return meteredModel(createProviderModel(settings), onChange);
  }

  private async execute(job: StoredJob<JobSettings>, earlier: StoredEntry[]): Promise<void> {
    this.running = true;
    this.error = null;
    const controller = (this.controller = new AbortController());
    // A missing key is said at once, before the engine's code is fetched.
    const keyless = [job.settings.provider, job.settings.roles?.critic, job.settings.roles?.difficulty].find((source) => source && !this.deps.sources.provider.hasKeyFor(source));
    let engine: Awaited<ReturnType<typeof loadEngine>>;
    try {
      if (keyless) throw new Error(`Enter your API key for ${keyless.presetName} (kept in memory only), then Continue.`);
      engine = await loadEngine();
    } catch (e) {
      this.error = (e as Error).message;
      this.controller = null;
      this.running = false;
      return;
    }
    const { runFunnel, outputRecords, funnelCounts, generatedManifest, GEN_SYSTEM, Stopped } = engine;
    // Running again: a reload from here on shows it interrupted, not stopped.
    if (job.state !== 'running') await (await this.store).putJob((job = { ...job, state: 'running' }));
    this.job = job;
    this.counters = emptyCounters();
    this.spent = null;
    this.items = this.itemsOf(job, earlier, engine.seedHash);
    try {
      const s = job.settings;
      this.deps.runtimes.ensureStarted();
      const executor = await this.deps.runtimes.forRun();
      const meters: Array<{ meter: Readonly<Meter>; prices: ProviderSource['prices'] }> = [];
      const update = () => {
        const sum = emptyCounters();
        for (const { meter } of meters) for (const k of Object.keys(sum) as Array<keyof GenCounters>) sum[k] += meter[k];
        this.counters = sum;
        // Unknown as soon as a model that used tokens has no prices.
        const costs = meters.filter((m) => m.meter.inputTokens || m.meter.outputTokens).map((m) => costOf(m.meter, m.prices));
        this.spent = costs.some((c) => c === undefined) ? undefined : costs.reduce<number>((a, c) => a + c!, 0);
      };
      const metered = (model: string, system: string, role?: ProviderSource) => {
        const m = this.providerModel(job, model, system, update, role);
        meters.push({ meter: m.meter, prices: (role ?? s.provider).prices });
        return m.model;
      };
      const generator = metered(s.provider.settings.model, GEN_SYSTEM);
      const critic = s.criticModel.trim() ? metered(s.criticModel.trim(), GEN_SYSTEM, s.roles?.critic) : generator;
      // The difficulty model is asked as an evaluation asks: the evaluation system prompt.
      const difficulty = s.difficultyModel.trim() ? metered(s.difficultyModel.trim(), SYSTEM_PROMPT, s.roles?.difficulty) : undefined;
      const store = await this.store;
      const base: Omit<GenContext, 'journal'> = { language: s.language, generator, critic, difficulty, executor, samples: s.samples, criticThreshold: s.criticThreshold, dropAlwaysSolved: s.dropAlwaysSolved, translateTo: this.translateTargets(s), signal: controller.signal };
      const item = (seed: string) => this.items.filter((i) => i.seed === seed);
      // One journal per seed, shared by its stages 1–5 and its translations (stage 6).
      const journals = new Map<string, ReturnType<typeof store.journal>>();
      const contextOf = (seed: string, index: number): GenContext => {
        if (this.items[index]!.state === 'waiting') this.items[index]!.state = 'running';
        let journal = journals.get(seed);
        if (!journal) {
          journal = store.journal(job.id, seed, earlier.filter((e) => e.seed === seed), (entry) => {
            for (const i of item(seed)) i.entries.push(entry);
          });
          journals.set(seed, journal);
        }
        return { ...base, journal };
      };
      const onSeed = (r: SeedResult, index: number) => this.decide(index, r.outcome);
      const onTranslation = (t: TranslationOutcome, index: number) => {
        const i = this.items[index];
        if (i) i.translations = [...(i.translations ?? []), t];
      };
      // Every seed gets its own journal from contextOf; the funnel's base context never asks.
      const results = await runFunnel({ ...base, journal: store.journal(job.id, '', [], () => {}) }, job.seeds, s.concurrency, onSeed, onTranslation, contextOf);
      // The near-duplicate filter runs after every seed: its drops show now.
      results.forEach((r, i) => this.decide(i, r.outcome));
      const jsonl = outputRecords(results).map((r) => JSON.stringify(r) + '\n').join('');
      const outcomes = results.map((r) => r.outcome);
      const manifest = generatedManifest(job, funnelCounts(outcomes), outcomes, {
        entries: this.items.reduce((n, i) => n + i.entries.length, 0),
        reused: [...journals.values()].reduce((n, j) => n + j.reused, 0),
      });
      const done: StoredJob<JobSettings> = { ...job, state: 'done', output: { jsonl, manifest, outcomes } };
      await store.putJob(done);
      this.job = done;
    } catch (e) {
      if (e instanceof Stopped || controller.signal.aborted) await this.markStopped(job);
      else this.error = e instanceof AuthenticationError ? `The provider refused the key: ${e.message}` : (e as Error).message;
    } finally {
      this.controller = null;
      this.running = false;
    }
  }

  /** The stopped job, stored so; its undecided seeds wait for Continue. */
  private async markStopped(job: StoredJob<JobSettings>): Promise<void> {
    const stopped: StoredJob<JobSettings> = { ...job, state: 'stopped' };
    await (await this.store).putJob(stopped);
    this.job = stopped;
    for (const i of this.items) if (i.state === 'running') i.state = 'waiting';
  }

  private decide(index: number, outcome: SeedOutcome): void {
    const i = this.items[index];
    if (!i) return;
    i.state = outcome.kept ? 'kept' : 'dropped';
    i.stage = outcome.stage;
    i.reason = outcome.reason;
    // The funnel's final outcome lists stage 6 in seed and target order.
    if (outcome.translations) i.translations = outcome.translations as TranslationOutcome[];
  }

  /** The newest job, as it was left: done (its output), or interrupted (Continue). */
  private async restore(): Promise<void> {
    try {
      const store = await this.store;
      const job = await store.latestJob<JobSettings>();
      if (!job) return;
      this.settings = { ...this.settings, ...pickSettings(job.settings) };
      const { seedHash } = await loadEngine();
      this.job = job;
      this.items = this.itemsOf(job, await store.entries(job.id), seedHash);
      job.output?.outcomes.forEach((o, i) => this.decide(i, o as SeedOutcome));
    } catch (e) {
      this.error = `Could not read the stored generation: ${(e as Error).message}`;
    }
  }

  get output(): { jsonl: string; manifest: string } | null {
    return this.job?.output ?? null;
  }

  downloadOutput(which: 'jsonl' | 'manifest'): void {
    const out = this.output;
    if (!out || !this.job) return;
    if (which === 'jsonl') download(`${this.job.id}.jsonl`, new Blob([out.jsonl], { type: 'application/jsonl' }));
    else download(`${this.job.id}.manifest.json`, new Blob([out.manifest], { type: 'application/json' }));
  }

  /** Loads the generated JSONL as the Evaluate tab's dataset and shows that tab. */
  async evaluateSet(): Promise<void> {
    const out = this.output;
    if (!out || !this.job) return;
    this.deps.view.page = 'evaluate';
    await this.deps.dataset.loadFile(new File([out.jsonl], `${this.job.id}.jsonl`, { type: 'application/jsonl' }));
  }

  /** Forgets the shown job and its journal. */
  async discard(): Promise<void> {
    if (this.running || !this.job) return;
    await (await this.store).deleteJob(this.job.id);
    this.job = null;
    this.items = [];
    this.counters = emptyCounters();
    this.spent = null;
  }
}

function pickSettings(s: JobSettings): GenSettings {
  return {
    language: s.language, concurrency: s.concurrency, criticModel: s.criticModel, difficultyModel: s.difficultyModel,
    // Jobs stored before the providers could differ: the generator's.
    criticProvider: s.criticProvider ?? SAME_PROVIDER, difficultyProvider: s.difficultyProvider ?? SAME_PROVIDER,
    samples: s.samples, criticThreshold: s.criticThreshold, dropAlwaysSolved: s.dropAlwaysSolved, translateTo: s.translateTo ?? [],
  };
}
