/**
 * The page's Executor: one pool of Web Workers per language. In the built app the workers live
 * in the runtime sandbox (sandbox.ts: an opaque-origin frame whose policy allows no connection);
 * under `npm run dev` the page starts them itself, without that wall (docs/security.md).
 */
import type { LanguageId } from '../../src/contracts';
import { CATALOG, runtimeFilePath } from './catalog';
import { WORKER_LANGUAGES } from './languages';
import { createPoolExecutor, MAX_SPARES, type PoolExecutor, type WorkerHandle } from './pool';
import { poolSizeFor } from './pool-size';
import type { HostMessage, WorkerMessage } from './protocol';
import { cachedUrls, fetchRuntimeFiles, type DownloadProgress, type RuntimeFile } from './runtime-files';
import { RuntimeSandbox } from './sandbox';

export interface BrowserExecutorOptions {
  onStatus?: (language: LanguageId, message: string) => void;
  /** Workers per language at most (default: the cores); each pool is also capped by memory (./pool-size.ts). */
  poolSize?: number;
  /** Bytes of a runtime's files at hand while they download (and once when they are all there). */
  onProgress?: (language: LanguageId, progress: DownloadProgress) => void;
}

/** What a run of some languages would download: per language, its files' bytes and those this browser holds. */
export interface DownloadPlan {
  languages: Array<{ language: LanguageId; bytes: number; cachedBytes: number }>;
  /** Each file once (JavaScript and TypeScript share QuickJS). */
  bytes: number;
  cachedBytes: number;
}

/** sha256 (hex) of each runtime file, compiled in by vite.config.ts: cached copies are checked against it. */
declare const RUNTIME_FILE_HASHES: Record<string, string[]>;
/** Size of each runtime file, compiled in by vite.config.ts. */
declare const RUNTIME_FILE_BYTES: Record<string, number>;

// One classic worker script per language (runtimes/<language>/worker.ts), so a Python worker
// never parses the other runtimes.
const workerScripts = import.meta.glob<string>('../*/worker.ts', { query: '?worker&url', import: 'default', eager: true });

const ownUrl = (path: string) => new URL(path, document.baseURI).href;
/** `npm run dev`: Pyodide's files by catalog name, where vite.config.ts copies them (public/pyodide/). */
const pyodideDevUrls = () =>
  Object.fromEntries(Object.entries(CATALOG.python?.files ?? {}).map(([name, path]) => [name, ownUrl(`${import.meta.env.BASE_URL}pyodide/${path.split('/').pop()}`)]));

function workerUrl(language: LanguageId): string {
  const url = workerScripts[`../${language}/worker.ts`];
  if (!url) throw new Error(`no in-browser runtime for ${language}`);
  return ownUrl(url);
}

/** Where each runtime file is served on the app's own origin (vite.config.ts puts them there). */
function runtimeFileUrls(language: LanguageId): Record<string, RuntimeFile> {
  return Object.fromEntries(Object.entries(CATALOG[language]?.files ?? {}).map(([name, path]) => {
    const sha256 = RUNTIME_FILE_HASHES[runtimeFilePath(path)] ?? [];
    const bytes = RUNTIME_FILE_BYTES[runtimeFilePath(path)];
    const url = ownUrl(`${import.meta.env.BASE_URL}${runtimeFilePath(path)}?v=${sha256[0] ?? ''}`);
    return [name, { url, sha256, ...(bytes !== undefined ? { bytes } : {}) }];
  }));
}

/** How much the runtimes of `languages` would download now, from the build's sizes and Cache Storage. */
export async function downloadPlan(languages: readonly LanguageId[]): Promise<DownloadPlan> {
  const files = new Map(languages.map((language) => [language, Object.values(runtimeFileUrls(language))]));
  const held = await cachedUrls([...new Set([...files.values()].flat().map((f) => f.url))]);
  const unique = new Map<string, number>();
  const plan: DownloadPlan = { languages: [], bytes: 0, cachedBytes: 0 };
  for (const [language, list] of files) {
    const bytes = list.reduce((n, f) => n + (f.bytes ?? 0), 0);
    const cachedBytes = list.filter((f) => held.has(f.url)).reduce((n, f) => n + (f.bytes ?? 0), 0);
    if (list.length) plan.languages.push({ language, bytes, cachedBytes });
    for (const f of list) unique.set(f.url, f.bytes ?? 0);
  }
  for (const [url, bytes] of unique) {
    plan.bytes += bytes;
    if (held.has(url)) plan.cachedBytes += bytes;
  }
  return plan;
}

/** Downloads a language's runtime files into this browser's cache, if they are not there yet (checked either way). */
export async function cacheRuntimeFiles(language: LanguageId): Promise<void> {
  await fetchRuntimeFiles(runtimeFileUrls(language));
}

/** `npm run dev` only: a Web Worker started by the page itself (no sandbox frame). */
function spawnDirectWorker(language: LanguageId, onStatus?: (message: string) => void, onProgress?: (progress: DownloadProgress) => void): WorkerHandle {
  const worker = new Worker(workerUrl(language), { type: 'module', name: `benchtop-${language}` });
  return {
    post: (message: HostMessage) => {
      // Pyodide finds its files itself here; the other runtimes are handed theirs.
      if (message.type !== 'init' || CATALOG[language]?.nodeLoadsItself) return worker.postMessage(message);
      void fetchRuntimeFiles(runtimeFileUrls(language), onStatus, onProgress).then(
        (files) => worker.postMessage({ ...message, settings: { ...message.settings, files } }, Object.values(files)),
        (e: Error) => worker.dispatchEvent(new ErrorEvent('error', { message: e.message })),
      );
    },
    onMessage: (handler) => worker.addEventListener('message', (e: MessageEvent<WorkerMessage>) => handler(e.data)),
    onExit: (handler) => worker.addEventListener('error', (e) => handler(e.message || 'worker error')),
    terminate: () => worker.terminate(),
  };
}

export function createBrowserExecutor(options: BrowserExecutorOptions = {}): PoolExecutor {
  // navigator.deviceMemory (Chromium: GB, rounded, at most 8) is all a page may know of memory; 4 GB without it.
  const memory = ((navigator as Navigator & { deviceMemory?: number }).deviceMemory ?? 4) * 1024 ** 3;
  const size = (language: LanguageId) => poolSizeFor(language, navigator.hardwareConcurrency || 2, memory, options.poolSize);
  // Spares for runaways (pool.ts) only where memory holds them too.
  const spares = (language: LanguageId) => poolSizeFor(language, 0, memory, size(language) + MAX_SPARES) - size(language);
  if (import.meta.env.DEV) {
    console.warn('benchtop (dev server): runtime workers run without the sandbox frame; build the app for the real walls (docs/security.md)');
    return createPoolExecutor({
      spawn: (language) => spawnDirectWorker(language, (m) => options.onStatus?.(language, m), (p) => options.onProgress?.(language, p)),
      languages: WORKER_LANGUAGES,
      size,
      spares,
      settings: { ownFiles: pyodideDevUrls() },
      onStatus: options.onStatus,
    });
  }
  const sandbox = new RuntimeSandbox({
    page: ownUrl(`${import.meta.env.BASE_URL}sandbox.html`),
    worker: workerUrl,
    files: runtimeFileUrls,
    onStatus: options.onStatus,
    onProgress: options.onProgress,
  });
  const executor = createPoolExecutor({ spawn: (language) => sandbox.spawn(language), languages: WORKER_LANGUAGES, size, spares, onStatus: options.onStatus });
  return {
    ...executor,
    async dispose() {
      await executor.dispose();
      sandbox.dispose();
    },
  };
}
