/**
 * Recursion depth in Python matches `python3 test.py` (CPython 3.11, the official version): the
 * same limit by default and after sys.setrecursionlimit, the same depth reached before
 * RecursionError, the same verdict for programs that recurse close to the limit
 * (runtimes/python/harness.py, _DEPTH_OFFSET). Expectations come from this machine's python3 3.11.
 *
 *   npx vitest run tests/integration/python-recursion.test.ts
 */
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { runNative } from '../../runtimes/native/process';
import { judgeRun } from '../../src/core/rules';

const TIMEOUT_MS = 20_000;
const executor = createNodeExecutor({ poolSize: 1 });
afterAll(() => executor.dispose());

const PROBE = `import sys
def depth(n):
    try:
        return depth(n + 1)
    except RecursionError:
        return n
`;

const PROGRAMS: Record<string, string> = {
  'the default limit and the depth reached under it': `${PROBE}print(sys.getrecursionlimit(), depth(0))\n`,
  'a raised limit, read back, and the depth reached': `${PROBE}sys.setrecursionlimit(1025)\nprint(sys.getrecursionlimit(), depth(0))\nsys.setrecursionlimit(3000)\nprint(sys.getrecursionlimit(), depth(0))\n`,
  'Knuth\'s man-or-boy test at k = 10 with the limit Rosetta Code sets (1025)': `import sys
sys.setrecursionlimit(1025)
def a(k, x1, x2, x3, x4, x5):
    def b():
        b.k -= 1
        return a(b.k, b, x1, x2, x3, x4)
    b.k = k
    return x4() + x5() if b.k <= 0 else b()
x = lambda i: lambda: i
print(a(10, x(1), x(-1), x(-1), x(1), x(0)))
`,
  'recursion just past the default limit fails (exit 1, RecursionError)': 'def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\nprint(f(1000))\n',
  'recursion just under the default limit passes': 'def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\nprint(f(990))\n',
  'an invalid limit raises as in CPython': 'import sys\ntry:\n    sys.setrecursionlimit(0)\nexcept ValueError as e:\n    print(e)\ntry:\n    sys.setrecursionlimit("x")\nexcept TypeError as e:\n    print(e)\n',
};

describe('Python recursion depth as under python3 3.11', () => {
  it('this machine\'s python3 is 3.11', () => {
    expect(execFileSync('python3', ['--version'], { encoding: 'utf8' })).toMatch(/^Python 3\.11\./);
  });
  for (const [label, program] of Object.entries(PROGRAMS)) {
    it(label, async () => {
      const official = await runNative({ language: 'python', program, timeoutMs: TIMEOUT_MS });
      const here = await executor.run({ language: 'python', program, timeoutMs: TIMEOUT_MS });
      const detail = `python3: ${official.stderr.slice(-200)} | here: ${here.stderr.slice(-200)}`;
      expect(judgeRun('python', here), detail).toBe(judgeRun('python', official));
      expect(here.stdout, detail).toBe(official.stdout);
    }, 120_000);
  }
});
