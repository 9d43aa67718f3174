/**
 * The CLI hands what a runtime process built while loading to the language's later processes
 * (runtimes/host/node.ts). Only a `shared` message sent before the process's first other message
 * may be kept: after `ready` a program may be running there, and bytes it posted would reach
 * every later worker's compiler. Real processes under the CLI's own flags, with a stand-in worker
 * script (tests/support/fake-worker-process.mjs) that sends `shared` before `ready` (python) or
 * after it (cpp).
 */
import { describe, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import type { LanguageId } from '../../src/contracts';

const workerUrl = new URL('../support/fake-worker-process.mjs', import.meta.url);

/** The init lines of the workers the pool started for `language` while `drive` ran programs on it. */
async function inits(language: LanguageId, poolSize: number, drive: (run: () => Promise<unknown>) => Promise<unknown>): Promise<string[]> {
  const statuses: string[] = [];
  const executor = createNodeExecutor({ poolSize, workerUrl, onStatus: (_l, m) => statuses.push(m) });
  const run = () => executor.run({ language, program: 'x', timeoutMs: 5_000 }).catch(() => undefined);
  const started = () => statuses.filter((s) => s.startsWith('init got'));
  try {
    await drive(run);
    // Until a second worker has started (each program that waits may start one).
    for (let waited = 0; started().length < 2 && waited < 20_000; waited += 50) await drive(run);
    return started();
  } finally {
    await executor.dispose();
  }
}

describe('what one runtime process hands to the next (CLI)', () => {
  it('keeps bytes sent before ready for the next process of the language', async () => {
    // Two programs at once on a pool of two: the second worker starts when the first is ready.
    const got = await inits('python', 2, (run) => Promise.all([run(), run()]));
    expect(got).toEqual(['init got []', 'init got [planted.o]']);
  });

  it('drops bytes sent after ready, and ends the process that sent them', async () => {
    // A pool of one: the second worker is the first one's replacement.
    const got = await inits('cpp', 1, (run) => run());
    expect(got.length).toBeGreaterThanOrEqual(2);
    expect(new Set(got)).toEqual(new Set(['init got []']));
  });
});
