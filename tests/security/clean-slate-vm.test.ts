/**
 * Issue #12, findings 2 and 5, for Ruby (ruby.wasm), R (webR) and C++ (clang in WebAssembly):
 * as clean-slate.test.ts, in ONE worker per language. Ruby puts its instance's snapshot (memory and
 * mutable globals) back before every program, or starts a new instance after one that grew its memory; R puts its snapshot back after each program (a verified restore, or a new
 * R); C++ compiles and runs each program in new instances, so the hostile program here tries what
 * a compiled program can reach: its files, exit hooks and the exception runtime.
 * Expected outcomes: SPEC §4 applied to what `ruby`, `Rscript` and `g++ && ./test` do (checked
 * while writing them; the official Ruby 3.0 has minitest as a bundled gem).
 */
import { afterAll, describe, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { cpp, r, ruby } from '../support/hostile/clean-slate-attacks';
import { expectCleanSlate } from './sequence';

const executor = createNodeExecutor({ poolSize: 1 });
afterAll(() => executor.dispose());

describe('a clean slate for every program, in one worker (issue #12, findings 2 and 5)', () => {
  it('ruby', () => expectCleanSlate(executor, 'ruby', ruby), 300_000);
  it('r', () => expectCleanSlate(executor, 'r', r), 300_000);
  it('cpp', () => expectCleanSlate(executor, 'cpp', cpp), 600_000);
});
