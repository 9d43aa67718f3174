/**
 * The CLI's executor: the in-browser runtimes (in Node workers) and, with `--runner`, remote
 * runners for the languages that have no in-browser runtime (runtimes/remote, routing `auto`).
 * Languages that neither can run are reported as unavailable by the engine, never as failed.
 */
import type { Executor } from '../../runtimes/types';
import { createNodeExecutor } from '../../runtimes/host/node';
import { connectRemoteExecutor } from '../../runtimes/remote/executor';
import { createRoutedExecutor } from '../../runtimes/remote/routing';

export class RunnerSetupError extends Error {}

export interface CliRuntimeOptions {
  concurrency: number;
  runners: readonly string[];
  runnerToken?: string;
  /** Where the runners' status lines go (stderr). */
  log: (line: string) => void;
}

export async function createCliExecutor(options: CliRuntimeOptions): Promise<Executor> {
  const local = createNodeExecutor({ poolSize: Math.max(2, options.concurrency) });
  if (!options.runners.length) return local;
  const remote = await connectRemoteExecutor({
    urls: options.runners,
    token: options.runnerToken,
    maxInFlightPerUrl: 16,
    onRetry: ({ url, reason, delayMs }) => options.log(`runner ${url}: ${reason}; retrying in ${(delayMs / 1000).toFixed(1)} s`),
  });
  for (const runner of remote.runners) {
    if (runner.error) options.log(`runner ${runner.url}: not usable: ${runner.error}`);
    else if (runner.official) options.log(`runner ${runner.url}: no /languages endpoint (an official sandbox?): assuming every language`);
    else {
      const available = runner.languages!.filter((l) => l.available).map((l) => l.id);
      const missing = runner.languages!.filter((l) => !l.available).map((l) => l.id);
      options.log(`runner ${runner.url}: ${available.length} languages (${available.join(', ')})${missing.length ? `; unavailable there: ${missing.join(', ')}` : ''}`);
    }
  }
  if (remote.runners.every((r) => r.error)) {
    await local.dispose();
    throw new RunnerSetupError(`no runner could be reached: ${remote.runners.map((r) => `${r.url}: ${r.error}`).join('; ')}`);
  }
  return createRoutedExecutor({ local, remote });
}
