/**
 * Worker pools, one per language, shared by the browser (Web Workers) and Node (worker_threads).
 * A worker loads its runtime once and runs programs one at a time. At the time limit the host
 * kills the worker and starts a replacement at once, so the next program finds a warm one. A
 * runaway (a program that runs on towards its limit) does not hold up the rest of its language:
 * with programs waiting, a worker whose program has run for SPARE_AFTER_MS and a quarter of its
 * limit gets a spare beside it (as many as `spares` allows). A caller that says how many runs
 * are coming (Executor.expect) gets a second worker only when that work earns back its start.
 */
import { InfrastructureError, type Executor, type LanguageId, type RunRequest, type RunResult } from '../../src/contracts';
import { capOutput, OUTPUT_LIMIT } from './output';
import type { RuntimeSettings } from '../loader';
import type { HostMessage, WorkerMessage } from './protocol';

export interface WorkerHandle {
  post(message: HostMessage): void;
  onMessage(handler: (message: WorkerMessage) => void): void;
  /** The worker died on its own (crash, out of memory, fatal runtime error). */
  onExit(handler: (reason: string) => void): void;
  terminate(): void;
}

export interface PoolOptions {
  /** Starts a worker for `language` (not yet initialised). */
  spawn: (language: LanguageId) => WorkerHandle;
  languages: readonly LanguageId[];
  /** Workers per language (at most): one figure for all, or per language (./pool-size.ts). */
  size: number | ((language: LanguageId) => number);
  settings?: RuntimeSettings;
  onStatus?: (language: LanguageId, message: string) => void;
  /** Extra time before the host kills a worker; runtimes that stop themselves use the limit. */
  graceMs?: number;
  /** Spare workers a language may add above `size` (default MAX_SPARES); the hosts keep them within memory. */
  spares?: (language: LanguageId) => number;
}

/**
 * A program that has run this long, and a quarter of its time limit, is probably a runaway (the
 * benchmarks' programs run in well under a second; a C++ compile takes a few): the others should
 * not wait for it.
 */
export const SPARE_AFTER_MS = 3000;
/** Spare workers per language at most, above the pool's size (each costs a worker's memory). */
export const MAX_SPARES = 2;
/**
 * Runtimes whose start costs seconds of CPU and ~600 MB (clang, webR) get no spare: on 2 cores a
 * spare's start slows the programs still running enough to push correct ones past their limit
 * (the C++ cross-check went from 20/20 to 14/20 agreeing with g++, all TIME_LIMIT_EXCEEDED).
 */
const HEAVY_START: ReadonlySet<LanguageId> = new Set<LanguageId>(['cpp', 'r']);
/**
 * Runtimes that compile a program before running it. As in the official sandbox (SPEC §4), the
 * compile step and the run step each get the whole time limit: the worker says when the compile
 * ended (`compiled`, once per run) and the host's timer starts again. No other runtime may say it.
 */
const COMPILE_STEP: ReadonlySet<LanguageId> = new Set<LanguageId>(['cpp']);

interface Job {
  request: RunRequest;
  /** When the host got the request: the wait for a worker (and its runtime download) counts from here. */
  received: number;
  resolve: (result: RunResult) => void;
  reject: (error: Error) => void;
  /** Workers that gave this run back before its program began (`retired`). */
  retired: number;
}

interface Slot {
  worker: WorkerHandle;
  ready: boolean;
  job: Job | null;
  /** Id of the run in progress: a result for any other id is ignored. */
  runId: number;
  timer: ReturnType<typeof setTimeout> | null;
  started: number;
  /** The run in progress is past its compile step (always, for a runtime without one). */
  compiled: boolean;
  /** How long the job in progress waited for this worker. */
  queuedMs: number;
  /** When the worker was started (its start, to `ready`, is what another worker would cost). */
  spawned: number;
}

class LanguagePool {
  private slots: Slot[] = [];
  private waiting: Job[] = [];
  private nextId = 1;
  private loadError: string | null = null;
  /** Workers in a row that died before they were ready: past MAX_LOAD_DEATHS, the runtime is given up. */
  private loadDeaths = 0;
  description = '';
  private readonly size: number;
  private readonly spares: number;
  private spareTimer: ReturnType<typeof setTimeout> | null = null;
  /** Runs the caller said are still to come (Executor.expect); null: it never said. */
  private expected: number | null = null;
  /** The last worker's start, spawn to ready; the runs finished and their time in all. */
  private startMs = 0;
  /** The last worker's start and its steps (loader.ts StepDone), as its ready line shows them. */
  lastLoad: WorkerLoad | null = null;
  private finished = 0;
  private finishedMs = 0;

  constructor(
    private readonly language: LanguageId,
    private readonly options: PoolOptions,
  ) {
    this.size = typeof options.size === 'function' ? options.size(language) : options.size;
    this.spares = HEAVY_START.has(language) ? 0 : Math.max(0, Math.min(MAX_SPARES, options.spares?.(language) ?? MAX_SPARES));
  }

  run(request: RunRequest): Promise<RunResult> {
    if (this.loadError) return Promise.reject(new InfrastructureError(this.loadError));
    if (this.expected !== null) this.expected = Math.max(0, this.expected - 1);
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject, received: performance.now(), retired: 0 });
      this.pump();
    });
  }

  /** About `runs` more runs are coming (Executor.expect): see workersWanted. */
  expect(runs: number): void {
    this.expected = Math.max(0, Math.floor(runs));
  }

  /** Starts the first worker now, before any program (nothing happens if one exists or the runtime failed). */
  warm(): void {
    if (!this.loadError && this.slots.length === 0) this.startSlot();
  }

  private pump(): void {
    while (this.waiting.length) {
      const idle = this.slots.find((s) => s.ready && !s.job);
      if (!idle) break;
      this.dispatch(idle, this.waiting.shift()!);
    }
    // One worker loads at a time: on two cores, two Pyodides loading side by side would each take
    // twice as long, and the first result would come later. The next one starts when this is ready.
    const starting = this.slots.filter((s) => !s.ready).length;
    if (starting === 0 && this.waiting.length > 0 && this.slots.length < this.workersWanted() + this.sparesWanted()) this.startSlot();
    if (!this.waiting.length) this.retireSpares();
  }

  /**
   * Workers to run for the work known, spares aside: `size`, unless the caller said how many runs
   * are coming and too few are left for one more worker to earn back its start. A new worker
   * costs its start (the last one's, measured; clang in a new Node process is seconds of CPU taken
   * from cores the running workers need) and helps only with what is left once it is ready. So
   * one more starts only while the work left per worker, at the measured mean run, is over twice
   * that start; until a start and a run are measured, the pool keeps the workers it has. (The demo
   * set under the CLI, 54 in-page problems: 64–69 s before this rule, 42 s with it; architecture.md.)
   */
  private workersWanted(): number {
    const have = this.slots.length;
    if (this.expected === null || have >= this.size) return this.size;
    if (have === 0) return 1;
    if (this.finished === 0) return have;
    const leftMs = (this.waiting.length + this.expected) * (this.finishedMs / this.finished);
    return leftMs / have > 2 * this.startMs ? have + 1 : have;
  }

  /**
   * Spares the pool may run now: one per worker that has been on its program past the runaway mark
   * (at most `spares`). While programs wait behind busy workers, checks again when the next one
   * would pass that mark.
   */
  private sparesWanted(): number {
    const now = performance.now();
    const mark = (s: Slot) => s.started + Math.max(SPARE_AFTER_MS, s.job!.request.timeoutMs / 4);
    const busy = this.slots.filter((s) => s.job);
    const stuck = busy.filter((s) => now >= mark(s)).length;
    if (this.spareTimer) clearTimeout(this.spareTimer);
    this.spareTimer = null;
    const fresh = busy.filter((s) => now < mark(s));
    if (this.waiting.length && fresh.length && stuck < this.spares) {
      const next = Math.min(...fresh.map((s) => mark(s) - now));
      this.spareTimer = setTimeout(() => { this.spareTimer = null; this.pump(); }, Math.max(10, next));
    }
    return Math.min(this.spares, stuck);
  }

  /** Nothing waits: idle workers above the pool's size go (their memory is wanted elsewhere). */
  private retireSpares(): void {
    for (const slot of this.slots.filter((s) => s.ready && !s.job)) {
      if (this.slots.length <= this.size) break;
      this.remove(slot);
    }
  }

  private startSlot(): void {
    const worker = this.options.spawn(this.language);
    const slot: Slot = { worker, ready: false, job: null, runId: 0, timer: null, started: 0, compiled: false, queuedMs: 0, spawned: performance.now() };
    this.slots.push(slot);
    worker.onMessage((m) => this.onMessage(slot, m));
    worker.onExit((reason) => this.onExit(slot, reason));
    worker.post({ type: 'init', language: this.language, settings: this.options.settings ?? {} });
  }

  /**
   * Messages are checked against the slot's state: a worker speaks only when spoken to (one
   * status line, `ready` or `failed` once while loading, then one result per run, with its id).
   * Anything else means the worker is no longer ours to trust, and it is replaced.
   */
  private onMessage(slot: Slot, message: WorkerMessage): void {
    if (!this.slots.includes(slot) || typeof message !== 'object' || message === null) return;
    switch (message.type) {
      case 'status':
        this.options.onStatus?.(this.language, String(message.message).slice(0, 300));
        break;
      case 'ready':
        if (slot.ready) return this.onExit(slot, 'unexpected message from the worker');
        slot.ready = true;
        this.startMs = performance.now() - slot.spawned;
        this.loadDeaths = 0;
        this.description = String(message.description).slice(0, 200);
        this.lastLoad = { ms: this.startMs, steps: loadSteps(message.steps, this.startMs) };
        this.options.onStatus?.(this.language, `${this.description} ready, ${describeLoad(this.lastLoad)}`);
        this.pump();
        break;
      case 'shared':
        // The runtime frame keeps these for its next worker; a worker started by the page itself
        // (`npm run dev`) has no frame, and its next worker compiles its own.
        if (slot.ready) return this.onExit(slot, 'unexpected message from the worker');
        break;
      case 'failed':
        if (slot.ready) return this.onExit(slot, 'unexpected message from the worker');
        this.loadError = String(message.error);
        this.options.onStatus?.(this.language, this.loadError);
        this.remove(slot);
        for (const job of this.waiting.splice(0)) job.reject(new InfrastructureError(this.loadError));
        break;
      case 'compiled':
        if (!COMPILE_STEP.has(this.language) || !slot.job || message.id !== slot.runId || slot.compiled) {
          return this.onExit(slot, 'unexpected message from the worker');
        }
        slot.compiled = true;
        this.arm(slot);
        break;
      case 'result': {
        if (!slot.job || message.id !== slot.runId) return this.onExit(slot, 'unexpected message from the worker');
        this.finish(slot, { ...sanitize(message.result), runtime: this.description, queuedMs: slot.queuedMs });
        if (message.fatal) this.replace(slot);
        else this.pump();
        break;
      }
      case 'retired': {
        // The worker could not make the program's clean slate (RunNotStarted) and is ending: the
        // program never began, so it gets no verdict here; it goes first in line for a new worker.
        // Only for the run in progress, and never once a compiled program has started.
        if (!slot.job || message.id !== slot.runId || (COMPILE_STEP.has(this.language) && slot.compiled)) {
          return this.onExit(slot, 'unexpected message from the worker');
        }
        const job = slot.job;
        if (slot.timer) clearTimeout(slot.timer);
        slot.job = null;
        slot.timer = null;
        const reason = String(message.reason).slice(0, 300);
        if (++job.retired > MAX_RETIRED) {
          job.reject(new InfrastructureError(`${job.retired} ${this.language} workers in a row could not start this program (${reason})`));
        } else {
          this.waiting.unshift(job);
        }
        this.replace(slot);
        break;
      }
      default:
        this.onExit(slot, 'unexpected message from the worker');
    }
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.job = job;
    slot.started = performance.now();
    slot.queuedMs = slot.started - job.received;
    slot.compiled = !COMPILE_STEP.has(this.language);
    this.arm(slot);
    slot.runId = this.nextId++;
    slot.worker.post({ type: 'run', id: slot.runId, program: job.request.program, timeoutMs: job.request.timeoutMs });
  }

  /** Starts the time limit of the step now beginning (the compile step, or the run). */
  private arm(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = setTimeout(() => this.timeOut(slot), slot.job!.request.timeoutMs + (this.options.graceMs ?? 250));
  }

  private finish(slot: Slot, result: RunResult): void {
    if (slot.timer) clearTimeout(slot.timer);
    const job = slot.job!;
    this.finished++;
    this.finishedMs += performance.now() - slot.started;
    slot.job = null;
    slot.timer = null;
    job.resolve(result);
  }

  private timeOut(slot: Slot): void {
    if (!slot.job) return;
    const durationMs = performance.now() - slot.started;
    // As the native and runner paths report it: a compile step that timed out is not a run that did.
    const step = slot.compiled ? { timedOut: true } : { timedOut: false, compileTimedOut: true };
    this.finish(slot, { exitCode: null, stdout: '', stderr: '', ...step, durationMs, runtime: this.description, queuedMs: slot.queuedMs });
    this.replace(slot);
  }

  private onExit(slot: Slot, reason: string): void {
    if (!this.slots.includes(slot)) return;
    // A runtime whose workers keep dying while they load would be restarted forever, and the
    // programs waiting for it would never finish: they end as infrastructure errors instead.
    if (!slot.ready && ++this.loadDeaths >= MAX_LOAD_DEATHS) {
      this.loadError = `the ${this.language} runtime stopped ${this.loadDeaths} times while loading (${reason})`;
      this.options.onStatus?.(this.language, this.loadError);
      for (const job of this.waiting.splice(0)) job.reject(new InfrastructureError(this.loadError));
    }
    if (slot.job) {
      const durationMs = performance.now() - slot.started;
      const stderr = `benchtop: the ${this.language} worker died while running this program (${reason})\n`;
      this.finish(slot, { exitCode: 1, stdout: '', stderr, timedOut: false, durationMs, runtime: this.description, queuedMs: slot.queuedMs });
    }
    this.replace(slot);
  }

  /** Kills a worker and starts its replacement right away (a warm one for the next program), unless it was a spare. */
  private replace(slot: Slot): void {
    this.remove(slot);
    if (!this.loadError && this.slots.length < this.size) this.startSlot();
    this.pump();
  }

  private remove(slot: Slot): void {
    this.slots = this.slots.filter((s) => s !== slot);
    if (slot.timer) clearTimeout(slot.timer);
    slot.worker.terminate();
  }

  dispose(): void {
    if (this.spareTimer) clearTimeout(this.spareTimer);
    this.spareTimer = null;
    for (const slot of [...this.slots]) this.remove(slot);
    for (const job of this.waiting.splice(0)) job.reject(new InfrastructureError('executor closed'));
  }
}

const MAX_LOAD_DEATHS = 3;
/** How many times a run given back (`retired`) goes to a new worker; one more give-back ends it as an infrastructure error. */
const MAX_RETIRED = 2;

/** Room past the limit for the worker's own "[… truncated: N more …]" mark. */
const HOST_LIMIT = OUTPUT_LIMIT + 256;

/** A worker's result as plain, bounded data (workers cap their output; this is the host's own cap). */
function sanitize(result: Omit<RunResult, 'runtime'>): Omit<RunResult, 'runtime'> {
  const stdout = capOutput(String(result.stdout ?? ''), HOST_LIMIT);
  const stderr = capOutput(String(result.stderr ?? ''), HOST_LIMIT);
  const exitCode = typeof result.exitCode === 'number' ? result.exitCode : null;
  const clean: Omit<RunResult, 'runtime'> = {
    exitCode,
    stdout: stdout.text,
    stderr: stderr.text,
    timedOut: result.timedOut === true,
    durationMs: Number(result.durationMs) || 0,
  };
  if (result.compileFailed) clean.compileFailed = true;
  if (typeof result.declined === 'string') clean.declined = result.declined.slice(0, 500);
  if (result.truncated || stdout.truncated || stderr.truncated) clean.truncated = true;
  return clean;
}

/** A worker's start, from spawning it to its `ready`: the steps its loader named, then 'worker' for the rest (starting the worker, messages). */
export interface WorkerLoad {
  ms: number;
  steps: Array<[string, number]>;
}

/** A worker's own step timings, checked (a worker is not trusted), with the rest of `totalMs` as 'worker'. */
function loadSteps(raw: unknown, totalMs: number): Array<[string, number]> {
  const steps: Array<[string, number]> = [];
  if (Array.isArray(raw)) {
    for (const entry of raw.slice(0, 12)) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'number' || !Number.isFinite(entry[1]) || entry[1] < 0) return [['worker', totalMs]];
      steps.push([entry[0].slice(0, 40), Math.min(entry[1], totalMs)]);
    }
  }
  const own = steps.reduce((sum, [, ms]) => sum + ms, 0);
  return [['worker', Math.max(0, totalMs - own)], ...steps];
}

/** "loaded in 3.4 s (worker 0.2 s, files 0.1 s, compile 0.4 s, …)" (steps under 50 ms left out). */
export function describeLoad(load: WorkerLoad): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const steps = load.steps.filter(([, ms]) => ms >= 50).map(([name, ms]) => `${name} ${s(ms)}`);
  return `loaded in ${s(load.ms)}${steps.length ? ` (${steps.join(', ')})` : ''}`;
}

/** What the pools add to an Executor: a language's runtime description, and a way to start one early. */
export interface PoolExecutor extends Executor {
  describe(language: LanguageId): string;
  /** The last worker of `language` to become ready: how long its start took, step by step. */
  lastLoad(language: LanguageId): WorkerLoad | null;
  /** Starts `language`'s first worker before its first program (the page: files already cached, docs/architecture.md). */
  warm(language: LanguageId): void;
  expect(language: LanguageId, runs: number): void;
}

/** An Executor that runs each language in its own pool of workers. */
export function createPoolExecutor(options: PoolOptions): PoolExecutor {
  const pools = new Map<LanguageId, LanguagePool>();
  const pool = (language: LanguageId) => {
    let p = pools.get(language);
    if (!p) pools.set(language, (p = new LanguagePool(language, options)));
    return p;
  };
  return {
    languages: () => options.languages,
    run(request) {
      if (!options.languages.includes(request.language)) {
        return Promise.reject(new InfrastructureError(`no runtime for ${request.language}`));
      }
      return pool(request.language).run(request);
    },
    describe: (language) => pools.get(language)?.description ?? '',
    lastLoad: (language) => pools.get(language)?.lastLoad ?? null,
    warm(language) {
      if (options.languages.includes(language)) pool(language).warm();
    },
    expect(language, runs) {
      if (options.languages.includes(language)) pool(language).expect(runs);
    },
    async dispose() {
      for (const p of pools.values()) p.dispose();
      pools.clear();
    },
  };
}
