/**
 * The compile step and the run step each get the whole time limit (SPEC §4: the official sandbox
 * times them apart, as our runner does): a compiling runtime's worker says `compiled` once per run
 * and the host starts the limit again. Because that message lengthens a run, only a compiling
 * runtime may send it, once, for the run in progress; anything else ends the worker as any
 * unexpected message does. Workers are scripted here, for exact moments; the real C++ worker's
 * message is covered in tests/integration/runtime-cpp.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createPoolExecutor } from '../../runtimes/host/pool';
import type { HostMessage, WorkerMessage } from '../../runtimes/host/protocol';
import type { LanguageId } from '../../src/contracts';
import { judgeRun } from '../../src/core/rules';
import { scriptedWorkers } from '../support/scripted-workers';

const LIMIT_MS = 600;
const ok = { exitCode: 0, stdout: 'ok', stderr: '', timedOut: false, durationMs: 1 };

/** A worker whose runs take `compileMs`, say `compiled` (as `extra` says, how often, with which id), then take `runMs`. */
function timedWorkers(compileMs: number, runMs: number, extra: { times?: number; wrongId?: boolean } = {}) {
  return scriptedWorkers((m: HostMessage, reply: (m: WorkerMessage) => void) => {
    if (m.type === 'init') return reply({ type: 'ready', description: 'scripted' });
    if (m.type !== 'run') return;
    setTimeout(() => {
      for (let i = 0; i < (extra.times ?? 1); i++) reply({ type: 'compiled', id: extra.wrongId ? m.id + 1 : m.id });
      setTimeout(() => reply({ type: 'result', id: m.id, result: ok }), runMs);
    }, compileMs);
  });
}

function executorFor(language: LanguageId, workers: ReturnType<typeof scriptedWorkers>) {
  return createPoolExecutor({ spawn: workers.spawn, languages: [language], size: 1, graceMs: 50 });
}

describe('the time limit of a compiling runtime, step by step', () => {
  it('passes a program whose compile and run each fit the limit, though together they do not', async () => {
    const executor = executorFor('cpp', timedWorkers(0.7 * LIMIT_MS, 0.7 * LIMIT_MS));
    const r = await executor.run({ language: 'cpp', program: 'x', timeoutMs: LIMIT_MS });
    expect(r).toMatchObject({ exitCode: 0, timedOut: false });
    expect(judgeRun('cpp', r)).toBe('PASSED');
    await executor.dispose();
  });

  it('ends a compile step past the limit as the compile step timing out (TIME_LIMIT_EXCEEDED)', async () => {
    const executor = executorFor('cpp', timedWorkers(3 * LIMIT_MS, 0));
    const started = performance.now();
    const r = await executor.run({ language: 'cpp', program: 'x', timeoutMs: LIMIT_MS });
    expect(r).toMatchObject({ exitCode: null, timedOut: false, compileTimedOut: true });
    expect(judgeRun('cpp', r)).toBe('TIME_LIMIT_EXCEEDED');
    expect(performance.now() - started).toBeLessThan(2 * LIMIT_MS);
    await executor.dispose();
  });

  it('ends a run step past the limit as the run timing out, the limit counted from the end of the compile', async () => {
    const executor = executorFor('cpp', timedWorkers(0.5 * LIMIT_MS, 3 * LIMIT_MS));
    const started = performance.now();
    const r = await executor.run({ language: 'cpp', program: 'x', timeoutMs: LIMIT_MS });
    expect(r).toMatchObject({ exitCode: null, timedOut: true });
    expect(r.compileTimedOut).toBeUndefined();
    expect(performance.now() - started).toBeGreaterThanOrEqual(1.5 * LIMIT_MS - 5);
    await executor.dispose();
  });

  it('keeps one limit for a runtime without a compile step: its `compiled` ends the worker, and the run is not lengthened', async () => {
    const workers = timedWorkers(0.7 * LIMIT_MS, 0.7 * LIMIT_MS);
    const executor = executorFor('python', workers);
    const r = await executor.run({ language: 'python', program: 'x', timeoutMs: LIMIT_MS });
    expect(r).toMatchObject({ exitCode: 1, timedOut: false });
    expect(r.stderr).toContain('unexpected message from the worker');
    expect(judgeRun('python', r)).toBe('RUNTIME_ERROR');
    expect(workers.count()).toBe(2); // replaced
    await executor.dispose();
  });

  it('does not let a worker start the limit again twice in one run, or for another run', async () => {
    for (const extra of [{ times: 2 }, { wrongId: true }]) {
      const workers = timedWorkers(0.7 * LIMIT_MS, 0.7 * LIMIT_MS, extra);
      const executor = executorFor('cpp', workers);
      const r = await executor.run({ language: 'cpp', program: 'x', timeoutMs: LIMIT_MS });
      expect(r.stderr, JSON.stringify(extra)).toContain('unexpected message from the worker');
      expect(r.exitCode).toBe(1);
      expect(workers.count()).toBe(2);
      await executor.dispose();
    }
  });
});
