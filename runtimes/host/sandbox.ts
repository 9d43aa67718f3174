/**
 * The page's side of the runtime sandbox (docs/security.md): one hidden frame, loaded from
 * sandbox.html with sandbox="allow-scripts" (an opaque origin: no access to the app's storage,
 * cookies or DOM) under a policy that allows no connection, hosts every runtime worker. The page
 * fetches what the workers need (the worker script, Pyodide's and QuickJS's files) from its own
 * origin and hands it over, so nothing inside the frame ever needs the network.
 *
 * Page ⇄ frame messages: {kind:'code'|'files'|'spawn'|'post'|'terminate'} down,
 * {kind:'ready'|'message'|'exit'} up (see sandbox-frame.js); `code` and `files` come once per language. The page listens only to its frame.
 */
import type { LanguageId } from '../../src/core/languages';
import type { WorkerHandle } from './pool';
import type { HostMessage, WorkerMessage } from './protocol';

export interface SandboxSources {
  /** URL of sandbox.html. */
  page: string;
  /** URL of a language's built runtime worker script (a classic script: it runs from a blob: URL). */
  worker(language: LanguageId): string;
  /** The files a language's runtime needs, by name → URL on the app's own origin. */
  files(language: LanguageId): Record<string, string>;
  /** Download progress of runtime files ("downloading … 12.3 of 30.6 MB"). */
  onStatus?: (language: LanguageId, message: string) => void;
}

type FrameMessage =
  | { kind: 'ready' }
  | { kind: 'message'; worker: number; message: WorkerMessage }
  | { kind: 'exit'; worker: number; reason: string };

interface Handlers {
  message?: (message: WorkerMessage) => void;
  exit?: (reason: string) => void;
}

/** How long the frame may take to answer once its page has loaded. */
const FRAME_START_MS = 10_000;

export class RuntimeSandbox {
  private frame: HTMLIFrameElement | null = null;
  private started: Promise<void> | null = null;
  private readonly handlers = new Map<number, Handlers>();
  private readonly files = new Map<string, Promise<void>>();
  private readonly code = new Map<string, Promise<void>>();
  private nextWorker = 1;
  private readonly listener = (event: MessageEvent) => this.onFrameMessage(event);

  constructor(private readonly sources: SandboxSources) {}

  spawn(language: LanguageId): WorkerHandle {
    const id = this.nextWorker++;
    const handlers: Handlers = {};
    this.handlers.set(id, handlers);
    let chain = this.start()
      .then(() => this.provideCode(language))
      .then(() => this.send({ kind: 'spawn', worker: id, language }));
    const fail = (error: unknown) => {
      // The sandbox or a runtime file could not be had: report it as the worker's load failure.
      const text = error instanceof Error ? error.message : String(error);
      if (this.handlers.has(id)) handlers.message?.({ type: 'failed', error: text });
    };
    chain = chain.catch(fail);
    return {
      post: (message: HostMessage) => {
        chain = chain.then(async () => {
          if (!this.handlers.has(id)) return;
          if (message.type === 'init') await this.provideFiles(message.language);
          this.send({ kind: 'post', worker: id, message });
        }).catch(fail);
      },
      onMessage: (handler) => (handlers.message = handler),
      onExit: (handler) => (handlers.exit = handler),
      terminate: () => {
        this.handlers.delete(id);
        if (this.frame) this.send({ kind: 'terminate', worker: id });
      },
    };
  }

  dispose(): void {
    removeEventListener('message', this.listener);
    this.frame?.remove();
    this.frame = null;
    this.started = null;
    this.handlers.clear();
    this.files.clear();
    this.code.clear();
  }

  /** Creates the frame, once. */
  private start(): Promise<void> {
    this.started ??= this.openFrame();
    return this.started;
  }

  /** Hands the frame a language's worker script, once. */
  private provideCode(language: LanguageId): Promise<void> {
    return once(this.code, language, async () => {
      const code = await (await fetchResponse(this.sources.worker(language))).text();
      this.send({ kind: 'code', language, code });
    });
  }

  private openFrame(): Promise<void> {
    const frame = document.createElement('iframe');
    // An opaque origin: no allow-same-origin, no popups, no navigation of the page.
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.setAttribute('referrerpolicy', 'no-referrer');
    frame.setAttribute('aria-hidden', 'true');
    frame.setAttribute('tabindex', '-1');
    frame.title = 'benchtop runtime sandbox';
    frame.dataset.testid = 'runtime-sandbox';
    frame.style.display = 'none';
    frame.src = this.sources.page;
    this.frame = frame;
    addEventListener('message', this.listener);
    const ready = new Promise<void>((resolve, reject) => {
      this.onReady = resolve;
      frame.addEventListener('load', () => {
        setTimeout(() => reject(new Error(`the runtime sandbox (${this.sources.page}) did not start`)), FRAME_START_MS);
      });
      frame.addEventListener('error', () => reject(new Error(`could not load the runtime sandbox (${this.sources.page})`)));
    });
    document.body.append(frame);
    return ready;
  }

  private onReady: (() => void) | null = null;

  private onFrameMessage(event: MessageEvent): void {
    if (!this.frame || event.source !== this.frame.contentWindow) return;
    const m = event.data as FrameMessage;
    if (typeof m !== 'object' || m === null) return;
    if (m.kind === 'ready') {
      this.onReady?.();
      this.onReady = null;
    } else if (m.kind === 'message') {
      this.handlers.get(m.worker)?.message?.(m.message);
    } else if (m.kind === 'exit') {
      const handlers = this.handlers.get(m.worker);
      this.handlers.delete(m.worker);
      handlers?.exit?.(String(m.reason));
    }
  }

  /** Fetches a language's runtime files from the app's own origin and hands them to the frame, once. */
  private provideFiles(language: LanguageId): Promise<void> {
    return once(this.files, language, async () => {
      const files = await fetchRuntimeFiles(this.sources.files(language), (m) => this.sources.onStatus?.(language, m));
      this.send({ kind: 'files', language, files }, Object.values(files));
    });
  }

  private send(message: unknown, transfer: Transferable[] = []): void {
    // The frame's origin is opaque: it cannot be named, hence '*'; nothing sent here is secret.
    this.frame?.contentWindow?.postMessage(message, '*', transfer);
  }
}

/** The promise for `key`, made once; a failed one is forgotten, so the next worker may retry. */
function once(cache: Map<string, Promise<void>>, key: string, make: () => Promise<void>): Promise<void> {
  let promise = cache.get(key);
  if (!promise) {
    promise = make();
    promise.catch(() => cache.delete(key));
    cache.set(key, promise);
  }
  return promise;
}

/** Runtime files are kept in the browser's Cache Storage: a second visit downloads nothing. */
const FILE_CACHE = 'benchtop-runtime-files-v1';
const MB = 1024 * 1024;

/**
 * Downloads a runtime's files from the app's own origin (or takes them from the cache), reporting
 * progress in megabytes. The cache is keyed by URL; an app update that changes a runtime changes
 * its package version, and the cache name above is bumped with it.
 */
export async function fetchRuntimeFiles(urls: Record<string, string>, onStatus?: (message: string) => void): Promise<Record<string, ArrayBuffer>> {
  const entries = Object.entries(urls);
  if (!entries.length) return {};
  const cache = await openCache();
  const total = { expected: 0, unknown: false, received: 0, fromCache: 0 };
  let lastReport = 0;
  const report = (force = false) => {
    const now = Date.now();
    if (!onStatus || (!force && now - lastReport < 250)) return;
    lastReport = now;
    const cached = total.fromCache ? ` (${(total.fromCache / MB).toFixed(1)} MB from this browser's cache)` : '';
    const of = total.expected && !total.unknown ? ` of ${(total.expected / MB).toFixed(1)}` : '';
    onStatus(`downloading runtime files: ${(total.received / MB).toFixed(1)}${of} MB${cached}…`);
  };
  const files = await Promise.all(entries.map(async ([name, url]) => {
    const hit = await cache?.match(url);
    if (hit) {
      const bytes = await hit.arrayBuffer();
      total.fromCache += bytes.byteLength;
      return [name, bytes] as const;
    }
    const response = await fetchResponse(url);
    // A compressed response's length is not what the body yields: no total for it, then.
    const length = response.headers.get('content-encoding') ? 0 : Number(response.headers.get('content-length')) || 0;
    if (length) total.expected += length;
    else total.unknown = true;
    const bytes = await readWithProgress(response, (n) => { total.received += n; report(); }, url);
    await cache?.put(url, new Response(bytes.slice(0), { headers: { 'content-type': response.headers.get('content-type') ?? 'application/octet-stream' } })).catch(() => undefined);
    return [name, bytes] as const;
  }));
  report(true);
  return Object.fromEntries(files);
}

async function openCache(): Promise<Cache | null> {
  try {
    return typeof caches === 'undefined' ? null : await caches.open(FILE_CACHE);
  } catch {
    return null; // no Cache Storage here (an insecure origin, private mode): download every visit
  }
}

async function readWithProgress(response: Response, onChunk: (bytes: number) => void, url: string): Promise<ArrayBuffer> {
  if (!response.body) return response.arrayBuffer();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.length;
      onChunk(value.length);
    }
  } catch (e) {
    throw new Error(`could not download ${url}: ${(e as Error).message}`);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes.buffer;
}

async function fetchResponse(url: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (e) {
    throw new Error(`could not download ${url}: ${(e as Error).message}`);
  }
  if (!response.ok) throw new Error(`could not download ${url}: HTTP ${response.status}`);
  return response;
}
