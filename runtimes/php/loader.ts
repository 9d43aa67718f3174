/** The PHP runtime's loader, for the page's worker (./worker.ts) and Node's (runtimes/host/node-loaders.ts). */
import type { RuntimeLoader } from '../loader';
import { createPhpRuntime } from './php';

export const loader: RuntimeLoader = {
  language: 'php',
  packages: ['@php-wasm/web-8-1'],
  load: (s, step) => createPhpRuntime({ files: s.files ?? {}, shared: s.shared, step }),
};
