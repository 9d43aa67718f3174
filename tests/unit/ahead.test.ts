/**
 * A runtime's clean slate may be put back ahead of the next program (LanguageRuntime.prepare,
 * runtimes/host/ahead.ts), right after the worker posted a result. These check the two halves:
 * the worker asks for it only between runs (never after a run that retires or crashes the
 * runtime), and a run never starts on a slate that was not put back since the last program.
 */
import { describe, expect, it } from 'vitest';
import { AheadStep } from '../../runtimes/host/ahead';
import { serve } from '../../runtimes/host/serve';
import type { HostMessage, WorkerMessage } from '../../runtimes/host/protocol';
import { InfrastructureError, RunNotStarted, type LanguageRuntime } from '../../src/contracts';
import { createPoolExecutor, type WorkerHandle } from '../../runtimes/host/pool';
import { scriptedWorkers } from '../support/scripted-workers';

describe('AheadStep', () => {
  it('does the step at the run when it was not done ahead, and once when it was', async () => {
    let steps = 0;
    const ahead = new AheadStep(() => void steps++);
    await ahead.ensure();
    expect(steps).toBe(1);
    await ahead.prepare();
    await ahead.ensure();
    expect(steps).toBe(2);
    // The next run: nothing was done ahead of it.
    await ahead.ensure();
    expect(steps).toBe(3);
  });

  it('keeps a failure ahead for the run, which then does not start its program nor try the step again', async () => {
    let fail = true;
    let steps = 0;
    const ahead = new AheadStep(() => {
      steps++;
      if (fail) throw new Error('cannot put back');
    });
    await expect(ahead.prepare()).resolves.toBeUndefined();
    const met = await ahead.ensure().catch((e: unknown) => e);
    expect(met).toBeInstanceOf(RunNotStarted);
    expect((met as Error).message).toContain('cannot put back');
    expect(steps).toBe(1); // a half-done put-back is not put back again over itself
    // Failing at the run itself (nothing done ahead): the same.
    const direct = new AheadStep(() => {
      throw new Error('no instance');
    });
    await expect(direct.ensure()).rejects.toBeInstanceOf(RunNotStarted);
    fail = false;
    await ahead.prepare();
    fail = true; // done ahead: the run does not do it again
    await expect(ahead.ensure()).resolves.toBeUndefined();
    expect(steps).toBe(2);
  });
});

describe('serve', () => {
  /** A worker served in-process; `log` records the runtime's calls and the worker's results in order. */
  function worker(outcome: (program: string) => 'ok' | 'retire' | 'crash' | 'not started') {
    const log: string[] = [];
    let handler: ((m: HostMessage) => void) | null = null;
    const runtime: LanguageRuntime = {
      description: 'test',
      async run(program) {
        log.push(`run ${program}`);
        const what = outcome(program);
        if (what === 'crash') throw new Error('broken');
        if (what === 'not started') throw new RunNotStarted('no clean slate');
        return { exitCode: 0, stdout: program, stderr: '', timedOut: false, durationMs: 0, ...(what === 'retire' ? { retire: true } : {}) };
      },
      async prepare() {
        log.push('prepare');
      },
    };
    let closed = false;
    serve({
      post: (m: WorkerMessage) => {
        if (m.type === 'result') log.push(`result ${m.id}${m.fatal ? ' fatal' : ''}`);
        if (m.type === 'retired') log.push(`retired ${m.id}: ${m.reason}`);
      },
      listen: (h) => (handler = h),
      close: () => void (closed = true),
    }, () => Promise.resolve(runtime));
    const send = (m: HostMessage) => handler!(m);
    const settle = () => new Promise((r) => setTimeout(r, 10));
    return { log, send, settle, closed: () => closed };
  }

  it('asks for the next clean slate after posting a result, before it starts the next run', async () => {
    const w = worker(() => 'ok');
    w.send({ type: 'init', language: 'javascript', settings: {} });
    w.send({ type: 'run', id: 1, program: 'a', timeoutMs: 1000 });
    w.send({ type: 'run', id: 2, program: 'b', timeoutMs: 1000 });
    await w.settle();
    expect(w.log).toEqual(['run a', 'result 1', 'prepare', 'run b', 'result 2', 'prepare']);
  });

  it('does not ask after a run that retires the runtime or crashes it: the worker ends', async () => {
    for (const what of ['retire', 'crash'] as const) {
      const w = worker(() => what);
      w.send({ type: 'init', language: 'javascript', settings: {} });
      w.send({ type: 'run', id: 1, program: 'a', timeoutMs: 1000 });
      await w.settle();
      expect(w.log).toEqual(['run a', 'result 1 fatal']);
      expect(w.closed()).toBe(true);
    }
  });

  it('gives back, without a result, a run whose program could not start, and ends the worker', async () => {
    const w = worker(() => 'not started');
    w.send({ type: 'init', language: 'javascript', settings: {} });
    w.send({ type: 'run', id: 1, program: 'a', timeoutMs: 1000 });
    await w.settle();
    expect(w.log).toEqual(['run a', 'retired 1: no clean slate']);
    expect(w.closed()).toBe(true);
  });
});

describe('a pool, when a worker cannot start a program', () => {
  /**
   * Workers served in-process (serve, as in a real worker), each with a runtime whose clean slate
   * is an AheadStep that fails for the workers `broken` names: the pool's whole path from a failed
   * put-back to the program's result.
   */
  function servedWorkers(broken: (index: number) => boolean) {
    let spawned = 0;
    const ran: Array<[number, string]> = [];
    const spawn = (): WorkerHandle => {
      const index = spawned++;
      let toHost: (m: WorkerMessage) => void = () => {};
      let toWorker: ((m: HostMessage) => void) | null = null;
      let alive = true;
      const putBack = new AheadStep(() => {
        if (broken(index)) throw new Error(`instance ${index} cannot be made`);
      });
      const runtime: LanguageRuntime = {
        description: 'served',
        async run(program) {
          await putBack.ensure();
          ran.push([index, program]);
          return { exitCode: 0, stdout: `${program} on ${index}`, stderr: '', timedOut: false, durationMs: 0 };
        },
        prepare: () => putBack.prepare(),
      };
      serve({
        // What a worker posted before it closed still arrives, as with a real worker.
        post: (m) => void (alive && queueMicrotask(() => toHost(m))),
        listen: (h) => (toWorker = h),
        close: () => void (alive = false),
      }, () => Promise.resolve(runtime));
      return {
        post: (m) => queueMicrotask(() => alive && toWorker?.(m)),
        onMessage: (h) => (toHost = h),
        onExit: () => {},
        terminate: () => void (alive = false),
      };
    };
    return { spawn, ran, count: () => spawned };
  }

  it('runs the program on a new worker: the broken one gives no verdict, and ran nothing', async () => {
    const workers = servedWorkers((i) => i === 0);
    const executor = createPoolExecutor({ spawn: workers.spawn, languages: ['javascript'], size: 1 });
    const result = await executor.run({ language: 'javascript', program: 'p', timeoutMs: 5000 });
    expect(result.stdout).toBe('p on 1');
    expect(workers.ran).toEqual([[1, 'p']]);
    expect(workers.count()).toBe(2);
    await executor.dispose();
  });

  it('ends a run that no worker can start as an infrastructure error, after three workers', async () => {
    const workers = servedWorkers(() => true);
    const executor = createPoolExecutor({ spawn: workers.spawn, languages: ['javascript'], size: 1 });
    const error = await executor.run({ language: 'javascript', program: 'p', timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as Error).message).toMatch(/3 javascript workers in a row could not start this program \(the clean slate could not be made \(instance 2 cannot be made\)\)/);
    expect(workers.ran).toEqual([]);
    await executor.dispose();
  });

  it('takes a give-back only for the run in progress: any other ends the worker like any unexpected message', async () => {
    for (const [language, script] of [
      ['javascript', (m: HostMessage & { type: 'run' }, reply: (m: WorkerMessage) => void) => reply({ type: 'retired', id: m.id + 1, reason: 'x' })],
      ['cpp', (m: HostMessage & { type: 'run' }, reply: (m: WorkerMessage) => void) => {
        reply({ type: 'compiled', id: m.id });
        reply({ type: 'retired', id: m.id, reason: 'after its program began' });
      }],
    ] as const) {
      const workers = scriptedWorkers((m, reply) => (m.type === 'init' ? reply({ type: 'ready', description: 'scripted' }) : m.type === 'run' ? script(m, reply) : undefined));
      const executor = createPoolExecutor({ spawn: workers.spawn, languages: [language], size: 1 });
      const r = await executor.run({ language, program: 'p', timeoutMs: 5000 });
      expect(r.stderr, language).toContain('unexpected message from the worker');
      expect(workers.count(), language).toBe(2);
      await executor.dispose();
    }
  });
});
