/**
 * Global setup of the e2e project (vite.config.ts): one `vite preview` of dist/ on 127.0.0.1 for
 * every e2e file, instead of one per file; its origin reaches the files through `inject('appOrigin')`
 * (tests/support/e2e.ts). The server only serves files, so the files cannot disturb one another:
 * each opens its own browser, whose storage is its own.
 */
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startAppServer } from '../../src/bench/app-page';

declare module 'vitest' {
  interface ProvidedContext {
    appOrigin: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startAppServer(fileURLToPath(new URL('../../', import.meta.url)));
  project.provide('appOrigin', server.origin);
  return () => server.close();
}
