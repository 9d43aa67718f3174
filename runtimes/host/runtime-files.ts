/**
 * The runtimes' files (catalog.ts) on the page's side: fetched from the app's own origin and kept
 * in the browser's Cache Storage, so a second visit downloads nothing. The download, the sha256
 * check against the build's hash and the cache copy run in a dedicated worker of the page
 * (./runtime-files-worker.ts, ./runtime-files-fetch.ts); the main thread gets a few progress
 * messages, and either each language's files done and verified, as transferred ArrayBuffers (no
 * copy), or, for the runtime frame (sandbox.ts), only word that the worker sent them there.
 */
import FilesWorker from './runtime-files-worker.ts?worker';
import { openRuntimeCache } from './runtime-files-fetch';

export interface RuntimeFile {
  url: string;
  /**
   * Hex sha256 of the file, from the build (a `.gz` file has a second: of its unpacked bytes, which
   * is what a server that sends it with `content-encoding: gzip` delivers); empty: not checked.
   */
  sha256: readonly string[];
  /** Its size as built, for the percent of a download (a compressed response gives no usable length). */
  bytes?: number;
}

/** Bytes of a runtime's files at hand so far (downloaded or read from the cache), of `total`. */
export interface DownloadProgress {
  received: number;
  /** From this browser's cache, included in `received`. */
  cached: number;
  /** 0 when unknown. */
  total: number;
  done: boolean;
}

/** Page → runtime-files worker; with `to`, the files go there (`{ language, files }`) instead of back. */
export interface FilesRequest {
  id: number;
  urls: Record<string, RuntimeFile>;
  to?: { port: MessagePort; language: string };
}

/** Runtime-files worker → page. */
export type FilesReply =
  | { id: number; kind: 'status'; message: string }
  | { id: number; kind: 'progress'; progress: DownloadProgress }
  | { id: number; kind: 'done'; files: Record<string, ArrayBuffer> }
  /** The files went to the request's port. */
  | { id: number; kind: 'sent' }
  | { id: number; kind: 'failed'; error: string };

interface Pending {
  onStatus?: (message: string) => void;
  onProgress?: (progress: DownloadProgress) => void;
  resolve: (files: Record<string, ArrayBuffer>) => void;
  reject: (error: Error) => void;
}

/** One worker for the page's lifetime, started on the first request; replaced if it dies. */
let worker: Worker | null = null;
const pending = new Map<number, Pending>();
let nextId = 1;

function filesWorker(): Worker {
  if (worker) return worker;
  const started = new FilesWorker({ name: 'benchtop-runtime-files' });
  started.addEventListener('message', (event: MessageEvent<FilesReply>) => {
    const m = event.data;
    const request = pending.get(m.id);
    if (!request) return;
    if (m.kind === 'status') request.onStatus?.(m.message);
    else if (m.kind === 'progress') request.onProgress?.(m.progress);
    else {
      pending.delete(m.id);
      if (m.kind === 'done') request.resolve(m.files);
      else if (m.kind === 'sent') request.resolve({});
      else request.reject(new Error(m.error));
    }
  });
  started.addEventListener('error', (event) => {
    event.preventDefault();
    if (worker === started) worker = null;
    started.terminate();
    const error = new Error(`the runtime-files worker stopped: ${event.message || 'could not start'}`);
    for (const request of pending.values()) request.reject(error);
    pending.clear();
  });
  worker = started;
  return started;
}

/**
 * A runtime's files, by name, from this browser's cache or the app's own origin, each checked
 * against its build hash: done in the runtime-files worker. Progress in megabytes on the way.
 */
export function fetchRuntimeFiles(
  urls: Record<string, RuntimeFile>,
  onStatus?: (message: string) => void,
  onProgress?: (progress: DownloadProgress) => void,
): Promise<Record<string, ArrayBuffer>> {
  if (!Object.keys(urls).length) return Promise.resolve({});
  return ask(urls, undefined, onStatus, onProgress);
}

/**
 * The same, but the worker posts the files (`{ language, files }`, transferred) on `port`, whose
 * other end the caller hands the runtime frame: the page's main thread never holds them.
 */
export async function sendRuntimeFiles(
  urls: Record<string, RuntimeFile>,
  to: { port: MessagePort; language: string },
  onStatus?: (message: string) => void,
  onProgress?: (progress: DownloadProgress) => void,
): Promise<void> {
  await ask(urls, to, onStatus, onProgress);
}

function ask(urls: Record<string, RuntimeFile>, to: FilesRequest['to'], onStatus?: (message: string) => void, onProgress?: (progress: DownloadProgress) => void): Promise<Record<string, ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { onStatus, onProgress, resolve, reject });
    filesWorker().postMessage({ id, urls, ...(to ? { to } : {}) } satisfies FilesRequest, to ? [to.port] : []);
  });
}

/** Which of `urls` this browser's cache holds (checked against their hash only when used). */
export async function cachedUrls(urls: readonly string[]): Promise<Set<string>> {
  const cache = await openRuntimeCache();
  if (!cache) return new Set();
  const held = await Promise.all(urls.map(async (url) => ((await cache.match(url).catch(() => undefined)) ? url : null)));
  return new Set(held.filter((u): u is string => u !== null));
}
