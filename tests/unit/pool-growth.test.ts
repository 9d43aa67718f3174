/**
 * When a pool starts another worker (runtimes/host/pool.ts, workersWanted). Told how many runs
 * are coming (Executor.expect, as the engine says before a run), a pool adds a worker only while
 * the work left per worker, at the measured mean run, is over twice a worker's measured start;
 * told nothing, it grows whenever programs wait. Workers are scripted (a start and a run of fixed
 * length), so the figures are the rule's own: 4 runs of 40 ms left against a 300 ms start must not
 * start a second worker; 60 runs of 40 ms against a 100 ms start must.
 */
import { describe, expect, it } from 'vitest';
import { createPoolExecutor } from '../../runtimes/host/pool';
import type { HostMessage, WorkerMessage } from '../../runtimes/host/protocol';
import type { Executor, LanguageId } from '../../src/contracts';
import { evaluateAll } from '../../src/core/engine';
import { parseDataset } from '../../src/core/records';
import { scriptedWorkers } from '../support/scripted-workers';

const ok = { exitCode: 0, stdout: 'ok', stderr: '', timedOut: false, durationMs: 1 };

function timedWorkers(startMs: number, runMs: number) {
  return scriptedWorkers((m: HostMessage, reply: (m: WorkerMessage) => void) => {
    if (m.type === 'init') setTimeout(() => reply({ type: 'ready', description: 'scripted' }), startMs);
    else if (m.type === 'run') setTimeout(() => reply({ type: 'result', id: m.id, result: ok }), runMs);
  });
}

/**
 * A pool of size 2 of scripted workers (`startMs` to load, `runMs` per run), told of `told` runs
 * (or nothing), sent `programs` two at a time as the engine's two lanes do: the workers it
 * started and the time the programs took.
 */
async function poolRun(startMs: number, runMs: number, told: number | null, programs: number): Promise<{ workers: number; ms: number }> {
  const workers = timedWorkers(startMs, runMs);
  const executor = createPoolExecutor({ spawn: workers.spawn, languages: ['python'], size: 2 });
  if (told !== null) executor.expect('python', told);
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < programs) {
      next++;
      await executor.run({ language: 'python', program: 'print(1)', timeoutMs: 10_000 });
    }
  };
  await Promise.all([lane(), lane()]);
  const ms = performance.now() - started;
  await executor.dispose();
  return { workers: workers.count(), ms };
}

describe('how many workers a pool starts', () => {
  it('grows to its size whenever programs wait, when nobody said how many are coming', async () => {
    expect((await poolRun(300, 40, null, 4)).workers).toBe(2);
  });

  it('keeps one worker when the runs left would not earn back a second one’s start', async () => {
    expect((await poolRun(300, 40, 4, 4)).workers).toBe(1);
  });

  it('starts a second worker when enough runs are coming, once a start and a run are measured', async () => {
    const { workers, ms } = await poolRun(100, 40, 60, 60);
    expect(workers).toBe(2);
    // Two workers share the 60 runs: well under the 2.4 s that one worker would take.
    expect(ms).toBeLessThan(2_200);
  });

  it('never grows past its size, however much is coming', async () => {
    expect((await poolRun(20, 20, 1_000, 40)).workers).toBe(2);
  });
});

describe('what the engine tells the executor before a run', () => {
  it('two runs (demo and full) per pending chain, per language; nothing for a language it cannot run', async () => {
    const record = (language: string, question: string) => JSON.stringify({
      question, canonical_solution: 'x = 1', language, difficulty: 'easy', demo_test_func: 'assert True', full_test_func: 'assert True',
    });
    const { problems } = parseDataset([record('python', 'a'), record('python', 'b'), record('ruby', 'c'), record('cpp', 'd')].join('\n'));
    const told: Array<[LanguageId, number]> = [];
    const executor: Executor = {
      languages: () => ['python', 'ruby'],
      expect: (language, runs) => told.push([language, runs]),
      run: async () => ({ exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 1, runtime: 'fake' }),
      dispose: async () => {},
    };
    const model = { id: 'canonical', answer: async () => ({ text: '```python\nx = 1\n```' }) };
    await evaluateAll(problems, model, executor, { samples: 3 });
    expect(Object.fromEntries(told)).toEqual({ python: 12, ruby: 6 });
  });
});
