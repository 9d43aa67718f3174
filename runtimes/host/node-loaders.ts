/**
 * The runtimes of Node's worker threads: each language's own loader (runtimes/<language>/loader.ts,
 * the one the page's worker uses), imported on demand. Runtimes that do not find their own files
 * are handed them from node_modules, as the page hands them its downloads (catalog.ts).
 */
import type { LanguageId, LanguageRuntime } from '../../src/contracts';
import type { RuntimeLoader, RuntimeSettings, StepDone } from '../loader';
import { CATALOG } from './catalog';
import { catalogFilePaths, readCatalogFiles } from './node-files';

/** The loader of `language`; esbuild bundles every runtimes/<language>/loader.ts for this import. */
async function importLoader(language: LanguageId): Promise<RuntimeLoader> {
  const { loader } = (await import(`../${language}/loader.ts`)) as { loader: RuntimeLoader };
  if (loader.language !== language) throw new Error(`benchtop: runtimes/${language}/loader.ts loads ${loader.language}`);
  return loader;
}

/** Loads the runtime of `language` as a Node worker thread does, or null: the catalog has none. */
export function loadNodeRuntime(language: LanguageId, settings: RuntimeSettings, step?: StepDone): Promise<LanguageRuntime> | null {
  if (!Object.hasOwn(CATALOG, language)) return null;
  const entry = CATALOG[language]!;
  return importLoader(language).then((loader) => {
    // A runtime that loads its own files (Pyodide) is told where each is.
    const own = entry.nodeLoadsItself && !settings.files ? { ownFiles: catalogFilePaths(language) } : {};
    const files = settings.files ?? (entry.nodeLoadsItself ? undefined : readCatalogFiles(language));
    step?.('files');
    return loader.load({ ...settings, ...own, files, preloadModules: true /* before the module gate shuts (node-lockdown.ts) */ }, step);
  });
}
