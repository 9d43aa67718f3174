/**
 * The CLI's executor: the in-browser runtimes (in Node workers) and, with `--runner`, remote
 * runners, routed per language (runtimes/remote/routing.ts, `auto`). Languages that nothing can
 * run are reported as unavailable by the engine, never as failed.
 */
import type { Executor } from '../contracts';
import { createNodeExecutor } from '../../runtimes/host/node';
import { connectRemoteExecutor, type RemoteExecutor } from '../../runtimes/remote/executor';
import { createRoutedExecutor } from '../../runtimes/remote/routing';

export class RunnerSetupError extends Error {}

export interface RunnerOptions {
  runners: readonly string[];
  runnerToken?: string;
  /** Where the runners' status lines go (stderr). */
  log: (line: string) => void;
}

export interface CliRuntimeOptions extends RunnerOptions {
  concurrency: number;
}

export async function createCliExecutor(options: CliRuntimeOptions): Promise<Executor> {
  // As many workers per language as problems in parallel, capped by memory (runtimes/host/pool-size.ts).
  const local = createNodeExecutor({ poolSize: options.concurrency });
  // Routed even without a runner: `auto` skips in-page runtimes whose agreement is too low.
  if (!options.runners.length) return createRoutedExecutor({ local, remote: null });
  let remote: RemoteExecutor;
  try {
    remote = await connectRunners(options);
  } catch (e) {
    await local.dispose();
    throw e;
  }
  return createRoutedExecutor({ local, remote });
}

/** Connects to the runners, logging what each offers; throws RunnerSetupError when none answers. */
export async function connectRunners(options: RunnerOptions): Promise<RemoteExecutor> {
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
    await remote.dispose();
    throw new RunnerSetupError(`no runner could be reached: ${remote.runners.map((r) => `${r.url}: ${r.error}`).join('; ')}`);
  }
  return remote;
}
