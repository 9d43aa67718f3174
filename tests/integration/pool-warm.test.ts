/**
 * Starting a runtime ahead of its first program (issue #16: the page starts Python when a dataset
 * with Python problems is loaded and its files are cached), in the CLI's pool (the page's is the
 * same class, runtimes/host/pool.ts): `warm` starts exactly one worker, which is ready before any
 * program is asked for, and the first program then goes to it without waiting.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';

const statuses: string[] = [];
const executor = createNodeExecutor({ poolSize: 2, onStatus: (language, message) => statuses.push(`${language}: ${message}`) });
afterAll(() => executor.dispose());

describe('warming a pool', () => {
  it('starts one worker before any program; the first program finds it ready', { timeout: 120_000 }, async () => {
    executor.warm('javascript');
    executor.warm('javascript'); // a second call while it loads starts nothing more
    executor.warm('go'); // no runtime here for Go: nothing happens
    await expect.poll(() => statuses.some((s) => /^javascript: .* ready, loaded in \d/.test(s)), { timeout: 90_000, interval: 50 }).toBe(true);
    expect(statuses.filter((s) => s.startsWith('javascript: loading')).length).toBe(1);
    expect(statuses.some((s) => s.startsWith('go:'))).toBe(false);
    const result = await executor.run({ language: 'javascript', program: 'console.log(6 * 7)', timeoutMs: 10_000 });
    expect(result.stdout).toBe('42\n');
    // Handed to the idle worker at once: no runtime load inside this program's wait.
    expect(result.queuedMs).toBeLessThan(50);
    expect(statuses.filter((s) => s.startsWith('javascript: loading')).length).toBe(1);
  });

  it("says where the worker's start went: the loader's own steps, timed inside the worker", { timeout: 60_000 }, () => {
    const load = executor.lastLoad('javascript')!;
    // QuickJS's steps (runtimes/javascript/quickjs.ts), after the host's own: reading its files, spawning.
    expect(load.steps.map(([name]) => name).filter((name) => name !== 'other')).toEqual(['worker', 'files', 'compile', 'start']);
    for (const [, ms] of load.steps) expect(ms).toBeGreaterThanOrEqual(0);
    const sum = load.steps.reduce((a, [, ms]) => a + ms, 0);
    expect(Math.abs(sum - load.ms)).toBeLessThan(1);
    // Spawning a Node worker process and its script is most of a QuickJS start; the module compile takes some.
    expect(load.steps.find(([name]) => name === 'compile')![1]).toBeGreaterThan(0);
  });
});
