/**
 * A worker's ready line says how long its start took and where the time went (runtimes/host/pool.ts
 * loadSteps, describeLoad): the steps its loader named (loader.ts StepDone), and 'worker' for the
 * rest of the time from spawning it. The steps come from the worker, which is not trusted: a
 * malformed list is dropped, and no step may claim more than the start's own time.
 */
import { describe, expect, it } from 'vitest';
import { createPoolExecutor, describeLoad } from '../../runtimes/host/pool';
import type { HostMessage, WorkerMessage } from '../../runtimes/host/protocol';
import { scriptedWorkers } from '../support/scripted-workers';

/** A pool of one scripted worker that answers `init` after `startMs` with `steps`; its status lines and its lastLoad. */
async function start(steps: unknown, startMs = 300) {
  const workers = scriptedWorkers((m: HostMessage, reply: (m: WorkerMessage) => void) => {
    if (m.type === 'init') setTimeout(() => reply({ type: 'ready', description: 'scripted', steps } as WorkerMessage), startMs);
    else if (m.type === 'run') reply({ type: 'result', id: m.id, result: { exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 1 } });
  });
  const statuses: string[] = [];
  const executor = createPoolExecutor({ spawn: workers.spawn, languages: ['python'], size: 1, onStatus: (_, s) => statuses.push(s) });
  await executor.run({ language: 'python', program: 'print(1)', timeoutMs: 10_000 });
  const load = executor.lastLoad('python');
  await executor.dispose();
  return { statuses, load };
}

describe('a worker start, step by step', () => {
  it('shows the steps the worker named, and the rest of the start as "worker"', async () => {
    const { statuses, load } = await start([['files', 60], ['compile', 120], ['start', 90]]);
    expect(load!.steps.map(([name]) => name)).toEqual(['worker', 'files', 'compile', 'start']);
    expect(load!.ms).toBeGreaterThanOrEqual(300);
    const sum = load!.steps.reduce((a, [, ms]) => a + ms, 0);
    expect(sum).toBeCloseTo(load!.ms, 5);
    expect(load!.steps[0]![1]).toBeCloseTo(load!.ms - 270, 5);
    expect(statuses.at(-1)).toMatch(/^scripted ready, loaded in 0\.\d s \(files 0\.1 s, compile 0\.1 s, start 0\.1 s\)$/);
  });

  it('drops a malformed list: all of the start counts as "worker"', async () => {
    for (const steps of ['files', [['files', Number.NaN]], [['compile', -5]], [[1, 2]], [['x', '3']], { length: 1, 0: ['a', 1] }]) {
      const { load } = await start(steps, 50);
      expect(load!.steps).toEqual([['worker', load!.ms]]);
    }
  });

  it('caps what one step may claim, the names and the number of steps', async () => {
    const { load, statuses } = await start([['x'.repeat(500), 1e12], ...Array.from({ length: 40 }, (_, i) => [`s${i}`, 1])], 50);
    expect(load!.steps[1]![0]).toHaveLength(40);
    expect(load!.steps[1]![1]).toBe(load!.ms);
    expect(load!.steps).toHaveLength(13);
    expect(load!.steps[0]).toEqual(['worker', 0]);
    expect(statuses.at(-1)!.length).toBeLessThan(200);
  });

  it('leaves out steps under 50 ms from the line', () => {
    expect(describeLoad({ ms: 2500, steps: [['worker', 20], ['files', 49], ['start', 2431]] })).toBe('loaded in 2.5 s (start 2.4 s)');
    expect(describeLoad({ ms: 30, steps: [['worker', 30]] })).toBe('loaded in 0.0 s');
  });
});
