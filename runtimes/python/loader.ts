/** The Python runtime's loader, for the page's worker (./worker.ts) and Node's (runtimes/host/node-loaders.ts). */
import type { RuntimeLoader } from '../loader';
import { createPythonRuntime } from './pyodide';

export const loader: RuntimeLoader = {
  language: 'python',
  packages: ['pyodide'],
  load: (s, step) => createPythonRuntime({ urls: s.ownFiles, files: s.files, step }),
};
