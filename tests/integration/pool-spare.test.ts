/**
 * A runaway does not hold up its language (issue #17, item 4), in the CLI's pool (the page's is the
 * same class, runtimes/host/pool.ts): with one worker busy on a program that runs to its limit,
 * a spare starts after SPARE_AFTER_MS and the quick programs behind finish long before the
 * runaway; each result says how long it waited apart from how long it ran.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { SPARE_AFTER_MS } from '../../runtimes/host/pool';

const executor = createNodeExecutor({ poolSize: 1 });
afterAll(() => executor.dispose());

describe('a pool with a runaway', () => {
  it('starts a spare worker: the quick programs finish first, with their wait apart from their run', { timeout: 120_000 }, async () => {
    // A warm worker first, so the figures below are not the runtime's start.
    await executor.run({ language: 'javascript', program: 'console.log(1)', timeoutMs: 10_000 });
    const LIMIT_MS = 20_000;
    const started = performance.now();
    const finished: string[] = [];
    const note = (name: string) => (r: Awaited<ReturnType<typeof executor.run>>) => { finished.push(name); return { ...r, at: performance.now() - started }; };
    const runaway = executor.run({ language: 'javascript', program: 'for (;;) {}', timeoutMs: LIMIT_MS }).then(note('runaway'));
    const quick = [1, 2, 3].map((n) => executor.run({ language: 'javascript', program: `console.log(${n})`, timeoutMs: 10_000 }).then(note(`quick ${n}`)));
    const results = await Promise.all(quick);
    const slow = await runaway;
    expect(finished).toEqual(['quick 1', 'quick 2', 'quick 3', 'runaway']);
    expect(slow.timedOut).toBe(true);
    for (const r of results) {
      expect(r.stdout).toMatch(/^\d\n$/);
      // They waited for the spare (the pool has one worker, held by the runaway), then ran briefly.
      expect(r.queuedMs).toBeGreaterThanOrEqual(SPARE_AFTER_MS - 50);
      expect(r.durationMs).toBeLessThan(2000);
      expect(r.at).toBeLessThan(LIMIT_MS - 2000);
    }
    console.log(`pool with a runaway: quick programs done after ${results.map((r) => (r.at / 1000).toFixed(1)).join(', ')} s (waited ${results.map((r) => ((r.queuedMs ?? 0) / 1000).toFixed(1)).join(', ')} s), the runaway after ${(slow.at / 1000).toFixed(1)} s`);
  });
});
