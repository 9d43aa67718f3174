/**
 * The page's Executor: one pool of Web Workers per language. In the built app the workers live
 * in the runtime sandbox (sandbox.ts: an opaque-origin frame whose policy allows no connection);
 * under `npm run dev` the page starts them itself, without that wall (docs/security.md).
 */
import quickjsWasmUrl from '@jitl/quickjs-ng-wasmfile-release-sync/wasm?url';
import type { LanguageId } from '../../src/core/languages';
import type { Executor } from '../types';
import { WORKER_LANGUAGES } from './languages';
import { createPoolExecutor, type WorkerHandle } from './pool';
import { RUNTIME_FILES, type WorkerMessage } from './protocol';
import { RuntimeSandbox } from './sandbox';
import workerUrl from './browser-worker.ts?worker&url';

export interface BrowserExecutorOptions {
  onStatus?: (language: LanguageId, message: string) => void;
  /** Workers per language (default: the number of cores, at least 2). */
  poolSize?: number;
}

const ownUrl = (path: string) => new URL(path, document.baseURI).href;
const pyodideBase = () => ownUrl(`${import.meta.env.BASE_URL}pyodide/`);

/** Where each runtime file is served on the app's own origin. */
function runtimeFileUrls(language: string): Record<string, string> {
  const names = RUNTIME_FILES[language as keyof typeof RUNTIME_FILES] ?? [];
  return Object.fromEntries(names.map((name) => [name, name === 'quickjs.wasm' ? ownUrl(quickjsWasmUrl) : pyodideBase() + name]));
}

/** `npm run dev` only: a Web Worker started by the page itself (no sandbox frame). */
function spawnDirectWorker(): WorkerHandle {
  const worker = new Worker(workerUrl, { type: 'module', name: 'benchtop-runtime' });
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (handler) => worker.addEventListener('message', (e: MessageEvent<WorkerMessage>) => handler(e.data)),
    onExit: (handler) => worker.addEventListener('error', (e) => handler(e.message || 'worker error')),
    terminate: () => worker.terminate(),
  };
}

export function createBrowserExecutor(options: BrowserExecutorOptions = {}): Executor & { describe(language: LanguageId): string } {
  const size = options.poolSize ?? Math.max(2, navigator.hardwareConcurrency || 2);
  if (import.meta.env.DEV) {
    console.warn('benchtop (dev server): runtime workers run without the sandbox frame; build the app for the real walls (docs/security.md)');
    return createPoolExecutor({
      spawn: spawnDirectWorker,
      languages: WORKER_LANGUAGES,
      size,
      settings: { pyodideIndexURL: pyodideBase() },
      onStatus: options.onStatus,
    });
  }
  const sandbox = new RuntimeSandbox({
    page: ownUrl(`${import.meta.env.BASE_URL}sandbox.html`),
    worker: ownUrl(workerUrl),
    files: runtimeFileUrls,
  });
  const executor = createPoolExecutor({ spawn: () => sandbox.spawn(), languages: WORKER_LANGUAGES, size, onStatus: options.onStatus });
  return {
    ...executor,
    async dispose() {
      await executor.dispose();
      sandbox.dispose();
    },
  };
}
