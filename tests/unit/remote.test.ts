/** Pure parts of the runner and its client: Java's JUnit verdict, answer mapping, the queue. */
import { describe, expect, it } from 'vitest';
import { judgeRun } from '../../src/core/rules';
import type { ExecutionReport } from '../../src/contracts';
import { runResultFromResponse, type SubmitResponse } from '../../runtimes/remote/protocol';
import { parseJUnitReport } from '../../runner/java';
import { Limiter, QueueFullError } from '../../runner/limiter';

const run = (over: Partial<ExecutionReport>): ExecutionReport => ({ exitCode: 0, stdout: '', stderr: '', timedOut: false, ...over });

describe('Java verdict from JUnit (SPEC §5)', () => {
  it('reads the counts of the console launcher\'s XML report', () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="JUnit Jupiter" tests="3" skipped="1" failures="1" errors="1" time="0.1" hostname="x" timestamp="t">\n<testcase/></testsuite>';
    expect(parseJUnitReport(xml)).toEqual({ tests: 3, failed: 2, skipped: 1 });
    expect(parseJUnitReport('<testsuite name="JUnit Jupiter" tests="0" skipped="0" failures="0" errors="0">')).toEqual({ tests: 0, failed: 0, skipped: 0 });
    expect(parseJUnitReport('')).toBeNull();
    expect(parseJUnitReport('not xml')).toBeNull();
  });

  it('the launcher\'s exit code first, then failed tests → WRONG_ANSWER, no tests or no report → RUNTIME_ERROR, a hang → PASSED (official quirk)', () => {
    expect(judgeRun('java', run({ testReport: { tests: 2, failed: 0, skipped: 0 } }))).toBe('PASSED');
    // The console launcher exits 1 when a test fails: the exit code decides first (SPEC §5, corrected).
    expect(judgeRun('java', run({ exitCode: 1, testReport: { tests: 2, failed: 1, skipped: 0 } }))).toBe('RUNTIME_ERROR');
    expect(judgeRun('java', run({ exitCode: 0, testReport: { tests: 2, failed: 1, skipped: 0 } }))).toBe('WRONG_ANSWER');
    expect(judgeRun('java', run({ exitCode: 1, testReport: { tests: 2, failed: 0, skipped: 0 } }))).toBe('RUNTIME_ERROR');
    expect(judgeRun('java', run({ testReport: { tests: 0, failed: 0, skipped: 0 } }))).toBe('RUNTIME_ERROR');
    expect(judgeRun('java', run({ testReport: { tests: 1, failed: 0, skipped: 1 } }))).toBe('RUNTIME_ERROR');
    expect(judgeRun('java', run({ exitCode: 1, testReport: null }))).toBe('RUNTIME_ERROR');
    expect(judgeRun('java', run({ exitCode: null, timedOut: true }))).toBe('PASSED');
    expect(judgeRun('java', run({ compileFailed: true }))).toBe('COMPILATION_ERROR');
    expect(judgeRun('java', run({ compileTimedOut: true }))).toBe('TIME_LIMIT_EXCEEDED');
    // Other languages keep the generic rule.
    expect(judgeRun('kotlin', run({ exitCode: null, timedOut: true }))).toBe('TIME_LIMIT_EXCEEDED');
  });
});

describe('runner answers → RunResult', () => {
  const answer = (over: Partial<SubmitResponse>): SubmitResponse => ({
    src_uid: 'x', all_code: '', exec_outcome: 'PASSED', exec_cout: '', exec_compile_message: '', exec_runtime_message: '', response_extensions: {}, ...over,
  });

  it('a benchtop runner\'s answer is judged to the same outcome', () => {
    for (const [outcome, ext] of [
      ['WRONG_ANSWER', { exit_code: 0, stdout: 'Test failed', stderr: '', timeout: false }],
      ['RUNTIME_ERROR', { exit_code: 1, stdout: '', stderr: 'Traceback', timeout: false }],
      ['TIME_LIMIT_EXCEEDED', { exit_code: null, stdout: '', stderr: '', timeout: true }],
      ['PASSED', { exit_code: 0, stdout: 'ok', stderr: '', timeout: false }],
    ] as const) {
      expect(judgeRun('javascript', runResultFromResponse('javascript', answer({ exec_outcome: outcome, response_extensions: ext }), 5))).toBe(outcome);
    }
    const compile = answer({ exec_outcome: 'COMPILATION_ERROR', response_extensions: { exit_code: null, compile_failed: true, compile_output: 'error', timeout: false } });
    expect(judgeRun('cpp', runResultFromResponse('cpp', compile, 5))).toBe('COMPILATION_ERROR');
    const compileTimeout = answer({ exec_outcome: 'TIME_LIMIT_EXCEEDED', response_extensions: { exit_code: null, compile_timed_out: true, timeout: true } });
    expect(runResultFromResponse('cpp', compileTimeout, 5)).toMatchObject({ compileTimedOut: true, timedOut: false });
    expect(judgeRun('cpp', runResultFromResponse('cpp', compileTimeout, 5))).toBe('TIME_LIMIT_EXCEEDED');
  });

  it('an official sandbox\'s answer (no compile flags, no JUnit counts) keeps its outcome', () => {
    const official = (outcome: SubmitResponse['exec_outcome'], stderr = '') => answer({
      exec_outcome: outcome, exec_compile_message: outcome === 'COMPILATION_ERROR' ? 'error: x' : '',
      // WRONG_ANSWER implies exit 0 under the corrected rules (SPEC §4).
      response_extensions: { exit_code: outcome === 'PASSED' || outcome === 'WRONG_ANSWER' ? 0 : 1, stdout: '', stderr, timeout: outcome === 'TIME_LIMIT_EXCEEDED' },
    });
    expect(judgeRun('cpp', runResultFromResponse('cpp', official('COMPILATION_ERROR'), 5))).toBe('COMPILATION_ERROR');
    expect(judgeRun('java', runResultFromResponse('java', official('WRONG_ANSWER'), 5))).toBe('WRONG_ANSWER');
    expect(judgeRun('java', runResultFromResponse('java', official('PASSED'), 5))).toBe('PASSED');
    expect(judgeRun('java', runResultFromResponse('java', official('RUNTIME_ERROR'), 5))).toBe('RUNTIME_ERROR');
    expect(judgeRun('go', runResultFromResponse('go', official('TIME_LIMIT_EXCEEDED'), 5))).toBe('TIME_LIMIT_EXCEEDED');
  });
});

describe('runner queue', () => {
  it('runs at most N at once, queues up to the limit, refuses beyond it with a Retry-After', async () => {
    const limiter = new Limiter(2, 1);
    let running = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const job = (slot: number) => new Promise<number>((resolve) => {
      running++;
      peak = Math.max(peak, running);
      releases.push(() => { running--; resolve(slot); });
    });
    const a = limiter.run(job);
    const b = limiter.run(job);
    const c = limiter.run(job);
    await expect(limiter.run(job)).rejects.toBeInstanceOf(QueueFullError);
    expect([limiter.running, limiter.queued]).toEqual([2, 1]);
    releases.shift()!();
    await a;
    await new Promise((r) => setTimeout(r, 0));
    releases.shift()!();
    releases.shift()!();
    const slots = await Promise.all([b, c]);
    expect(peak).toBe(2);
    expect(new Set(slots).size).toBe(2);
    expect(new QueueFullError(3).retryAfterSeconds).toBe(3);
  });

  it('a request cancelled while queued leaves the queue', async () => {
    const limiter = new Limiter(1, 5);
    let release!: () => void;
    const first = limiter.run(() => new Promise<void>((r) => { release = r; }));
    const cancel = new AbortController();
    const queued = limiter.run(async () => 'ran', cancel.signal);
    expect(limiter.queued).toBe(1);
    cancel.abort();
    await expect(queued).rejects.toThrow(/cancelled/);
    expect(limiter.queued).toBe(0);
    release();
    await first;
    expect(limiter.running).toBe(0);
  });
});
