/** The CLI's Executor: the same runtimes as the page, in Node worker_threads. */
import { Worker } from 'node:worker_threads';
import type { LanguageId } from '../../src/core/languages';
import type { Executor } from '../types';
import { WORKER_LANGUAGES } from './languages';
import { createPoolExecutor, type WorkerHandle } from './pool';

export interface NodeExecutorOptions {
  onStatus?: (language: LanguageId, message: string) => void;
  poolSize?: number;
  /** The bundled worker; defaults to dist-node/worker.mjs (built by scripts/build-node.mjs). */
  workerUrl?: URL;
}

// Run from source (tests) the bundle is in dist-node/; run as the bundled CLI it sits beside us.
const defaultWorkerUrl = () =>
  new URL(import.meta.url.endsWith('.ts') ? '../../dist-node/worker.mjs' : './worker.mjs', import.meta.url);

export function createNodeExecutor(options: NodeExecutorOptions = {}): Executor & { describe(language: LanguageId): string } {
  const workerUrl = options.workerUrl ?? defaultWorkerUrl();
  const spawn = (): WorkerHandle => {
    // A large stack, so that deep recursion behaves as under `node` / `python3`. An empty
    // environment: the CLI's own variables (API keys among them) never reach a test program.
    const worker = new Worker(workerUrl, { resourceLimits: { stackSizeMb: 64 }, env: {}, argv: [], execArgv: [] });
    let exited = false;
    return {
      post: (message) => worker.postMessage(message),
      onMessage: (handler) => worker.on('message', handler),
      onExit: (handler) => {
        worker.on('error', (e) => { if (!exited) { exited = true; handler(e.message); } });
        worker.on('exit', (code) => { if (!exited) { exited = true; handler(`exit code ${code}`); } });
      },
      terminate: () => { exited = true; void worker.terminate(); },
    };
  };
  return createPoolExecutor({ spawn, languages: WORKER_LANGUAGES, size: options.poolSize ?? 2, onStatus: options.onStatus });
}
