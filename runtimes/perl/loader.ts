/** The Perl runtime's loader, for the page's worker (./worker.ts) and Node's (runtimes/host/node-loaders.ts). */
import type { RuntimeLoader } from '../loader';
import { createPerlRuntime } from './zeroperl';

export const loader: RuntimeLoader = {
  language: 'perl',
  packages: ['@6over3/zeroperl-ts'],
  load: (s, step) => createPerlRuntime({ files: s.files ?? {}, shared: s.shared, step }),
};
