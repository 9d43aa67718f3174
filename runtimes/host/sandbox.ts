/**
 * The page's side of the runtime sandbox (docs/security.md): one hidden frame, loaded from
 * sandbox.html with sandbox="allow-scripts" (an opaque origin: no access to the app's storage,
 * cookies or DOM) under a policy that allows no connection, hosts every runtime worker. The page
 * fetches what the workers need (the worker script, Pyodide's and QuickJS's files) from its own
 * origin and hands it over, so nothing inside the frame ever needs the network. Runtime files go
 * from the page's runtime-files worker to the frame directly, over a port the page hands the frame
 * for that language (`files-port`), as Blobs (handles: no main thread copies the bytes); the
 * frame says `files-ready` once it holds them.
 *
 * Page ⇄ frame messages go over a MessageChannel whose port the page hands the frame once it has
 * loaded (the frame takes it only from its parent on the app's origin, and only while its own
 * origin is opaque): {kind:'code'|'files-port'|'spawn'|'post'|'terminate'|'ping'} down,
 * {kind:'ready'|'files-ready'|'message'|'exit'|'pong'} up (see sandbox-frame.js); `code` and
 * `files-port` come once per language per frame. Runs and their results skip the frame: each
 * worker's init carries the other end of a channel of its own to the page (spawn, below).
 *
 * A program can kill the frame's renderer (exhausting V8's heap from Python through pyodide.ffi,
 * say); no event tells the page. So the page pings the frame: one that stops answering is dead,
 * every worker in it exits (the pool turns the programs they were running into RUNTIME_ERROR and
 * asks for new workers), and the next spawn opens a fresh frame.
 */
import type { LanguageId } from '../../src/contracts';
import type { WorkerHandle } from './pool';
import type { HostMessage, WorkerMessage } from './protocol';
import { sendRuntimeFiles, type DownloadProgress, type RuntimeFile } from './runtime-files';
import { fetchResponse } from './runtime-files-fetch';

export interface SandboxSources {
  /** URL of sandbox.html. */
  page: string;
  /** URL of a language's built runtime worker script (a classic script: it runs from a blob: URL). */
  worker(language: LanguageId): string;
  /** The files a language's runtime needs, by name → URL on the app's own origin and the sha256 (hex) the build computed. */
  files(language: LanguageId): Record<string, RuntimeFile>;
  /** Download progress of runtime files ("downloading … 12.3 of 30.6 MB"). */
  onStatus?: (language: LanguageId, message: string) => void;
  /** The same as figures, for a progress bar. */
  onProgress?: (language: LanguageId, progress: DownloadProgress) => void;
}

type FrameMessage =
  | { kind: 'ready' }
  | { kind: 'pong' }
  | { kind: 'files-ready'; language: string }
  | { kind: 'message'; worker: number; message: WorkerMessage }
  | { kind: 'exit'; worker: number; reason: string };

interface Handlers {
  message?: (message: WorkerMessage) => void;
  exit?: (reason: string) => void;
  /** The page's end of the worker's direct channel (runs and results), closed with the worker. */
  direct: MessagePort;
}

/** How long the frame may take to answer once its page has loaded. */
const FRAME_START_MS = 10_000;
/** The page pings its frame this often… */
const PING_MS = 500;
/**
 * …and a frame that leaves a ping unanswered this long is asked once more, and dead if it leaves
 * that one unanswered for CONFIRM_MS too. Its main thread runs no program (those run in its
 * workers) and only relays the loads' messages, so even on a loaded machine it answers within
 * milliseconds.
 * The second ping is for the page's own stalls: after a long task, or with a hidden tab's timers
 * slowed to one a minute, the answer may still be queued when the check runs; the second ping is
 * sent while this page is demonstrably running, so its answer cannot be stuck behind our own stall.
 * Generous on purpose: a false death turns every running program into RUNTIME_ERROR, and at load
 * 40 on 2 cores the scale run (#16) saw the page and its frame stall for up to 4 s.
 */
const FRAME_SILENT_MS = 5_000;
const CONFIRM_MS = 4_000;

/** One sandbox frame and the channel to it; replaced as a whole when it dies. */
interface Frame {
  element: HTMLIFrameElement;
  port: MessagePort | null;
  started: Promise<void>;
  files: Map<string, Promise<void>>;
  /** Languages whose files the frame is to confirm (`files-ready`), and how to fail them if it dies. */
  filesReady: Map<string, { resolve: () => void; reject: (error: Error) => void }>;
  code: Map<string, Promise<void>>;
  workers: Set<number>;
  heartbeat: ReturnType<typeof setInterval> | null;
  /** When the unanswered ping was sent (null: none), and whether it is the second one. */
  pingSent: number | null;
  confirming: boolean;
}

export class RuntimeSandbox {
  private frame: Frame | null = null;
  private readonly handlers = new Map<number, Handlers>();
  private nextWorker = 1;

  constructor(private readonly sources: SandboxSources) {}

  spawn(language: LanguageId): WorkerHandle {
    const id = this.nextWorker++;
    // Runs and their results go straight between this page and the worker, over a channel whose
    // other end the frame hands the worker with its init: one hop instead of two, and no copy of
    // each program and result on the frame's thread. Everything else (the load, `ready`, what a
    // loading worker shares, errors, terminate) still goes through the frame.
    const direct = new MessageChannel();
    const handlers: Handlers = { direct: direct.port1 };
    this.handlers.set(id, handlers);
    const frame = this.current();
    frame.workers.add(id);
    // The worker script and the files are fetched (the files checked) while the frame loads, not after.
    this.provideCode(frame, language).catch(() => undefined);
    this.provideFiles(frame, language).catch(() => undefined);
    let chain = frame.started
      .then(() => this.provideCode(frame, language))
      .then(() => this.send(frame, { kind: 'spawn', worker: id, language }));
    const fail = (error: unknown) => {
      // The sandbox or a runtime file could not be had: report it as the worker's load failure.
      const text = error instanceof Error ? error.message : String(error);
      if (this.handlers.has(id)) handlers.message?.({ type: 'failed', error: text });
    };
    chain = chain.catch(fail);
    let directSent = false;
    direct.port1.onmessage = (e: MessageEvent) => {
      if (this.frame === frame && frame.workers.has(id)) this.handlers.get(id)?.message?.(e.data as WorkerMessage);
    };
    direct.port1.onmessageerror = () => {
      if (this.frame === frame && frame.workers.delete(id)) this.drop(id)?.exit?.('unreadable message');
    };
    return {
      post: (message: HostMessage) => {
        if (message.type === 'run' && directSent) return direct.port1.postMessage(message);
        chain = chain.then(async () => {
          if (!this.handlers.has(id)) return;
          if (message.type === 'init') await this.provideFiles(frame, message.language);
          const handOver = message.type === 'init' && !directSent;
          this.send(frame, { kind: 'post', worker: id, message }, handOver ? [direct.port2] : []);
          directSent ||= handOver;
        }).catch(fail);
      },
      onMessage: (handler) => (handlers.message = handler),
      onExit: (handler) => (handlers.exit = handler),
      terminate: () => {
        this.drop(id);
        frame.workers.delete(id);
        this.send(frame, { kind: 'terminate', worker: id });
      },
    };
  }

  dispose(): void {
    if (this.frame) this.close(this.frame);
    this.frame = null;
    for (const id of [...this.handlers.keys()]) this.drop(id);
  }

  /** Forgets a worker's handlers and closes its direct channel; returns the handlers. */
  private drop(id: number): Handlers | undefined {
    const handlers = this.handlers.get(id);
    this.handlers.delete(id);
    handlers?.direct.close();
    return handlers;
  }

  /** The live frame, opened if there is none. */
  private current(): Frame {
    this.frame ??= this.openFrame();
    return this.frame;
  }

  /** Hands the frame a language's worker script, once. */
  private provideCode(frame: Frame, language: LanguageId): Promise<void> {
    return once(frame.code, language, async () => {
      const code = await (await fetchResponse(this.sources.worker(language))).text();
      await frame.started;
      this.send(frame, { kind: 'code', language, code });
    });
  }

  private openFrame(): Frame {
    const element = document.createElement('iframe');
    // An opaque origin: no allow-same-origin, no popups, no navigation of the page. Offline only
    // (navigator.onLine false): Chromium never sends a sandboxed frame's navigation to a service
    // worker, so a page that our worker controls (src/offline/service-worker.ts) loads the frame
    // without the attribute, and the worker serves it with the same sandbox as a header it sets
    // itself. Either way the frame's script runs only with an opaque origin. Online the attribute
    // stays: Chromium then also gives the frame a process of its own.
    if (navigator.onLine || !navigator.serviceWorker?.controller) element.setAttribute('sandbox', 'allow-scripts');
    element.setAttribute('referrerpolicy', 'no-referrer');
    element.setAttribute('aria-hidden', 'true');
    element.setAttribute('tabindex', '-1');
    element.title = 'benchtop runtime sandbox';
    element.dataset.testid = 'runtime-sandbox';
    element.style.display = 'none';
    element.src = this.sources.page;
    const frame: Frame = { element, port: null, started: Promise.resolve(), files: new Map(), filesReady: new Map(), code: new Map(), workers: new Set(), heartbeat: null, pingSent: null, confirming: false };
    frame.started = new Promise<void>((resolve, reject) => {
      let loaded = false;
      element.addEventListener('load', () => {
        if (loaded) return; // the frame's page is ours; it does not navigate
        loaded = true;
        const channel = new MessageChannel();
        frame.port = channel.port1;
        channel.port1.onmessage = (event: MessageEvent) => this.onFrameMessage(frame, event.data as FrameMessage, resolve);
        // The frame's origin is opaque and cannot be named, hence '*'; the frame checks that this
        // comes from its parent on the app's origin.
        element.contentWindow?.postMessage('benchtop-sandbox', '*', [channel.port2]);
        setTimeout(() => reject(new Error(`the runtime sandbox (${this.sources.page}) did not start`)), FRAME_START_MS);
      });
      element.addEventListener('error', () => reject(new Error(`could not load the runtime sandbox (${this.sources.page})`)));
    });
    // A frame that failed to start is dropped, so the next worker tries a new one.
    frame.started.catch(() => {
      if (this.frame === frame) this.frame = null;
      this.close(frame);
    });
    document.body.append(element);
    return frame;
  }

  private onFrameMessage(frame: Frame, m: FrameMessage, ready: () => void): void {
    if (this.frame !== frame || typeof m !== 'object' || m === null) return;
    if (m.kind === 'ready') {
      ready();
      frame.heartbeat ??= setInterval(() => this.checkFrame(frame), PING_MS);
    } else if (m.kind === 'files-ready') {
      frame.filesReady.get(m.language)?.resolve();
      frame.filesReady.delete(m.language);
    } else if (m.kind === 'pong') {
      frame.pingSent = null;
      frame.confirming = false;
    } else if (m.kind === 'message') {
      if (frame.workers.has(m.worker)) this.handlers.get(m.worker)?.message?.(m.message);
    } else if (m.kind === 'exit') {
      if (!frame.workers.has(m.worker)) return;
      frame.workers.delete(m.worker);
      this.drop(m.worker)?.exit?.(String(m.reason));
    }
  }

  /** Pings the frame; one that leaves two pings in a row unanswered (see FRAME_SILENT_MS) has died. */
  private checkFrame(frame: Frame): void {
    const now = performance.now();
    const ping = () => {
      frame.pingSent = now;
      this.send(frame, { kind: 'ping' });
    };
    if (frame.pingSent === null) return ping();
    if (now - frame.pingSent <= (frame.confirming ? CONFIRM_MS : FRAME_SILENT_MS)) return;
    if (frame.confirming) return this.frameDied(frame);
    frame.confirming = true;
    ping();
  }

  /** Every worker of a dead frame exits; the next spawn opens a new frame. */
  private frameDied(frame: Frame): void {
    if (this.frame === frame) this.frame = null;
    this.close(frame);
    for (const id of frame.workers) {
      this.drop(id)?.exit?.('the runtime sandbox frame stopped answering: its process crashed or ran out of memory');
    }
    frame.workers.clear();
  }

  private close(frame: Frame): void {
    for (const waiting of frame.filesReady.values()) waiting.reject(new Error('the runtime sandbox frame closed'));
    frame.filesReady.clear();
    if (frame.heartbeat) clearInterval(frame.heartbeat);
    frame.heartbeat = null;
    frame.port?.close();
    frame.element.remove();
  }

  /**
   * Has the page's runtime-files worker fetch a language's files (from Cache Storage or the app's
   * own origin, hash-checked) and post them to the frame over a port of their own, once per frame;
   * done when the frame holds them. The download starts at once; its message waits in the port
   * until the frame has started and has the other end.
   */
  private provideFiles(frame: Frame, language: LanguageId): Promise<void> {
    return once(frame.files, language, async () => {
      const channel = new MessageChannel();
      const held = new Promise<void>((resolve, reject) => frame.filesReady.set(language, { resolve, reject }));
      held.catch(() => undefined);
      const sent = sendRuntimeFiles(this.sources.files(language), { port: channel.port2, language }, (m) => this.sources.onStatus?.(language, m), (p) => this.sources.onProgress?.(language, p));
      try {
        await frame.started;
      } finally {
        // Sent even if the frame failed to start (then to no one): the port is not kept here.
        this.send(frame, { kind: 'files-port', language }, [channel.port1]);
      }
      await sent;
      await held;
    });
  }

  private send(frame: Frame, message: unknown, transfer: Transferable[] = []): void {
    frame.port?.postMessage(message, transfer);
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
