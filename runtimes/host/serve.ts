/**
 * The worker side: loads one language's runtime on `init` (lazily, so a page that never runs
 * Python never downloads Pyodide) and runs programs one at a time.
 */
import type { LanguageId } from '../../src/core/languages';
import type { LanguageRuntime } from '../types';
import type { HostMessage, Port, RuntimeSettings } from './protocol';

type Loader = (settings: RuntimeSettings) => Promise<LanguageRuntime>;

const LOADERS: Partial<Record<LanguageId, { what: string; load: Loader }>> = {
  python: {
    what: 'Pyodide (CPython in WebAssembly, about 13 MB)',
    load: async (s) => (await import('../python/pyodide')).createPythonRuntime({ indexURL: s.pyodideIndexURL, files: s.files }),
  },
  javascript: {
    what: 'QuickJS (about 1 MB)',
    load: async (s) => (await import('../javascript/quickjs')).createJavaScriptRuntime({ wasm: s.files?.['quickjs.wasm'] }),
  },
  typescript: {
    what: 'QuickJS and the sucrase TypeScript transpiler (about 1.5 MB)',
    load: async (s) => (await import('../typescript/sucrase')).createTypeScriptRuntime({ wasm: s.files?.['quickjs.wasm'] }),
  },
};

export function serve(port: Port): void {
  let runtime: LanguageRuntime | null = null;
  let queue = Promise.resolve();
  port.listen((message: HostMessage) => {
    queue = queue.then(() => handle(message));
  });

  async function handle(message: HostMessage): Promise<void> {
    if (message.type === 'init') {
      if (runtime) return;
      const loader = LOADERS[message.language];
      if (!loader) return port.post({ type: 'failed', error: `no in-browser runtime for ${message.language}` });
      port.post({ type: 'status', message: `loading ${loader.what}…` });
      try {
        runtime = await loader.load(message.settings);
        port.lockdown?.();
        port.post({ type: 'ready', description: runtime.description });
      } catch (e) {
        port.post({ type: 'failed', error: `could not load ${loader.what}: ${(e as Error).message}` });
      }
      return;
    }
    if (!runtime || message.type !== 'run') return;
    try {
      const result = await runtime.run(message.program, message.timeoutMs);
      port.post({ type: 'result', id: message.id, result });
    } catch (e) {
      // The runtime itself broke: report this run as a crash and let the host start a new worker.
      const stderr = `benchtop: the runtime crashed: ${(e as Error).message}\n`;
      port.post({ type: 'result', id: message.id, result: { exitCode: 1, stdout: '', stderr, timedOut: false, durationMs: 0 }, fatal: true });
      port.close();
    }
  }
}
