/// <reference lib="webworker" />
/**
 * The page's runtime Web Worker, one script per language (runtimes/<language>/worker.ts). In the
 * built app it runs inside the sandboxed runtime frame (opaque origin, no connections allowed:
 * docs/security.md); under `npm run dev` the page starts it directly. Either way, once the runtime
 * has loaded, the worker's network, storage and messaging globals are removed before the first
 * program runs; the host's channel is kept in this closure.
 */
import type { RuntimeLoader, RuntimeSettings } from '../loader';
import { lockdownBrowserWorker } from './lockdown';
import type { HostMessage, WorkerMessage } from './protocol';
import { serve } from './serve';

/** Called by each language's worker script with that language's loader. */
export function serveBrowserWorker(loader: RuntimeLoader): void {
  const scope = self as unknown as DedicatedWorkerGlobalScope;
  const post = scope.postMessage.bind(scope);
  const close = scope.close.bind(scope);
  // The page's direct channel for runs and results (sandbox.ts), handed over with init.
  let direct: ((message: WorkerMessage) => void) | null = null;
  serve({
    post: (message: WorkerMessage) => (direct && (message.type === 'result' || message.type === 'compiled' || message.type === 'retired') ? direct(message) : post(message)),
    listen: (handler) => scope.addEventListener('message', (e: MessageEvent<HostMessage>) => {
      const port = e.data?.type === 'init' && !direct ? e.ports[0] : undefined;
      if (port) {
        direct = port.postMessage.bind(port);
        port.onmessage = (m: MessageEvent<HostMessage>) => handler(m.data);
      }
      handler(e.data);
    }),
    close: () => close(),
    share: (shared) => post({ type: 'shared', shared }),
    lockdown: () => {
      const left = lockdownBrowserWorker(scope);
      if (left.length) post({ type: 'status', message: `benchtop: could not remove ${left.join(', ')} from the runtime worker` });
    },
  }, (language, settings, step) => (language === loader.language ? withBytes(settings).then((s) => (step('files'), loader.load(s, step))) : null));
}

/**
 * The runtime frame hands the runtime's files as Blobs (runtime-files-worker.ts says why): read
 * here, in this worker's own thread, into the ArrayBuffers the loaders take.
 */
async function withBytes(settings: RuntimeSettings): Promise<RuntimeSettings> {
  if (!settings.files) return settings;
  const entries = await Promise.all(Object.entries(settings.files as Record<string, ArrayBuffer | Blob>).map(async ([name, file]) => [name, file instanceof Blob ? await file.arrayBuffer() : file] as const));
  return { ...settings, files: Object.fromEntries(entries) };
}
