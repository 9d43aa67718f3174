/**
 * The page's side of the runtime sandbox (docs/security.md): one hidden frame, loaded from
 * sandbox.html with sandbox="allow-scripts" (an opaque origin: no access to the app's storage,
 * cookies or DOM) under a policy that allows no connection, hosts every runtime worker. The page
 * fetches what the workers need (the worker script, Pyodide's and QuickJS's files) from its own
 * origin and hands it over, so nothing inside the frame ever needs the network.
 *
 * Page ⇄ frame messages: {kind:'code'|'files'|'spawn'|'post'|'terminate'} down,
 * {kind:'ready'|'message'|'exit'} up (see sandbox-frame.js). The page listens only to its frame.
 */
import type { WorkerHandle } from './pool';
import type { HostMessage, WorkerMessage } from './protocol';

export interface SandboxSources {
  /** URL of sandbox.html. */
  page: string;
  /** URL of the built runtime worker script (a classic script: it runs from a blob: URL). */
  worker: string;
  /** The files a language's runtime needs, by name → URL on the app's own origin. */
  files(language: string): Record<string, string>;
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
  private nextWorker = 1;
  private readonly listener = (event: MessageEvent) => this.onFrameMessage(event);

  constructor(private readonly sources: SandboxSources) {}

  spawn(): WorkerHandle {
    const id = this.nextWorker++;
    const handlers: Handlers = {};
    this.handlers.set(id, handlers);
    let chain = this.start().then(() => this.send({ kind: 'spawn', worker: id }));
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
  }

  /** Creates the frame and hands it the worker script, once. */
  private start(): Promise<void> {
    this.started ??= (async () => {
      const [code] = await Promise.all([fetchOwn(this.sources.worker, 'text'), this.openFrame()]);
      this.send({ kind: 'code', code });
    })();
    return this.started;
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
  private provideFiles(language: string): Promise<void> {
    let sent = this.files.get(language);
    if (!sent) {
      sent = (async () => {
        const entries = await Promise.all(
          Object.entries(this.sources.files(language)).map(async ([name, url]) => [name, await fetchOwn(url, 'bytes')] as const),
        );
        const files = Object.fromEntries(entries);
        this.send({ kind: 'files', language, files }, Object.values(files));
      })();
      // A failed download may be retried by the next worker.
      sent.catch(() => this.files.delete(language));
      this.files.set(language, sent);
    }
    return sent;
  }

  private send(message: unknown, transfer: Transferable[] = []): void {
    // The frame's origin is opaque: it cannot be named, hence '*'; nothing sent here is secret.
    this.frame?.contentWindow?.postMessage(message, '*', transfer);
  }
}

async function fetchOwn(url: string, as: 'text'): Promise<string>;
async function fetchOwn(url: string, as: 'bytes'): Promise<ArrayBuffer>;
async function fetchOwn(url: string, as: 'text' | 'bytes'): Promise<string | ArrayBuffer> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (e) {
    throw new Error(`could not download ${url}: ${(e as Error).message}`);
  }
  if (!response.ok) throw new Error(`could not download ${url}: HTTP ${response.status}`);
  return as === 'text' ? response.text() : response.arrayBuffer();
}
