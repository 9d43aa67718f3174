/**
 * The worker pool when its workers die (issue #12, finding 4): a worker that dies mid-run costs
 * that run (exit code 1, so RUNTIME_ERROR) and is replaced; a runtime whose workers keep dying
 * while they load is given up after three in a row, and the programs waiting for it end as
 * infrastructure errors instead of waiting forever. The real deaths (a killed frame renderer) are
 * in tests/e2e/frame.test.ts; here the workers are scripted, to make them die at exact moments.
 */
import { describe, expect, it } from 'vitest';
import { createPoolExecutor } from '../../runtimes/host/pool';
import { InfrastructureError } from '../../src/contracts';
import { scriptedWorkers } from '../support/scripted-workers';

const ok = { exitCode: 0, stdout: 'ok', stderr: '', timedOut: false, durationMs: 1 };

describe('the worker pool when its workers die', () => {
  it('ends the run of a worker that dies as a crash (exit code 1) and runs the next program on a new worker', async () => {
    const workers = scriptedWorkers((m, reply, die, index) => {
      if (m.type === 'init') return reply({ type: 'ready', description: 'scripted' });
      if (index === 0) return die('renderer gone');
      reply({ type: 'result', id: m.id, result: ok });
    });
    const executor = createPoolExecutor({ spawn: workers.spawn, languages: ['python'], size: 1, graceMs: 50 });
    const crashed = await executor.run({ language: 'python', program: 'x', timeoutMs: 10_000 });
    expect(crashed).toMatchObject({ exitCode: 1, timedOut: false });
    expect(crashed.stderr).toContain('renderer gone');
    await expect(executor.run({ language: 'python', program: 'x', timeoutMs: 10_000 })).resolves.toMatchObject({ exitCode: 0, stdout: 'ok' });
    await executor.dispose();
  });

  it('gives up a runtime whose workers die three times in a row while loading: waiting programs are infrastructure errors', async () => {
    const workers = scriptedWorkers((m, _reply, die) => {
      if (m.type === 'init') die('out of memory while loading');
    });
    const executor = createPoolExecutor({ spawn: workers.spawn, languages: ['python'], size: 1 });
    const run = executor.run({ language: 'python', program: 'x', timeoutMs: 10_000 });
    await expect(run).rejects.toBeInstanceOf(InfrastructureError);
    await expect(run).rejects.toThrow(/stopped 3 times while loading \(out of memory while loading\)/);
    expect(workers.count()).toBe(3);
    await expect(executor.run({ language: 'python', program: 'x', timeoutMs: 10_000 })).rejects.toBeInstanceOf(InfrastructureError);
    await executor.dispose();
  });

  it('keeps a runtime whose load deaths are not in a row (a ready worker resets the count)', async () => {
    const workers = scriptedWorkers((m, reply, die, index) => {
      // Workers 0, 1 die loading; 2 loads and dies in its run; 3, 4 die loading; 5 works.
      if (m.type === 'init') return [0, 1, 3, 4].includes(index) ? die('lost') : reply({ type: 'ready', description: 'scripted' });
      if (index === 2) return die('lost');
      reply({ type: 'result', id: m.id, result: ok });
    });
    const executor = createPoolExecutor({ spawn: workers.spawn, languages: ['python'], size: 1 });
    await expect(executor.run({ language: 'python', program: 'x', timeoutMs: 10_000 })).resolves.toMatchObject({ exitCode: 1 });
    await expect(executor.run({ language: 'python', program: 'x', timeoutMs: 10_000 })).resolves.toMatchObject({ exitCode: 0 });
    expect(workers.count()).toBe(6);
    await executor.dispose();
  });
});
