/**
 * The one runtime interface (docs/architecture.md): a runtime gets a complete, already spliced program and
 * a time limit, and reports what happened. It never decides pass or fail (src/core/rules does).
 */
import type { LanguageId } from './languages';
import type { ExecutionReport } from './outcome';

export interface RunRequest {
  language: LanguageId;
  program: string;
  timeoutMs: number;
}

export interface RunResult extends ExecutionReport {
  durationMs: number;
  /** Which runtime produced this result, e.g. "Pyodide 0.25.1 (CPython 3.11.3)". */
  runtime: string;
  /**
   * How long the request waited before a worker began it (for a free worker, or for one to load its
   * runtime, download included); not part of durationMs, which is the program's own run.
   */
  queuedMs?: number;
  /** A stream was cut at the capture limit. */
  truncated?: boolean;
  /**
   * The runtime did not run the program because it cannot judge it faithfully (why, e.g. C++ that
   * depends on 64-bit pointers). Not a verdict: the router tries the runner, the engine reports the
   * problem unsupported (unavailable), never failed.
   */
  declined?: string;
}

/** Executes programs for one or more languages (a worker pool, native processes, a remote runner). */
export interface Executor {
  /** Languages this executor can run. */
  languages(): readonly LanguageId[];
  run(request: RunRequest): Promise<RunResult>;
  /**
   * About how many runs of `language` the caller is about to send (the engine says it before a
   * run). A pool uses it to decide whether another worker would pay for its start; without it, a
   * pool grows whenever programs wait.
   */
  expect?(language: LanguageId, runs: number): void;
  dispose(): Promise<void>;
}

/** An engine for one language inside one worker: loaded once, runs programs one at a time. */
export interface LanguageRuntime {
  /** Name and version, recorded in every result. */
  readonly description: string;
  /**
   * `retire`: the runtime cannot start the next program from a clean slate; the host replaces it.
   * `steps`: a runtime that compiles says when its compile step ended, so that the run step gets
   * its own time limit (SPEC §4: each step is timed on its own, as in the official sandbox).
   */
  run(program: string, timeoutMs: number, steps?: RunSteps): Promise<Omit<RunResult, 'runtime'> & { retire?: boolean }>;
  /**
   * Puts the runtime back to where the next program starts, ahead of it: the host calls it after it
   * has posted a run's result (never during a run), so the work overlaps the messages between
   * runs. `run` does whatever was not done ahead.
   */
  prepare?(): Promise<void>;
}

/** What a runtime tells its host while a program is in progress. */
export interface RunSteps {
  /** The compile step succeeded; the program starts now. Called at most once per run. */
  compiled(): void;
}

/** The executor could not run the program for a reason that is not the program's fault. */
export class InfrastructureError extends Error {}

/**
 * Thrown by LanguageRuntime.run before the program began: the runtime could not make the clean
 * slate the program starts from (a new instance that cannot be made), a failure of the host, never
 * of a program. Not a verdict: the host gives the run to a new worker (runtimes/host/pool.ts).
 */
export class RunNotStarted extends Error {}
