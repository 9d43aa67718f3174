/**
 * The worker side: loads one language's runtime on `init` (lazily, so a page that never runs
 * Python never downloads Pyodide) and runs programs one at a time. The page has one worker
 * script per language (workers/*.ts), so a Python worker never parses the other runtimes.
 */
import type { LanguageId, LanguageRuntime } from '../../src/contracts';
import { CATALOG } from './catalog';
import type { HostMessage, Port, RuntimeSettings } from './protocol';

/** Loads one language's runtime inside a worker, from what the host hands in. */
export type Loader = (settings: RuntimeSettings) => Promise<LanguageRuntime>;

/** Serves `loaders` (one language in a page worker, every language in a Node worker) on `port`. */
export function serve(port: Port, loaders: Partial<Record<LanguageId, Loader>>): void {
  let runtime: LanguageRuntime | null = null;
  let queue = Promise.resolve();
  port.listen((message: HostMessage) => {
    queue = queue.then(() => handle(message));
  });

  async function handle(message: HostMessage): Promise<void> {
    if (message.type === 'init') {
      if (runtime) return;
      const load = loaders[message.language];
      const what = CATALOG[message.language]?.what ?? message.language;
      if (!load) return port.post({ type: 'failed', error: `no in-browser runtime for ${message.language}` });
      port.post({ type: 'status', message: `loading ${what}…` });
      try {
        runtime = await load(message.settings);
        port.lockdown?.();
        port.post({ type: 'ready', description: runtime.description });
      } catch (e) {
        port.post({ type: 'failed', error: `could not load ${what}: ${(e as Error).message}` });
      }
      return;
    }
    if (!runtime || message.type !== 'run') return;
    try {
      const { retire, ...result } = await runtime.run(message.program, message.timeoutMs);
      // A runtime that cannot promise a clean slate for the next program asks to be replaced.
      port.post({ type: 'result', id: message.id, result, ...(retire ? { fatal: true } : {}) });
      if (retire) port.close();
    } catch (e) {
      // The runtime itself broke: report this run as a crash and let the host start a new worker.
      const stderr = `benchtop: the runtime crashed: ${(e as Error).message}\n`;
      port.post({ type: 'result', id: message.id, result: { exitCode: 1, stdout: '', stderr, timedOut: false, durationMs: 0 }, fatal: true });
      port.close();
    }
  }
}
