/**
 * How one language's runtime is loaded: each runtimes/<language>/loader.ts exports one
 * RuntimeLoader, used as is by the page's worker script (runtimes/<language>/worker.ts) and by
 * Node's runtime thread (runtimes/host/node-loaders.ts).
 */
import type { LanguageId, LanguageRuntime } from '../src/contracts';

/** What the host hands a runtime worker on `init`. */
export interface RuntimeSettings {
  /**
   * Where a runtime that loads its own files (Pyodide) finds each, by its catalog name (catalog.ts):
   * on the app's own origin (unsandboxed browser workers: `npm run dev` only) or in node_modules
   * (Node's runtime threads).
   */
  ownFiles?: Record<string, string>;
  /**
   * The runtime's files (catalog.ts), handed in by the page: a sandboxed worker may not make a
   * single request, so it gets everything it needs in its init message (as Blobs from the runtime
   * frame, read into ArrayBuffers by browser-worker.ts before the loader sees them).
   */
  files?: Record<string, ArrayBuffer>;
  /**
   * Set by Node's runtime thread, which shuts module loading once the runtime is ready
   * (node-lockdown.ts): a runtime that imports modules lazily imports them all while loading.
   */
  preloadModules?: boolean;
  /**
   * What an earlier worker of the same language compiled while loading, before it ran any
   * program (SharingRuntime), handed on by the page's runtime frame (sandbox-frame.js).
   */
  shared?: RuntimeShared;
}

/**
 * Code a runtime built while loading that a later worker of the same page may reuse instead of
 * building it again: compiled WebAssembly modules (a Module posts to a worker of the same agent
 * cluster without copying its machine code) and object files. Code, never state: each program
 * still runs in a fresh instance.
 */
export interface RuntimeShared {
  modules?: Record<string, WebAssembly.Module>;
  bytes?: Record<string, Uint8Array>;
  /** What the bytes were built for (e.g. the compiler flags); a runtime built otherwise ignores them. */
  key?: string;
}

/** A runtime that can hand what it compiled while loading to the next worker (runtimes/cpp). */
export interface SharingRuntime extends LanguageRuntime {
  shareable(): RuntimeShared;
}

/**
 * Called by a loader as each step of its load ends, with the step's name ('compile', 'start', …):
 * the host times the steps, so that what a language's first result costs, and why, can be told
 * (the pool's ready line; docs/bench.md). Time after the last step counts as 'other'.
 */
export type StepDone = (step: string) => void;

export interface RuntimeLoader {
  readonly language: LanguageId;
  /** The npm packages whose installed versions the runtime's description names (checked by tests). */
  readonly packages: readonly string[];
  load(settings: RuntimeSettings, step?: StepDone): Promise<LanguageRuntime>;
}
