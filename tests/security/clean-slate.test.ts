/**
 * Issue #12, findings 2 and 5, for JavaScript, TypeScript, Shell, Perl and PHP: in ONE worker, a
 * hostile answer patches what the next programs rely on (builtins, assert, exit, print, the test
 * library, the file tree) and leaves late work behind; the known-wrong programs after it must still
 * fail and the known-right ones pass, as each would in a new `node`/`bash`/`perl`/`php` process.
 * A program that prints 30 MB by a late path (timer, exit hook, END block, shutdown function) is
 * cut at its own cap, and the next program's output holds nothing of it. Ruby, R and C++:
 * clean-slate-vm.test.ts. The programs and their expected outcomes live in
 * tests/support/hostile/clean-slate-attacks.ts, shared with the eval set clean-slate.jsonl
 * (hostile-eval.test.ts).
 */
import { afterAll, describe, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { javascript, perl, php, shell, typescript } from '../support/hostile/clean-slate-attacks';
import { expectCleanSlate } from './sequence';

const executor = createNodeExecutor({ poolSize: 1 });
afterAll(() => executor.dispose());

describe('a clean slate for every program, in one worker (issue #12, findings 2 and 5)', () => {
  it('javascript', () => expectCleanSlate(executor, 'javascript', javascript), 180_000);
  it('typescript', () => expectCleanSlate(executor, 'typescript', typescript), 180_000);
  it('shell', () => expectCleanSlate(executor, 'shell', shell), 180_000);
  it('perl', () => expectCleanSlate(executor, 'perl', perl), 180_000);
  it('php', () => expectCleanSlate(executor, 'php', php), 180_000);
});
