/**
 * Global setup of the e2e project (vite.config.ts): one `vite preview` of dist/ on 127.0.0.1 for
 * every e2e file, instead of one per file; its origin reaches the files through `inject('appOrigin')`
 * (tests/support/e2e.ts). The server only serves files, so the files cannot disturb one another:
 * each opens its own browser, whose storage is its own.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startAppServer } from '../../src/bench/app-page';

declare module 'vitest' {
  interface ProvidedContext {
    appOrigin: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  // Without a build, only the e2e files fail (appOrigin says why), not the whole run.
  if (!existsSync(`${root}dist/index.html`)) return project.provide('appOrigin', '');
  const server = await startAppServer(root);
  project.provide('appOrigin', server.origin);
  return () => server.close();
}
