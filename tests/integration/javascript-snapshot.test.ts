/**
 * The JavaScript runtime puts one QuickJS instance back to its state after start-up before each
 * program (runtimes/javascript/quickjs.ts createRealm) instead of making a new context: these
 * tests check that a program still finds what a new Node process gives it, whatever the program
 * before it did, including what such a snapshot would carry over if done carelessly (Math.random's
 * seed, the clock's origin) and programs that grow or break the instance.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { readCatalogFiles } from '../../runtimes/host/node-files';
import { createJavaScriptRuntime } from '../../runtimes/javascript/quickjs';
import { createTypeScriptRuntime } from '../../runtimes/typescript/sucrase';
import type { LanguageRuntime } from '../../src/contracts';

let js: LanguageRuntime;
beforeAll(async () => {
  js = await createJavaScriptRuntime({ wasm: readCatalogFiles('javascript')['quickjs.wasm'] });
});
const run = (program: string, timeoutMs = 10_000) => js.run(program, timeoutMs);

/** What a fresh Node-like realm shows of the things the hostile programs below change. */
const PROBE = [
  "const assert = require('assert');",
  'let ok = true; try { assert.strictEqual(1, 2); ok = false; } catch {}',
  'console.log(JSON.stringify({',
  '  leaked: typeof leaked, sum: typeof [].sum, proto: ({}).polluted, exitCode: process.exitCode,',
  '  listeners: process.listenerCount("exit"), assertWorks: ok, json: JSON.stringify([1]), keys: Object.keys(globalThis).includes("v"),',
  '  mathMax: Math.max(1, 2), argv: process.argv.length, env: Object.keys(process.env).length,',
  '}));',
].join('\n');
const CLEAN = JSON.stringify({ leaked: 'undefined', sum: 'undefined', exitCode: undefined, listeners: 0, assertWorks: true, json: '[1]', keys: false, mathMax: 2, argv: 2, env: 0 });

describe('every program starts from the same fresh realm', () => {
  it('a program that changes globals, builtins, the environment and its modules leaves nothing behind', async () => {
    const clean = await run(PROBE);
    expect(clean.stdout.trim()).toBe(CLEAN);
    const hostile = await run(
      [
        'globalThis.leaked = 1; var v = 2; Array.prototype.sum = () => 0; Object.prototype.polluted = true;',
        "const assert = require('assert'); assert.strictEqual = () => {};",
        'JSON.stringify = () => "forged"; Math.max = () => -1; process.exitCode = 3; process.argv.push("x"); process.env.X = "1";',
        "process.on('exit', () => console.log('a listener of an earlier program'));",
        'setTimeout(() => console.log("a timer of an earlier program"), 5); Promise.resolve().then(() => {});',
      ].join('\n'),
    );
    expect(hostile.exitCode).toBe(3);
    for (let i = 0; i < 3; i++) {
      const after = await run(PROBE);
      expect(after.stdout.trim()).toBe(CLEAN);
      expect(after.exitCode).toBe(0);
    }
  });

  it("Math.random's sequence differs from program to program (a new seed each run, as a new process has)", async () => {
    const firsts = new Set<string>();
    for (let i = 0; i < 6; i++) firsts.add((await run('console.log(Math.random(), Math.random())')).stdout);
    expect(firsts.size).toBe(6);
  });

  it("performance.now() counts from the program's start, not from when the runtime was made", async () => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const r = await run('console.log(performance.now())');
    const now = Number(r.stdout);
    expect(now).toBeGreaterThanOrEqual(0);
    expect(now).toBeLessThan(500);
  });

  it('a program that grows the memory by a little or by a lot is followed by a clean realm', async () => {
    // ~20 MB: put back (the grown part zeroed); ~300 MB: more than a put-back allows, so a new realm.
    for (const bytes of [20e6, 300e6]) {
      const big = await run(`globalThis.leaked = new Uint8Array(${bytes}).fill(7); var v = 1; console.log(leaked.length)`);
      expect(big.stdout).toBe(`${bytes}\n`);
      expect((await run(PROBE)).stdout.trim()).toBe(CLEAN);
    }
  });

  it('a program that breaks the instance (host stack overflow) is followed by a clean realm', async () => {
    await run('globalThis.leaked = 1');
    const deep = await run('function f(n) { return [f(n + 1)]; } f(0);');
    expect(deep.exitCode).toBe(1);
    expect(deep.stderr).toContain('RangeError');
    expect((await run(PROBE)).stdout.trim()).toBe(CLEAN);
  });

  it('a program stopped at its time limit, and one that exits inside a promise, are followed by a clean realm', async () => {
    const stopped = await run('globalThis.leaked = 1; while (true) {}', 500);
    expect(stopped.timedOut).toBe(true);
    expect((await run(PROBE)).stdout.trim()).toBe(CLEAN);
    const exited = await run('globalThis.leaked = 1; Promise.resolve().then(() => process.exit(4)); setInterval(() => {}, 10);');
    expect(exited.exitCode).toBe(4);
    expect((await run(PROBE)).stdout.trim()).toBe(CLEAN);
  });

  it('TypeScript runs on the same kind of realm: state does not cross between its programs either', async () => {
    const ts = await createTypeScriptRuntime({ wasm: readCatalogFiles('typescript')['quickjs.wasm'] });
    await ts.run('const g = globalThis as any; g.leaked = 1; (Array.prototype as any).sum = 1;', 10_000);
    const r = await ts.run('const x: string = typeof (globalThis as any).leaked + " " + typeof ([] as any).sum; console.log(x);', 10_000);
    expect(r.stdout).toBe('undefined undefined\n');
  });

  it("under the CLI's locked-down worker too, a realm is made again after a program that grew past what a put-back allows", async () => {
    // The worker shuts module loading once its runtime is ready (node-lockdown.ts): making a realm
    // again must need no module (until this test, the Node build of QuickJS's glue required node:fs).
    const executor = createNodeExecutor({ poolSize: 1 });
    try {
      const run = (program: string) => executor.run({ language: 'javascript', program, timeoutMs: 20_000 });
      expect((await run(PROBE)).stdout.trim()).toBe(CLEAN);
      const big = await run('globalThis.leaked = new Uint8Array(300e6).fill(7); var v = 1; console.log(leaked.length)');
      expect(big.stdout).toBe('300000000\n');
      const after = await run(PROBE);
      expect(after.stderr).toBe('');
      expect(after.stdout.trim()).toBe(CLEAN);
    } finally {
      await executor.dispose();
    }
  });
});
