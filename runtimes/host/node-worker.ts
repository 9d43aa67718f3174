/**
 * Entry of a runtime worker thread under Node (bundled to dist-node/worker.mjs), hosted by its own
 * process (node-process.ts) under Node's permission model with an empty environment (node.ts).
 * Once the runtime has loaded, the thread loses the ways from a stray JavaScript object to
 * modules, native code and code from strings (node-lockdown.ts).
 */
import { parentPort } from 'node:worker_threads';
import { gateModuleLoading, lockdownNodeWorker } from './node-lockdown';
import type { HostMessage } from './protocol';
import { loadNodeRuntime } from './node-loaders';
import { serve } from './serve';

gateModuleLoading();
const port = parentPort!;
const exit = process.exit.bind(process);
serve({
  post: (message) => port.postMessage(message),
  listen: (handler) => port.on('message', (m: HostMessage) => handler(m)),
  close: () => exit(1),
  // Only the bytes (object files, a precompiled header): a compiled WebAssembly.Module cannot
  // leave this process, so each C++ process compiles LLVM itself (about 0.5 s, lazily).
  share: ({ bytes, key }) => port.postMessage({ type: 'shared', shared: { bytes, key } }),
  lockdown: lockdownNodeWorker,
}, loadNodeRuntime);
