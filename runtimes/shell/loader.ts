/** The Shell runtime's loader, for the page's worker (./worker.ts) and Node's (runtimes/host/node-loaders.ts). */
import type { RuntimeLoader } from '../loader';
import { createShellRuntime, loadEveryCommand } from './just-bash';

export const loader: RuntimeLoader = {
  language: 'shell',
  packages: ['just-bash'],
  load: async (s, step) => {
    // just-bash imports a command's module on its first use: under Node, all of them now.
    if (s.preloadModules) {
      await loadEveryCommand();
      step?.('load every command');
    }
    return createShellRuntime();
  },
};
