/**
 * The in-browser runtimes, run under Node worker_threads exactly as the CLI runs them, checked
 * for the behaviours that decide verdicts: output, exit codes, errors, time limits, isolation.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { runNative } from '../../runtimes/native/process';
import type { LanguageId } from '../../src/contracts';
import { judgeRun } from '../../src/core/rules';
import { PYTHON_FORGERIES } from '../support/hostile/clean-slate-attacks';

const executor = createNodeExecutor({ poolSize: 2 });
afterAll(() => executor.dispose());

const run = (language: LanguageId, program: string, timeoutMs = 10_000) => executor.run({ language, program, timeoutMs });
const verdict = async (language: LanguageId, program: string, timeoutMs?: number) => judgeRun(language, await run(language, program, timeoutMs));

describe('python (Pyodide)', () => {
  it('captures stdout exactly and exits 0', async () => {
    const r = await run('python', 'print("a", 1)\nprint("no newline", end="")\nimport sys\nprint("err", file=sys.stderr)');
    expect(r).toMatchObject({ exitCode: 0, stdout: 'a 1\nno newline', stderr: 'err\n', timedOut: false });
    expect(r.runtime).toMatch(/^Pyodide 0\.25\.\d+ \(CPython 3\.11\.\d+\)$/);
  });
  it('runs __main__ blocks and reports a failed assert like CPython', async () => {
    const r = await run('python', 'def test():\n    assert 1 + 1 == 3, "math"\nif __name__ == "__main__":\n    test()');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('Traceback (most recent call last):');
    expect(r.stderr).toContain('File "test.py", line 4, in <module>');
    expect(r.stderr).toContain('    assert 1 + 1 == 3, "math"');
    expect(r.stderr).toMatch(/AssertionError: math\n$/);
    // Exit 1 comes before any substring, and Python has none (SPEC §4–5, corrected 2026-12-01).
    expect(judgeRun('python', r)).toBe('RUNTIME_ERROR');
  });
  it('maps SystemExit to the exit code (0 and None pass)', async () => {
    expect((await run('python', 'import sys\nsys.exit(0)\nprint("not reached")')).exitCode).toBe(0);
    expect((await run('python', 'raise SystemExit')).exitCode).toBe(0);
    expect((await run('python', 'import sys\nsys.exit(3)')).exitCode).toBe(3);
    const r = await run('python', 'import sys\nsys.exit("bye")');
    expect([r.exitCode, r.stderr]).toEqual([1, 'bye\n']);
  });
  it('gives os._exit(n) status n, as python3 does, also from an atexit handler or sys.excepthook', async () => {
    expect((await run('python', 'import os\nos._exit(5)')).exitCode).toBe(5);
    expect((await run('python', 'import atexit, os\natexit.register(os._exit, 4)')).exitCode).toBe(4);
    expect((await run('python', 'import os, sys\nsys.excepthook = lambda *a: os._exit(0)\nraise ValueError(1)')).exitCode).toBe(0);
  });
  // What the harness reads once the program is done must be out of the program's reach.
  it('a failing program cannot forge its exit status through what the harness reads after it (python3 gives each exit 1)', async () => {
    for (const [name, program] of Object.entries(PYTHON_FORGERIES)) {
      const native = await runNative({ language: 'python', program, timeoutMs: 20_000 });
      expect(native.exitCode, `python3: ${name}`).toBe(1);
      expect((await run('python', program)).exitCode, name).toBe(native.exitCode);
    }
  });
  it('reports syntax errors and exceptions as RUNTIME_ERROR', async () => {
    const syntax = await run('python', 'def f(:\n  pass');
    expect(syntax.stderr).toMatch(/File "test.py", line 1[\s\S]*SyntaxError/);
    expect(judgeRun('python', syntax)).toBe('RUNTIME_ERROR');
    expect(await verdict('python', 'x = {}\nx["missing"]')).toBe('RUNTIME_ERROR');
    expect(await verdict('python', 'def f(n): return f(n + 1)\nf(0)')).toBe('RUNTIME_ERROR');
  });
  it('gives an empty stdin: input() raises EOFError', async () => {
    const r = await run('python', 'input()');
    expect(r.stderr).toContain('EOFError');
  });
  it('keeps no state between programs: globals, modules, builtins, sys settings, streams, files', async () => {
    await run('python', [
      'leaked = 1', 'import json, random, sys, io, builtins', 'json.mine = 2', 'from collections import Counter', 'Counter.mine = 3',
      'import fractions', 'fractions.Fraction.mine = 4', 'random.seed(1)', 'builtins.len = lambda x: -1', 'sys.setrecursionlimit(50)',
      'open("left.txt", "w").write("x")', 'sys.stdout = io.StringIO()',
    ].join('\n'));
    const r = await run('python', [
      'import json, fractions, collections, os, sys',
      'print("leaked" in globals(), hasattr(json, "mine"), hasattr(collections.Counter, "mine"), hasattr(fractions.Fraction, "mine"))',
      'print(len([1, 2]), sys.getrecursionlimit() > 50, os.path.exists("left.txt"))',
    ].join('\n'));
    expect(r.stdout).toBe('False False False False\n2 True False\n');
  });
  it('stops a runaway program at the time limit, and the next program runs in a fresh worker', async () => {
    const r = await run('python', 'while True:\n    pass', 1500);
    expect(r.timedOut).toBe(true);
    expect(judgeRun('python', r)).toBe('TIME_LIMIT_EXCEEDED');
    expect(r.durationMs).toBeGreaterThanOrEqual(1500);
    expect(r.durationMs).toBeLessThan(5000);
    expect((await run('python', 'print(6 * 7)')).stdout).toBe('42\n');
  });
});

describe('javascript (QuickJS with a Node-like environment)', () => {
  it('formats console output like Node', async () => {
    const r = await run('javascript', 'console.log("x", 1, {a: [1, "s"]}, [1, 2], null, undefined); console.error("e %d", 5)');
    expect(r).toMatchObject({ exitCode: 0, stdout: "x 1 { a: [ 1, 's' ] } [ 1, 2 ] null undefined\n", stderr: 'e 5\n' });
  });
  it('provides Node\'s assert (the npm port), and a failed assert (exit 1) is RUNTIME_ERROR', async () => {
    const r = await run('javascript', "const assert = require('assert');\nassert.deepStrictEqual({a: 1}, {a: 1});\nassert.strictEqual(1 + 1, 3);");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('AssertionError [ERR_ASSERTION]: Expected values to be strictly equal');
    expect(r.stderr).toContain('assert.strictEqual(1 + 1, 3);');
    expect(judgeRun('javascript', r)).toBe('RUNTIME_ERROR');
    expect(await verdict('javascript', "const assert = require('node:assert/strict'); assert.equal(1, 1); const util = require('util'); console.log(util.inspect([1]))")).toBe('PASSED');
  });
  it('an async test whose promise rejects exits 1, as an unhandled rejection in Node', async () => {
    const program = "const assert = require('assert');\nasync function demoTesting() {\n  await new Promise((r) => setTimeout(r, 10));\n  assert.strictEqual(2, 3);\n}\ndemoTesting();\n";
    const r = await run('javascript', program);
    expect(r.exitCode).toBe(1);
    expect(judgeRun('javascript', r)).toBe('RUNTIME_ERROR');
    expect(await verdict('javascript', program.replace('2, 3', '3, 3'))).toBe('PASSED');
  });
  it('runs timers in order on a virtual clock, and honours process.exit and exitCode', async () => {
    const r = await run('javascript', 'setTimeout(() => console.log("b"), 20); setTimeout(() => console.log("a"), 10); const t = setInterval(() => { console.log("i"); clearInterval(t); }, 5); Promise.resolve().then(() => console.log("micro")); console.log("sync")');
    expect(r.stdout).toBe('sync\nmicro\ni\na\nb\n');
    expect((await run('javascript', 'process.exit(4); console.log("no")'))).toMatchObject({ exitCode: 4, stdout: '' });
    expect((await run('javascript', 'process.exitCode = 2')).exitCode).toBe(2);
  });
  it("runs process.on('exit') and 'uncaughtException' listeners as Node 18+ does (exit codes checked against node)", async () => {
    const exit = await run('javascript', "process.on('exit', (c) => { console.log('exit', c); process.exitCode = 3; });\nconsole.log('end');");
    expect(exit).toMatchObject({ exitCode: 3, stdout: 'end\nexit 0\n' });
    expect(await run('javascript', "process.on('exit', (c) => console.log('exit', c));\nprocess.exit(2);")).toMatchObject({ exitCode: 2, stdout: 'exit 2\n' });
    expect(await run('javascript', "process.on('exit', () => process.exit(5));\nconsole.log('end');")).toMatchObject({ exitCode: 5, stdout: 'end\n' });
    const afterError = await run('javascript', "process.on('exit', (c) => console.log('exit', c));\nthrow new Error('boom');");
    expect(afterError).toMatchObject({ exitCode: 1, stdout: 'exit 1\n' });
    expect(afterError.stderr).toContain('Error: boom');
    const taken = await run('javascript', "process.on('uncaughtException', (e) => console.log('caught', e.message));\nsetTimeout(() => { throw new Error('t'); }, 1);\nsetTimeout(() => console.log('later'), 5);");
    expect(taken).toMatchObject({ exitCode: 0, stdout: 'caught t\nlater\n', stderr: '' });
    const rethrown = await run('javascript', "process.on('uncaughtException', () => { throw new Error('again'); });\nthrow new Error('first');");
    expect(rethrown.exitCode).toBe(7);
    expect(rethrown.stderr).toContain('Error: again');
    const removed = await run('javascript', "const f = () => console.log('no');\nprocess.once('exit', f);\nprocess.off('exit', f);\nconsole.log('end');");
    expect(removed).toMatchObject({ exitCode: 0, stdout: 'end\n' });
  });
  // The host learns of process.exit from its own entry point, never from the thrown value, which
  // a program can catch (its class then makes any error look like an exit). Expected exit codes:
  // node 20.20 here (process.exit ends the process at once; a catch block or finally never runs).
  it('a caught process.exit still ends the run with its code: no forged exit 0', async () => {
    expect(await run('javascript', 'try { process.exit(1); } catch (e) {}\nconsole.log("All tests passed");')).toMatchObject({ exitCode: 1, stdout: '' });
    const forged = 'let S; try { process.exit(1); } catch (e) { S = e.constructor; }\nObject.defineProperty(S, Symbol.hasInstance, { value: () => true });\nthrow new Error("Test failed");';
    expect(await verdict('javascript', forged)).toBe('RUNTIME_ERROR');
    const nested = 'const assert = require("assert");\nfunction check() { try { assert.strictEqual(1 + 1, 3); } catch (e) { console.error("Test failed"); process.exit(1); } }\ntry { check(); } catch (e) { console.log("swallowed"); }\nconsole.log("All tests passed");';
    expect(await run('javascript', nested)).toMatchObject({ exitCode: 1, stdout: '', stderr: 'Test failed\n' });
    // The first exit wins, even from a job that then loops; a finally block does not run.
    const job = 'setTimeout(() => { try { process.exit(3); } finally { console.log("no"); } }, 5);\nPromise.resolve().then(() => { try { process.exit(2); } catch {} while (true) {} });';
    expect(await run('javascript', job)).toMatchObject({ exitCode: 2, stdout: '', timedOut: false });
    // A replaced Number does not change the code process.exit gives.
    expect((await run('javascript', 'Number = () => 0;\nprocess.exit(1);')).exitCode).toBe(1);
    // A process's status is 8 bits (node 20: exit(256) gives 0, exit(-1) and exitCode -1 give 255, not a timeout).
    expect((await run('javascript', 'process.exit(256);')).exitCode).toBe(0);
    expect(await run('javascript', 'process.exit(-1);')).toMatchObject({ exitCode: 255, timedOut: false });
    expect(await run('javascript', 'process.exitCode = -1;')).toMatchObject({ exitCode: 255, timedOut: false });
  });
  it('console.assert prints "Assertion failed" without throwing: exit 0 and the substring `failed`, so WRONG_ANSWER', async () => {
    const r = await run('javascript', 'console.assert(1 === 2, "one is two"); console.log("after")');
    expect(r).toMatchObject({ exitCode: 0, stdout: 'after\n', stderr: 'Assertion failed: one is two\n' });
    expect(judgeRun('javascript', r)).toBe('WRONG_ANSWER');
  });
  it('syntax errors, type errors and unknown modules are RUNTIME_ERROR', async () => {
    expect(await verdict('javascript', 'let x = ;')).toBe('RUNTIME_ERROR');
    expect(await verdict('javascript', 'undefined.f()')).toBe('RUNTIME_ERROR');
    const r = await run('javascript', "require('fs')");
    expect(r.stderr).toContain("Cannot find module 'fs'");
  });
  it('survives unbounded recursion with a RangeError, then runs the next program', async () => {
    const r = await run('javascript', 'function f(n) { return f(n + 1) + 1; } f(0);');
    expect([r.exitCode, judgeRun('javascript', r)]).toEqual([1, 'RUNTIME_ERROR']);
    expect(r.stderr).toMatch(/RangeError|stack overflow/i);
    expect((await run('javascript', 'console.log(1)')).stdout).toBe('1\n');
  });
  it('recurses as deep as typical test programs need (10,000 frames)', async () => {
    expect((await run('javascript', 'function d(n) { return n === 0 ? 0 : 1 + d(n - 1); } console.log(d(10000))')).stdout).toBe('10000\n');
  });
  it('keeps no state between programs', async () => {
    await run('javascript', 'globalThis.leaked = 1; Array.prototype.sum = function () { return 0; }; var v = 2;');
    const r = await run('javascript', 'console.log(typeof leaked, typeof [].sum, typeof v)');
    expect(r.stdout).toBe('undefined undefined undefined\n');
  });
  it('stops a runaway loop at the time limit without losing the worker', async () => {
    const r = await run('javascript', 'while (true) {}', 1000);
    expect(judgeRun('javascript', r)).toBe('TIME_LIMIT_EXCEEDED');
    expect(r.durationMs).toBeLessThan(4000);
    const timers = await run('javascript', 'setInterval(() => {}, 1000)', 1000);
    expect(timers.timedOut).toBe(true);
  });
});

describe('typescript (types stripped, then QuickJS)', () => {
  it('runs TypeScript without type-checking, like tsx', async () => {
    const program = 'interface P { x: number }\nenum Color { Red, Green }\nclass A<T> { constructor(private v: T) {}\n get(): T { return this.v; } }\nconst bad: number = "not a number" as any;\nconsole.log(new A<P>({ x: 1 }).get().x, Color.Green, bad);';
    expect(await run('typescript', program)).toMatchObject({ exitCode: 0, stdout: '1 1 not a number\n' });
    expect((await run('typescript', 'console.log(1, "s", ["s"])')).stdout).toBe("1 s [ 's' ]\n");
  });
  it('supports import syntax for assert', async () => {
    expect(await verdict('typescript', "import assert from 'assert';\nimport { strictEqual } from 'assert';\nassert.ok(true); strictEqual(1, 2);")).toBe('RUNTIME_ERROR');
  });
  it('a program that cannot be parsed fails as tsx reports it ("Transform failed", exit 1 → RUNTIME_ERROR)', async () => {
    const r = await run('typescript', 'const x: number = ;');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('Transform failed');
    expect(judgeRun('typescript', r)).toBe('RUNTIME_ERROR');
  });
});
