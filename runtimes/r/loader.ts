/** The R runtime's loader, for the page's worker (./worker.ts) and Node's (runtimes/host/node-loaders.ts). */
import type { RuntimeLoader } from '../loader';
import { createRRuntime } from './webr';

export const loader: RuntimeLoader = {
  language: 'r',
  packages: ['webr'],
  load: (s, step) => createRRuntime({ files: s.files ?? {}, shared: s.shared, step }),
};
