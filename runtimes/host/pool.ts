/**
 * Worker pools, one per language, shared by the browser (Web Workers) and Node (worker_threads).
 * A worker loads its runtime once and runs programs one at a time. At the time limit the host
 * kills the worker and starts a replacement at once, so the next program finds a warm one.
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
}

interface Job {
  request: RunRequest;
  resolve: (result: RunResult) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: WorkerHandle;
  ready: boolean;
  job: Job | null;
  /** Id of the run in progress: a result for any other id is ignored. */
  runId: number;
  timer: ReturnType<typeof setTimeout> | null;
  started: number;
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

  constructor(
    private readonly language: LanguageId,
    private readonly options: PoolOptions,
  ) {
    this.size = typeof options.size === 'function' ? options.size(language) : options.size;
  }

  run(request: RunRequest): Promise<RunResult> {
    if (this.loadError) return Promise.reject(new InfrastructureError(this.loadError));
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      this.pump();
    });
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
    if (starting === 0 && this.waiting.length > 0 && this.slots.length < this.size) this.startSlot();
  }

  private startSlot(): void {
    const worker = this.options.spawn(this.language);
    const slot: Slot = { worker, ready: false, job: null, runId: 0, timer: null, started: 0 };
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
        this.loadDeaths = 0;
        this.description = String(message.description).slice(0, 200);
        this.options.onStatus?.(this.language, `${this.description} ready`);
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
      case 'result': {
        if (!slot.job || message.id !== slot.runId) return this.onExit(slot, 'unexpected message from the worker');
        this.finish(slot, { ...sanitize(message.result), runtime: this.description });
        if (message.fatal) this.replace(slot);
        else this.pump();
        break;
      }
      default:
        this.onExit(slot, 'unexpected message from the worker');
    }
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.job = job;
    slot.started = performance.now();
    const limit = job.request.timeoutMs + (this.options.graceMs ?? 250);
    slot.timer = setTimeout(() => this.timeOut(slot), limit);
    slot.runId = this.nextId++;
    slot.worker.post({ type: 'run', id: slot.runId, program: job.request.program, timeoutMs: job.request.timeoutMs });
  }

  private finish(slot: Slot, result: RunResult): void {
    if (slot.timer) clearTimeout(slot.timer);
    const job = slot.job!;
    slot.job = null;
    slot.timer = null;
    job.resolve(result);
  }

  private timeOut(slot: Slot): void {
    if (!slot.job) return;
    const durationMs = performance.now() - slot.started;
    this.finish(slot, { exitCode: null, stdout: '', stderr: '', timedOut: true, durationMs, runtime: this.description });
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
      this.finish(slot, { exitCode: 1, stdout: '', stderr, timedOut: false, durationMs, runtime: this.description });
    }
    this.replace(slot);
  }

  /** Kills a worker and starts its replacement right away (a warm spare for the next program). */
  private replace(slot: Slot): void {
    this.remove(slot);
    if (!this.loadError) this.startSlot();
    this.pump();
  }

  private remove(slot: Slot): void {
    this.slots = this.slots.filter((s) => s !== slot);
    if (slot.timer) clearTimeout(slot.timer);
    slot.worker.terminate();
  }

  dispose(): void {
    for (const slot of [...this.slots]) this.remove(slot);
    for (const job of this.waiting.splice(0)) job.reject(new InfrastructureError('executor closed'));
  }
}

const MAX_LOAD_DEATHS = 3;

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

/** An Executor that runs each language in its own pool of workers. */
export function createPoolExecutor(options: PoolOptions): Executor & { describe(language: LanguageId): string } {
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
    async dispose() {
      for (const p of pools.values()) p.dispose();
      pools.clear();
    },
  };
}
