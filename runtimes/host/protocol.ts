/** Messages between the host (page or CLI) and a runtime worker. */
import type { LanguageId, RunResult } from '../../src/contracts';
import type { RuntimeSettings, RuntimeShared } from '../loader';

export type HostMessage =
  | { type: 'init'; language: LanguageId; settings: RuntimeSettings }
  | { type: 'run'; id: number; program: string; timeoutMs: number };

export type WorkerMessage =
  | { type: 'status'; message: string }
  /** `steps`: the load's steps and their milliseconds, in order (loader.ts StepDone). */
  | { type: 'ready'; description: string; steps?: Array<[string, number]> }
  /** Before `ready`, once: what the runtime compiled while loading (the runtime frame, or the CLI, keeps it for the next worker). */
  | { type: 'shared'; shared: RuntimeShared }
  | { type: 'failed'; error: string }
  /** During run `id`, once, from a runtime with a compile step: it ended; the run step's own limit starts. */
  | { type: 'compiled'; id: number }
  | { type: 'result'; id: number; result: Omit<RunResult, 'runtime'>; fatal?: boolean }
  /** Instead of run `id`'s result, before its program began: this worker cannot run it (RunNotStarted) and ends; the host gives the run to a new one. */
  | { type: 'retired'; id: number; reason: string };

/** The two ends differ between browser Workers and Node worker_threads; this is what both offer. */
export interface Port {
  post(message: WorkerMessage): void;
  listen(handler: (message: HostMessage) => void): void;
  /** Ends this worker (after a fatal runtime error the host starts a fresh one). */
  close(): void;
  /**
   * Called once the runtime has loaded, before the first program: takes from the worker's global
   * scope what no program may use (network, storage, messaging, code from strings). Defence in
   * depth: see docs/security.md for the walls that do not depend on it.
   */
  lockdown?(): void;
  /**
   * Hands what the runtime compiled while loading to the host, before `ready` (a Node runtime
   * process hands on only the bytes: a compiled WebAssembly module cannot leave it).
   */
  share?(shared: RuntimeShared): void;
}
