/**
 * Where the harness that runs a program inside Pyodide could show through, a program sees what
 * `python3 test.py` (CPython 3.11, the official version) shows it (runtimes/python/harness.py):
 * the recursion limit by default and after sys.setrecursionlimit, the depth reached before
 * RecursionError, the verdict of programs that recurse close to the limit, and __main__'s and
 * builtins' names, the standard modules' file names and source lines. Expectations come from this machine's python3 3.11.
 *
 *   npx vitest run tests/integration/python-process.test.ts
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
  '__main__\'s names, in order, and the built-ins (Rosetta Code\'s special-variables)': `print(list(globals().keys()))
print(type(__loader__).__name__, __spec__, __cached__, __doc__, __package__, __annotations__)
x: int = 3
print(__annotations__)
import builtins
names = sorted((set(globals().keys()) | set(builtins.__dict__.keys())) - {'_'})
print(len(names), names)
`,
  // The standard library's zip holds a .pyc beside each .py (scripts/build-python-stdlib.mjs): modules
  // loaded at start-up, by the harness and by the program are still named after their sources, and
  // a traceback through the library still shows its source lines.
  'standard modules are named after their sources, and tracebacks show their lines': `import importlib, importlib.util, os, sys, traceback
import json
root = os.path.dirname(os.path.dirname(json.__file__))
for name in ["collections", "json", "statistics", "unittest", "email.mime.text", "xml.dom.minidom", "typing", "re", "fractions"]:
    m = importlib.import_module(name)
    f = m.__file__
    print(name, os.path.relpath(f, root), m.__spec__.origin == f, m.__cached__ == importlib.util.cache_from_source(f), m.__spec__.cached == m.__cached__)
try:
    json.loads("x")
except ValueError:
    for frame in traceback.extract_tb(sys.exc_info()[2])[1:]:
        print(os.path.relpath(frame.filename, root), frame.name, frame.line)
`,
  'an invalid limit raises as in CPython': 'import sys\ntry:\n    sys.setrecursionlimit(0)\nexcept ValueError as e:\n    print(e)\ntry:\n    sys.setrecursionlimit("x")\nexcept TypeError as e:\n    print(e)\n',
};

describe('Python programs see what python3 3.11 shows them', () => {
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

  it('imports the standard library compiled: a .pyc beside every .py of its zip, and taken first', async () => {
    // (What the names test above cannot see: with the source-only zip it would pass as well.)
    const program = `import sys, zipfile, zipimport, unittest
archive = next(p for p in sys.path if p.endswith(".zip"))
names = set(zipfile.ZipFile(archive).namelist())
sources = [n for n in names if n.endswith(".py")]
print(len(sources), all(n + "c" in names for n in sources))
print(zipimport._get_module_code(unittest.__loader__, "unittest")[2].rsplit("/", 1)[-1])
`;
    const here = await executor.run({ language: 'python', program, timeoutMs: TIMEOUT_MS });
    expect(here.stderr).toBe('');
    const [count, all, taken] = here.stdout.split(/\s+/);
    expect(Number(count)).toBeGreaterThan(400);
    expect([all, taken]).toEqual(['True', '__init__.pyc']);
  });
});

describe('Python programs that start worker processes are declined, not failed', () => {
  const POOLS: Record<string, string> = {
    'multiprocessing.Pool': 'from multiprocessing import Pool\n\ndef sq(x):\n    return x * x\n\nif __name__ == "__main__":\n    with Pool(2) as p:\n        assert p.map(sq, [1, 2, 3]) == [1, 4, 9]\n    print("ok")\n',
    'concurrent.futures.ProcessPoolExecutor': 'from concurrent import futures\n\ndef sq(x):\n    return x * x\n\nif __name__ == "__main__":\n    with futures.ProcessPoolExecutor(2) as ex:\n        print(list(ex.map(sq, [1, 2, 3])))\n',
  };
  for (const [label, program] of Object.entries(POOLS)) {
    it(label, async () => {
      const official = await runNative({ language: 'python', program, timeoutMs: TIMEOUT_MS });
      expect(judgeRun('python', official)).toBe('PASSED');
      const here = await executor.run({ language: 'python', program, timeoutMs: TIMEOUT_MS });
      expect(here.declined).toMatch(/multiprocessing/);
      expect([here.exitCode, here.stdout]).toEqual([null, '']);
    }, 120_000);
  }
});
