/**
 * The client side (runtimes/remote): the remote Executor against real runners (load spread,
 * fail-over, retries with Retry-After, INFRA_ERROR when retries run out), the per-language
 * routing, and `npm run eval -- --runner` / `npm run conformance -- --runner`.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateAll } from '../../src/core/engine';
import { summarize } from '../../src/core/metrics';
import { parseDataset } from '../../src/core/records';
import { canonicalModel } from '../../src/models/canonical';
import { InfrastructureError, type Executor, type RunRequest } from '../../src/contracts';
import { connectRemoteExecutor } from '../../runtimes/remote/executor';
import { createRoutedExecutor, routeFor } from '../../runtimes/remote/routing';
import type { SubmitResponse } from '../../runtimes/remote/protocol';
import type { StartedRunner } from '../../runner/runner';
import { startTestRunner } from '../support/runner-helpers';
import { tempDirs } from '../support/temp-dirs';

const tempDir = tempDirs('benchtop-remote-cli-');

const record = (language: string, solution: string, demo: string, full = demo) => JSON.stringify({
  question: `${language}: ${solution.slice(0, 40)}`, canonical_solution: solution, demo_test_func: demo, full_test_func: full, language, difficulty: 'easy',
});

/** A small dataset: compiled languages (runner), Python (in-process runtime), Julia (nowhere here). */
const DATASET = [
  record('cpp', 'int twice(int x) { return 2 * x; }', '#include <cassert>\nint main() { assert(twice(2) == 4); }', '#include <cassert>\nint main() { assert(twice(0) == 0); assert(twice(-3) == -6); }'),
  record('go', 'package main\n\nfunc Twice(x int) int { return 2 * x }', 'package main\n\nimport "testing"\n\nfunc TestTwice(t *testing.T) {\n\tif Twice(2) != 4 {\n\t\tt.Fatal("bad")\n\t}\n}'),
  record('java', 'public class Twice {\n    public static int of(int x) { return 2 * x; }\n}', 'import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\npublic class TwiceTest {\n    @Test\n    public void doubles() { assertEquals(4, Twice.of(2)); }\n}'),
  record('ruby', 'def twice(x)\n  2 * x\nend', 'raise "Test failed" unless twice(2) == 4'),
  record('python', 'def twice(x):\n    return 2 * x', 'assert twice(2) == 4'),
  record('julia', 'twice(x) = 2x', '@assert twice(2) == 4'),
].join('\n') + '\n';

let a: StartedRunner;
let b: StartedRunner;
beforeAll(async () => {
  [a, b] = await Promise.all([startTestRunner(), startTestRunner()]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

/** A real HTTP server scripted per request: answers[i] is the i-th reply. */
async function scripted(answers: Array<{ status: number; body: object | string; headers?: Record<string, string> }>): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    const answer = answers[Math.min(hits++, answers.length - 1)]!;
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

const LANGUAGES = { languages: [{ id: 'cpp', name: 'C++', available: true, version: 'fake g++', command: '', official_command: '', official_version: '', timeout_seconds: 33 }] };
const PASSED: SubmitResponse = {
  src_uid: 'x', all_code: '', exec_outcome: 'PASSED', exec_cout: 'hi\n', exec_compile_message: '', exec_runtime_message: '',
  response_extensions: { exit_code: 0, stdout: 'hi\n', stderr: '', timeout: false },
};
const cppRequest: RunRequest = { language: 'cpp', program: '#include <cstdio>\nint main() { puts("hi"); }', timeoutMs: 10_000 };

describe('remote executor', () => {
  it('offers the runners\' available languages and runs programs on them, spreading the load', async () => {
    const remote = await connectRemoteExecutor({ urls: [a.url, b.url] });
    expect(remote.languages()).toEqual(expect.arrayContaining(['cpp', 'go', 'java', 'python']));
    expect(remote.languages()).not.toContain('julia');
    let peakA = 0;
    let peakB = 0;
    const sampler = setInterval(() => {
      const load = remote.client.load();
      peakA = Math.max(peakA, load[a.url] ?? 0);
      peakB = Math.max(peakB, load[b.url] ?? 0);
    }, 2);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => remote.run({ language: 'shell', program: `sleep 0.2; echo ${i}`, timeoutMs: 10_000 })));
    clearInterval(sampler);
    expect(results.map((r) => r.stdout)).toEqual(Array.from({ length: 8 }, (_, i) => `${i}\n`));
    expect(peakA).toBeGreaterThan(0);
    expect(peakB).toBeGreaterThan(0);
    expect(results[0]!.runtime).toContain('benchtop runner');
  });

  it('fails over from a dead runner to a live one', async () => {
    const dead = await scripted([{ status: 200, body: LANGUAGES }]);
    const remote = await connectRemoteExecutor({ urls: [dead.url, a.url], backoffMs: 10 });
    await dead.close();
    const results = await Promise.all(Array.from({ length: 4 }, () => remote.run(cppRequest)));
    expect(results.every((r) => r.exitCode === 0 && r.stdout === 'hi\n')).toBe(true);
  });

  it('retries 503 (honouring Retry-After) and 5xx, then succeeds', async () => {
    const fake = await scripted([
      { status: 200, body: LANGUAGES },
      { status: 503, body: { exec_outcome: 'INTERNAL_ERROR' }, headers: { 'retry-after': '1' } },
      { status: 502, body: 'Bad Gateway' },
      { status: 200, body: PASSED },
    ]);
    const delays: number[] = [];
    try {
      const remote = await connectRemoteExecutor({ urls: [fake.url], backoffMs: 20, onRetry: (e) => delays.push(e.delayMs) });
      const started = performance.now();
      const result = await remote.run(cppRequest);
      expect(result).toMatchObject({ exitCode: 0, stdout: 'hi\n', timedOut: false, compileFailed: false });
      expect(fake.hits()).toBe(4);
      expect(delays[0]).toBe(1000);
      expect(delays[1]).toBeLessThan(100);
      expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
    } finally {
      await fake.close();
    }
  });

  it('throws InfrastructureError when retries run out, and the engine records INFRA_ERROR (excluded from Pass@1)', async () => {
    const flaky = await scripted([{ status: 200, body: LANGUAGES }, { status: 500, body: { exec_outcome: 'INTERNAL_ERROR', exec_runtime_message: 'boom' } }]);
    try {
      const remote = await connectRemoteExecutor({ urls: [flaky.url], attempts: 3, backoffMs: 5 });
      await expect(remote.run(cppRequest)).rejects.toThrow(InfrastructureError);
      await expect(remote.run(cppRequest)).rejects.toThrow(/after 3 attempts.*HTTP 500: boom/);
      const problems = parseDataset(DATASET).problems.filter((p) => p.language === 'cpp');
      const results = await evaluateAll(problems, canonicalModel, remote, { concurrency: 1 });
      expect(results[0]!.verdict).toBe('infra_error');
      const summary = summarize(results);
      expect(summary).toMatchObject({ total: 0, infraErrors: 1 });
    } finally {
      await flaky.close();
    }
  });

  it('a refused token is an infrastructure error at once, not retried', async () => {
    const guarded = await startTestRunner({ token: 'right' });
    try {
      const remote = await connectRemoteExecutor({ urls: [guarded.url], token: 'wrong' });
      expect(remote.runners[0]!.error).toMatch(/refused the request \(401\)/);
      expect(remote.languages()).toEqual([]);
      const ok = await connectRemoteExecutor({ urls: [guarded.url], token: 'right' });
      expect((await ok.run(cppRequest)).stdout).toBe('hi\n');
    } finally {
      await guarded.close();
    }
  });
});

describe('routing per language', () => {
  const fakeLocal = (languages: string[]): Executor => ({
    languages: () => languages as never,
    run: async (r) => ({ exitCode: 0, stdout: `local ${r.language}\n`, stderr: '', timedOut: false, durationMs: 1, runtime: 'in-browser' }),
    dispose: async () => {},
  });

  it('auto prefers the in-browser runtime, remote where there is none; a per-language choice overrides', async () => {
    // `meets`: the in-page runtime reaches the differential corpus's bar (Python does not as
    // measured: tests/unit/differential-routing.test.ts covers that decision).
    const meets = () => false;
    expect(routeFor('python', 'auto', ['python'], ['python', 'cpp'], undefined, meets)).toBe('in-browser');
    expect(routeFor('cpp', 'auto', ['python'], ['python', 'cpp'])).toBe('remote');
    expect(routeFor('python', 'remote', ['python'], ['python'])).toBe('remote');
    expect(routeFor('cpp', 'in-browser', ['python'], ['cpp'])).toBeNull();
    expect(routeFor('julia', 'auto', ['python'], ['cpp'])).toBeNull();
    // An in-browser runtime whose agreement with the official verdicts is too low: auto prefers
    // the runner, and without one the language is unavailable unless chosen explicitly.
    const lowAgreement = (l: string) => l !== 'cpp';
    expect(routeFor('cpp', 'auto', ['cpp'], ['cpp'], lowAgreement)).toBe('remote');
    expect(routeFor('cpp', 'auto', ['cpp'], [], lowAgreement)).toBeNull();
    expect(routeFor('cpp', 'in-browser', ['cpp'], ['cpp'], lowAgreement)).toBe('in-browser');
    expect(routeFor('python', 'auto', ['python'], ['python'], lowAgreement, meets)).toBe('in-browser');

    // No runner at all (the page before one is set): a remote choice waits, auto applies.
    expect(routeFor('python', 'remote', ['python'], null)).toBe('in-browser');
    const alone = createRoutedExecutor({ local: fakeLocal(['python', 'javascript']), remote: null, choices: { javascript: 'remote' } });
    expect(alone.languages()).toEqual(['python', 'javascript']);
    expect((await alone.run({ language: 'javascript', program: '', timeoutMs: 5000 })).stdout).toBe('local javascript\n');

    const remote = await connectRemoteExecutor({ urls: [a.url] });
    const routed = createRoutedExecutor({ local: fakeLocal(['python', 'javascript']), remote, choices: { javascript: 'remote', cpp: 'in-browser' }, short: meets });
    expect(routed.languages()).toContain('python');
    expect(routed.languages()).not.toContain('cpp');
    expect(routed.languages()).not.toContain('julia');
    expect((await routed.run({ language: 'python', program: 'print(1)', timeoutMs: 5000 })).stdout).toBe('local python\n');
    expect((await routed.run({ language: 'javascript', program: 'console.log("remote")', timeoutMs: 5000 })).stdout).toBe('remote\n');
    expect((await routed.run({ language: 'go', program: 'package main\nimport "testing"\nfunc TestX(t *testing.T) {}', timeoutMs: 20_000 })).exitCode).toBe(0);
  });
});

describe('command line', () => {
  const tmp = tempDir();
  const data = join(tmp, 'mixed.jsonl');
  writeFileSync(data, DATASET);
  const node = (script: string, args: string[]) => new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [script, ...args], { timeout: 300_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });

  it('npm run eval -- --runner: 100% where a runtime exists, the other languages listed as unavailable, not failed', async () => {
    const run = await node('dist-node/cli.mjs', ['--data', data, '--model', 'canonical', '--runner', a.url, '--runner', b.url]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('Pass@1: 100.0% (5/5)');
    expect(run.stdout).toMatch(/unavailable here \(no runtime; not counted as failed\): Julia \(1\)/);
    expect(run.stdout).toMatch(/^C\+\+\s+1\/1\s+100\.0%/m);
    expect(run.stdout).toMatch(/^Java\s+1\/1\s+100\.0%/m);
    expect(run.stderr).toContain(`runner ${a.url}: `);
  });

  it('an unreachable runner stops the CLI with a clear message', async () => {
    const run = await node('dist-node/cli.mjs', ['--data', data, '--model', 'canonical', '--runner', 'http://127.0.0.1:9']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/error: no runner could be reached: http:\/\/127\.0\.0\.1:9/);
    const bad = await node('dist-node/cli.mjs', ['--data', data, '--model', 'canonical', '--runner', 'ftp://x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--runner must be an http(s) URL');
  });

  it('npm run conformance -- --runner: a language without an in-page runtime on the runner, an in-page one cross-checked against it', async () => {
    const run = await node('dist-node/conformance.mjs', ['--runner', a.url, '--languages', 'elixir,ruby']);
    expect(run.code, run.stderr).toBe(0);
    // Elixir has no in-page runtime: its official cases run on the runner.
    expect(run.stdout).toMatch(/^elixir\s+50\s+50\/50 100\.0%\s+50\/50 100\.0%\s+50\/50 100\.0%\s+Elixir .*benchtop runner/m);
    // Ruby's official cases run in its in-page runtime, then the runner's real ruby cross-checks it on the demo set.
    expect(run.stdout).toMatch(/^ruby\s+50\s+50\/50 100\.0%\s+50\/50 100\.0%\s+50\/50 100\.0%\s+ruby\.wasm/m);
    expect(run.stdout).toMatch(/^ruby\s+20\s+20\/20 100\.0%\s+ruby\.wasm .* \| ruby 3.*benchtop runner/m);
  });
});
