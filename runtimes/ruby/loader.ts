/** The Ruby runtime's loader, for the page's worker (./worker.ts) and Node's (runtimes/host/node-loaders.ts). */
import type { RuntimeLoader } from '../loader';
import { createRubyRuntime } from './rubywasm';

export const loader: RuntimeLoader = {
  language: 'ruby',
  packages: ['@ruby/3.4-wasm-wasi'],
  load: (s, step) => createRubyRuntime({ files: s.files ?? {}, shared: s.shared, step }),
};
