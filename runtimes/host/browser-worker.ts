/// <reference lib="webworker" />
/**
 * The page's runtime Web Worker, one script per language (runtimes/<language>/worker.ts). In the
 * built app it runs inside the sandboxed runtime frame (opaque origin, no connections allowed:
 * docs/security.md); under `npm run dev` the page starts it directly. Either way, once the runtime
 * has loaded, the worker's network, storage and messaging globals are removed before the first
 * program runs; the host's channel is kept in this closure.
 */
import type { RuntimeLoader } from '../loader';
import { lockdownBrowserWorker } from './lockdown';
import type { HostMessage, WorkerMessage } from './protocol';
import { serve } from './serve';

/** Called by each language's worker script with that language's loader. */
export function serveBrowserWorker(loader: RuntimeLoader): void {
  const scope = self as unknown as DedicatedWorkerGlobalScope;
  const post = scope.postMessage.bind(scope);
  const close = scope.close.bind(scope);
  serve({
    post: (message: WorkerMessage) => post(message),
    listen: (handler) => scope.addEventListener('message', (e: MessageEvent<HostMessage>) => handler(e.data)),
    close: () => close(),
    share: (shared) => post({ type: 'shared', shared }),
    lockdown: () => {
      const left = lockdownBrowserWorker(scope);
      if (left.length) post({ type: 'status', message: `benchtop: could not remove ${left.join(', ')} from the runtime worker` });
    },
  }, (language, settings) => (language === loader.language ? loader.load(settings) : null));
}
