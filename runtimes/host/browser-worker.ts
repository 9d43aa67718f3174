/// <reference lib="webworker" />
/** Entry of a runtime Web Worker in the page. */
import type { HostMessage, WorkerMessage } from './protocol';
import { serve } from './serve';

const scope = self as unknown as DedicatedWorkerGlobalScope;
serve({
  post: (message: WorkerMessage) => scope.postMessage(message),
  listen: (handler) => scope.addEventListener('message', (e: MessageEvent<HostMessage>) => handler(e.data)),
  close: () => scope.close(),
});
