/** The C++ runtime's loader, for the page's worker (./worker.ts) and Node's (runtimes/host/node-loaders.ts). */
import type { RuntimeLoader } from '../loader';
import { createCppRuntime } from './clang';

export const loader: RuntimeLoader = {
  language: 'cpp',
  packages: ['@yowasp/clang'],
  load: (s, step) => createCppRuntime({ files: s.files ?? {}, shared: s.shared, step }),
};
