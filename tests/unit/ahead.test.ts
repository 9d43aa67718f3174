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
import type { LanguageRuntime } from '../../src/contracts';

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

  it('leaves a failure ahead for the run, which does the step again and meets it', async () => {
    let fail = true;
    let steps = 0;
    const ahead = new AheadStep(() => {
      steps++;
      if (fail) throw new Error('cannot put back');
    });
    await expect(ahead.prepare()).resolves.toBeUndefined();
    await expect(ahead.ensure()).rejects.toThrow('cannot put back');
    expect(steps).toBe(2);
    fail = false;
    await ahead.prepare();
    fail = true; // done ahead: the run does not do it again
    await expect(ahead.ensure()).resolves.toBeUndefined();
    expect(steps).toBe(3);
  });
});

describe('serve', () => {
  /** A worker served in-process; `log` records the runtime's calls and the worker's results in order. */
  function worker(outcome: (program: string) => 'ok' | 'retire' | 'crash') {
    const log: string[] = [];
    let handler: ((m: HostMessage) => void) | null = null;
    const runtime: LanguageRuntime = {
      description: 'test',
      async run(program) {
        log.push(`run ${program}`);
        const what = outcome(program);
        if (what === 'crash') throw new Error('broken');
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
});
