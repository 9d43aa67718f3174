/** The JavaScript runtime's loader, for the page's worker (./worker.ts) and Node's (runtimes/host/node-loaders.ts). */
import type { RuntimeLoader } from '../loader';
import { createJavaScriptRuntime, QUICKJS_WASM_FILE } from './quickjs';

export const loader: RuntimeLoader = {
  language: 'javascript',
  packages: ['quickjs-emscripten-core'],
  load: (s, step) => createJavaScriptRuntime({ wasm: s.files?.[QUICKJS_WASM_FILE], step }),
};
