/** The TypeScript runtime's loader, for the page's worker (./worker.ts) and Node's (runtimes/host/node-loaders.ts). */
import type { RuntimeLoader } from '../loader';
import { QUICKJS_WASM_FILE } from '../javascript/quickjs';
import { createTypeScriptRuntime } from './sucrase';

export const loader: RuntimeLoader = {
  language: 'typescript',
  packages: ['sucrase', 'quickjs-emscripten-core'],
  load: (s, step) => createTypeScriptRuntime({ wasm: s.files?.[QUICKJS_WASM_FILE], step }),
};
