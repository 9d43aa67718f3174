/** Entry of a runtime worker thread under Node (bundled to dist-node/worker.mjs). */
import { parentPort } from 'node:worker_threads';
import type { HostMessage } from './protocol';
import { serve } from './serve';

const port = parentPort!;
serve({
  post: (message) => port.postMessage(message),
  listen: (handler) => port.on('message', (m: HostMessage) => handler(m)),
  close: () => process.exit(1),
});
