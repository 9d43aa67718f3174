/**
 * Runtimes for test files, set up once per file: a language's runtime loaded in the test's own
 * process exactly as Node's runtime thread loads it (its loader, its files from node_modules:
 * runtimes/host/node-loaders.ts), or the CLI's executor (one worker process per language).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { nodeModulesPath } from '../../runtimes/host/node-files';
import { loadNodeRuntime } from '../../runtimes/host/node-loaders';
import type { LanguageId, LanguageRuntime } from '../../src/contracts';

/** The runtime of `language`, loaded in beforeAll; `run` uses it once loaded. */
export function useRuntime<T extends LanguageRuntime = LanguageRuntime>(language: LanguageId, loadTimeoutMs = 300_000) {
  let runtime: T | null = null;
  beforeAll(async () => {
    runtime = (await loadNodeRuntime(language, {})) as T | null;
    if (!runtime) throw new Error(`no runtime for ${language}`);
  }, loadTimeoutMs);
  const loaded = (): T => {
    if (!runtime) throw new Error(`the ${language} runtime did not load`);
    return runtime;
  };
  return {
    get runtime(): T {
      return loaded();
    },
    run: (program: string, timeoutMs: number) => loaded().run(program, timeoutMs),
  };
}

/** The CLI's executor with one worker per language, disposed after the file's tests. */
export function useNodeExecutor() {
  const executor = createNodeExecutor({ poolSize: 1 });
  afterAll(() => executor.dispose());
  return executor;
}

/** The version of npm package `name` installed in node_modules, read from its own package.json. */
export function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(nodeModulesPath(`${name}/package.json`), 'utf8')) as { version: string }).version;
}
