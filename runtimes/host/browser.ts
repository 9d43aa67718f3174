/** The page's Executor: one pool of Web Workers per language. */
import type { LanguageId } from '../../src/core/languages';
import type { Executor } from '../types';
import { WORKER_LANGUAGES } from './languages';
import { createPoolExecutor, type WorkerHandle } from './pool';
import type { WorkerMessage } from './protocol';

export interface BrowserExecutorOptions {
  onStatus?: (language: LanguageId, message: string) => void;
  /** Workers per language (default: the number of cores, at least 2). */
  poolSize?: number;
}

function spawnWebWorker(): WorkerHandle {
  const worker = new Worker(new URL('./browser-worker.ts', import.meta.url), { type: 'module', name: 'benchtop-runtime' });
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (handler) => worker.addEventListener('message', (e: MessageEvent<WorkerMessage>) => handler(e.data)),
    onExit: (handler) => worker.addEventListener('error', (e) => handler(e.message || 'worker error')),
    terminate: () => worker.terminate(),
  };
}

export function createBrowserExecutor(options: BrowserExecutorOptions = {}): Executor & { describe(language: LanguageId): string } {
  return createPoolExecutor({
    spawn: spawnWebWorker,
    languages: WORKER_LANGUAGES,
    size: options.poolSize ?? Math.max(2, navigator.hardwareConcurrency || 2),
    // Absolute, on the app's own origin: Pyodide is never fetched from a CDN.
    settings: { pyodideIndexURL: new URL(`${import.meta.env.BASE_URL}pyodide/`, document.baseURI).href },
    onStatus: options.onStatus,
  });
}
