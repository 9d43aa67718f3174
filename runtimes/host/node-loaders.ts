/**
 * The runtimes of Node's worker threads: the same adapters as the page's workers
 * (runtimes/host/workers/*.ts), loaded on demand. Runtimes that do not find their own files are
 * handed them from node_modules, as the page hands them its downloads (catalog.ts).
 */
import type { LanguageId } from '../../src/contracts';
import { readCatalogFiles } from './node-files';
import type { Loader } from './serve';

export const NODE_LOADERS: Partial<Record<LanguageId, Loader>> = {
  python: async (s) => (await import('../python/pyodide')).createPythonRuntime({ indexURL: s.pyodideIndexURL, files: s.files }),
  javascript: async (s) => (await import('../javascript/quickjs')).createJavaScriptRuntime({ wasm: s.files?.['quickjs.wasm'] }),
  typescript: async (s) => (await import('../typescript/sucrase')).createTypeScriptRuntime({ wasm: s.files?.['quickjs.wasm'] }),
  php: async (s) => (await import('../php/php')).createPhpRuntime({ files: filesFor('php', s.files) }),
  perl: async (s) => (await import('../perl/zeroperl')).createPerlRuntime({ files: filesFor('perl', s.files) }),
  shell: async () => {
    const shell = await import('../shell/just-bash');
    await shell.loadEveryCommand(); // before the module gate shuts (node-lockdown.ts)
    return shell.createShellRuntime();
  },
  ruby: async (s) => (await import('../ruby/rubywasm')).createRubyRuntime({ files: filesFor('ruby', s.files) }),
  r: async (s) => (await import('../r/webr')).createRRuntime({ files: filesFor('r', s.files) }),
  cpp: async (s) => (await import('../cpp/clang')).createCppRuntime({ files: filesFor('cpp', s.files) }),
};

/** The files of `language` from node_modules, unless the host already handed them in. */
export function filesFor(language: LanguageId, given: Record<string, ArrayBuffer> | undefined): Record<string, ArrayBuffer> {
  return given ?? readCatalogFiles(language);
}
