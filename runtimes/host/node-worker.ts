/**
 * Entry of a runtime worker thread under Node (bundled to dist-node/worker.mjs). The thread gets
 * an empty environment (node.ts), and once the runtime has loaded it loses the ways from a stray
 * JavaScript object to modules, native code and code from strings (lockdown.ts).
 */
import { parentPort } from 'node:worker_threads';
import { lockdownNodeWorker } from './lockdown';
import type { HostMessage } from './protocol';
import { NODE_LOADERS } from './node-loaders';
import { serve } from './serve';

const port = parentPort!;
const exit = process.exit.bind(process);
serve({
  post: (message) => port.postMessage(message),
  listen: (handler) => port.on('message', (m: HostMessage) => handler(m)),
  close: () => exit(1),
  lockdown: lockdownNodeWorker,
}, NODE_LOADERS);
