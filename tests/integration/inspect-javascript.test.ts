/**
 * console.log, util.inspect and util.format inside QuickJS lay values out as Node does
 * (runtimes/javascript/inspect.js): each program below also runs under a real Node (this test's
 * own `node`, 20.x; the layout rules used here are the same in Node 18, the official version), and
 * stdout must be identical. The generated values are a seeded fast-check draw, so a failure
 * reproduces.
 *
 *   npx vitest run tests/integration/inspect-javascript.test.ts
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';

const executor = createNodeExecutor({ poolSize: 1 });
const dir = mkdtemp(join(tmpdir(), 'benchtop-inspect-'));
afterAll(async () => {
  await executor.dispose();
  await rm(await dir, { recursive: true, force: true });
});

async function node(program: string): Promise<string> {
  const file = join(await dir, `p${Math.random().toString(36).slice(2)}.js`);
  await writeFile(file, program);
  return (await promisify(execFile)(process.execPath, [file], { timeout: 60_000, maxBuffer: 1 << 24 })).stdout;
}

const FIXED = String.raw`
const util = require('util');
console.log([1, 1, 1.5, 2, 2.25, 2.4, 2.5, 2.5714285714285716, 2.625, 2.6666666666666665, 2.7]);
console.log([0, 1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 5]);
console.log([[1, 17, 15, 0, 0, 5], [1, 1, 13, 1, 1, 1, 0, 0], [7, 8, 15, 2, 15, 2, 2, 3, 2, 2, 3, 2]]);
console.log(['something', 'hello', 'too less', 'javascript', 'Roman numerals.']);
console.log(Array.from({ length: 130 }, (_, i) => i * 7), Array.from({ length: 26 }, (_, i) => String.fromCharCode(97 + i)));
console.log({ a: 1, 'b-c': 'it\'s', d: [1, { e: { f: { g: 1 } } }], [Symbol('s')]: -0, big: 12n }, [1, , 3], [, , , 4]);
console.log(new Map([['a', 1], ['b', { x: [1, 2] }]]), new Set([1, 'a', [2]]), new Map(), new Set());
class Point { constructor(x, y) { this.x = x; this.y = y; } }
class Empty {}
console.log(new Point(1, 2), [new Point(3, 4)], new Empty(), Object.create(null), Object.assign(Object.create(null), { k: 1 }));
const cyclic = { name: 'c' }; cyclic.self = cyclic; cyclic.list = [cyclic];
console.log(cyclic);
console.log(function named() {}, () => 1, class K {}, class L extends Point {}, async function af() {}, function* gen() {});
console.log([new Date(0), /re+/gi, new Number(3), new String('s'), new Boolean(false)], [null, undefined, true, NaN, -Infinity]);
console.log('x', 1, { a: [1, 's'] }, [1, 2], null, undefined);
console.log('%s is %d years and %i, %f; %j %%', 'Al', 42.5, 42.5, '1.5', { a: 1 }, 'extra', { b: 2 });
console.log('%s', { a: { b: { c: 1 } } }, '%d', 5);
console.log(util.inspect({ a: { b: { c: { d: { e: 1 } } } } }, { depth: null }), util.inspect({ a: { b: { c: { d: 1 } } } }, false, 0));
console.log(util.format('%s=%d', 'n', 7), util.inspect('quote\'s "both"'), util.inspect('back\`tick\'s "x"'), util.inspect('tab\there\nline'));
console.log({ s: 'a long string with a\nline break that goes on and on and on to pass the width limit' });
console.log(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), new Float64Array(2), [[[[1]]]], { x: { y: { z: { w: 1 } } } });
console.log({ get g() { return 1; }, set s(v) {}, get gs() { return 1; }, set gs(v) {} });
console.log(Array.from({ length: 12 }, (_, i) => ({ id: i, name: 'item' + i })));
console.log([['a', 1], ['bb', 22], ['ccc', 333], ['dddd', 4444], ['eeeee', 55555], ['f', 6], ['g', 7]]);
console.log({ matrix: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], words: 'the quick brown fox jumps over the lazy dog'.split(' ') });
`;

// JSON-like values: what Rosetta-style programs and tests print most (numbers, strings, nesting).
const leaf = fc.oneof(fc.integer({ min: -100000, max: 100000 }), fc.double({ noNaN: true }), fc.string({ maxLength: 10 }), fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('node'), { maxLength: 14 }),
  object: fc.dictionary(fc.string({ maxLength: 8 }), tie('node'), { maxKeys: 6 }),
})).node;
const arrays = fc.oneof(fc.array(fc.integer({ min: -1000, max: 1000000 }), { maxLength: 120 }), fc.array(fc.string({ maxLength: 9 }), { maxLength: 40 }),
  fc.array(fc.array(fc.integer({ min: 0, max: 999 }), { maxLength: 20 }), { maxLength: 8 }));
const GENERATED = [...fc.sample(value, { numRuns: 150, seed: 13 }), ...fc.sample(arrays, { numRuns: 150, seed: 17 })]
  .map((v) => `console.log(${JSON.stringify(v)});`).join('\n');

describe('console.log and util.inspect lay values out as Node does', () => {
  for (const language of ['javascript', 'typescript'] as const) {
    it(`${language}: fixed values of every kind`, async () => {
      const ours = await executor.run({ language, program: FIXED, timeoutMs: 30_000 });
      expect(ours.stderr).toBe('');
      expect(ours.stdout).toBe(await node(FIXED));
    }, 120_000);
  }
  it('javascript: 300 generated values (seeded)', async () => {
    const ours = await executor.run({ language: 'javascript', program: GENERATED, timeoutMs: 30_000 });
    expect(ours.stderr).toBe('');
    const native = await node(GENERATED);
    expect(native.split('\n').length).toBeGreaterThan(300);
    expect(ours.stdout).toBe(native);
  }, 120_000);
});
