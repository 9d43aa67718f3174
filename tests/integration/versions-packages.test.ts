/**
 * Every runtime names, in the description recorded with each result, the version of the npm
 * package it really runs: the one installed in node_modules (its own package.json), not a string
 * written into an adapter. Each runtime is loaded the CLI's way (a worker process running the
 * bundled Node loader, runtimes/host/node-loaders.ts), one language at a time.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { WORKER_LANGUAGES } from '../../runtimes/host/languages';
import type { RuntimeLoader } from '../../runtimes/loader';
import { installedVersion } from '../support/runtimes';

const dependencies = Object.keys((JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> }).dependencies);

describe('each runtime names the installed version of its packages', () => {
  for (const language of WORKER_LANGUAGES) {
    it(language, async () => {
      const { loader } = (await import(`../../runtimes/${language}/loader.ts`)) as { loader: RuntimeLoader };
      expect(loader.language).toBe(language);
      expect(loader.packages.length).toBeGreaterThan(0);
      for (const name of loader.packages) expect(dependencies).toContain(name);
      const executor = createNodeExecutor({ poolSize: 1 });
      try {
        // Any program will do (C++'s empty one does not link): the result carries the description.
        const result = await executor.run({ language, program: '', timeoutMs: 60_000 });
        for (const name of loader.packages) expect(result.runtime).toContain(` ${installedVersion(name)}`);
      } finally {
        await executor.dispose();
      }
    }, 600_000);
  }
});
