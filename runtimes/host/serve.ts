/**
 * The worker side: loads one language's runtime on `init` (lazily, so a page that never runs
 * Python never downloads Pyodide) and runs programs one at a time. The page has one worker
 * script per language (runtimes/<language>/worker.ts), so a Python worker never parses the other
 * runtimes.
 */
import { RunNotStarted, type LanguageId, type LanguageRuntime } from '../../src/contracts';
import type { RuntimeSettings, SharingRuntime, StepDone } from '../loader';
import { createQueue } from '../queue';
import { CATALOG } from './catalog';
import type { HostMessage, Port } from './protocol';

/** Loads the runtime of `language` inside this worker, or null: this worker has none for it. */
export type Load = (language: LanguageId, settings: RuntimeSettings, step: StepDone) => Promise<LanguageRuntime> | null;

/** Times a load's steps (StepDone): each step's milliseconds, in order, the rest as 'other'. */
function stepClock(): { step: StepDone; steps(): Array<[string, number]> } {
  const list: Array<[string, number]> = [];
  let last = performance.now();
  const step = (name: string) => {
    const now = performance.now();
    list.push([name, now - last]);
    last = now;
  };
  return { step, steps: () => (step('other'), list.filter(([name, ms]) => name !== 'other' || ms >= 1)) };
}

/** Serves `load` (one language in a page worker, every language in a Node worker) on `port`. */
export function serve(port: Port, load: Load): void {
  let runtime: LanguageRuntime | null = null;
  const queue = createQueue();
  port.listen((message: HostMessage) => void queue(() => handle(message)));

  async function handle(message: HostMessage): Promise<void> {
    if (message.type === 'init') {
      if (runtime) return;
      const what = (Object.hasOwn(CATALOG, message.language) && CATALOG[message.language]?.what) || message.language;
      const clock = stepClock();
      try {
        const loading = load(message.language, message.settings, clock.step);
        if (!loading) return port.post({ type: 'failed', error: `no in-browser runtime for ${message.language}` });
        // Compiled code from the page's first worker of the language (runtimes/host/shared-module.ts).
        const handed = Object.keys(message.settings.shared?.modules ?? {}).length > 0;
        port.post({ type: 'status', message: `loading ${what}${handed ? ' (compiled code from the first worker)' : ''}…` });
        runtime = await loading;
        // Before the lockdown and before any program: only what loading built is shared.
        if (port.share && 'shareable' in runtime) port.share((runtime as SharingRuntime).shareable());
        port.lockdown?.();
        port.post({ type: 'ready', description: runtime.description, steps: clock.steps() });
      } catch (e) {
        port.post({ type: 'failed', error: `could not load ${what}: ${(e as Error).message}` });
      }
      return;
    }
    if (!runtime || message.type !== 'run') return;
    try {
      const { id } = message;
      const { retire, ...result } = await runtime.run(message.program, message.timeoutMs, { compiled: () => port.post({ type: 'compiled', id }) });
      // A runtime that cannot promise a clean slate for the next program asks to be replaced.
      port.post({ type: 'result', id, result, ...(retire ? { fatal: true } : {}) });
      if (retire) return port.close();
    } catch (e) {
      // Before the program began: not the program's doing, so no result; the host runs it elsewhere.
      if (e instanceof RunNotStarted) {
        port.post({ type: 'retired', id: message.id, reason: e.message });
        return port.close();
      }
      // The runtime itself broke: report this run as a crash and let the host start a new worker.
      const stderr = `benchtop: the runtime crashed: ${(e as Error).message}\n`;
      port.post({ type: 'result', id: message.id, result: { exitCode: 1, stdout: '', stderr, timedOut: false, durationMs: 0 }, fatal: true });
      return port.close();
    }
    // The next program's clean slate, while this result travels (the queue holds the next run);
    // a failure here is met again, and reported, by the next run.
    await runtime.prepare?.().catch(() => undefined);
  }
}
