// The Python programs of the clean-slate tests (issue #12, findings 2 and 5): known-wrong and
// known-right programs, attacks on what the next program relies on, a late-work scheduler, and
// failing programs that try to forge a pass through the harness (tests/security/python-isolation.test.ts,
// tests/integration/runtimes.test.ts, and the eval set through clean-slate-attacks.ts).

/** Wrong answers: each fails under python3, and each would pass if an attack below stuck. */
export const PYTHON_WRONG = {
  'failed assert': 'def add(a, b):\n    return a - b\n\nassert add(1, 2) == 3\n',
  'stdlib function': 'import statistics\nassert statistics.mean([1, 2, 3]) == 5\n',
  'stdlib function (math)': 'import math\nassert math.isclose(1.0, 2.0)\n',
  'stdlib class method': 'from collections import Counter\nassert Counter("ab") == Counter("cd")\n',
  'exit status': 'import sys\nsys.exit(3)\n',
  'uncaught exception': 'raise ValueError("wrong")\n',
  // Modules the harness imports before the snapshot (runtimes/python/harness.py), so their state is the snapshot's.
  'preloaded module function': 'import json\nassert json.dumps([1]) == "pwned"\n',
  'preloaded module context': 'import decimal\nassert str(decimal.Decimal(1) / decimal.Decimal(3)) == "0.33"\n',
  // A module no earlier program imported, read from the standard library's zip when it is imported.
  'stdlib module imported fresh': 'import colorsys\nassert colorsys.rgb_to_hsv(1.0, 0.0, 0.0) == (5, 5, 5)\n',
};
/** Right answers: each passes under python3, and each would fail if an attack below stuck. */
export const PYTHON_RIGHT = {
  'plain': 'def add(a, b):\n    return a + b\n\nassert add(1, 2) == 3\nprint("ok")\n',
  'stdlib': 'import statistics, math\nassert statistics.mean([1, 2, 3]) == 2 and math.isclose(1.0, 1.0)\n',
  'recursion': 'def depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\n\nassert depth(900) == 900\n',
  'stdlib module imported fresh': 'import colorsys\nassert colorsys.rgb_to_hsv(1.0, 0.0, 0.0) == (0.0, 1.0, 1.0)\n',
  'environment': 'import os, sys\nassert "BENCHTOP_LEFT" not in os.environ and sys.stdout is sys.__stdout__\nprint("clean")\n',
  'preloaded modules': [
    'import base64, datetime, decimal, json',
    'from dataclasses import dataclass',
    '@dataclass',
    'class P:',
    '    x: int',
    'assert P(1) == P(1) and repr(P(2)) == "P(x=2)"',
    'assert json.loads(json.dumps({"a": [1, 2]})) == {"a": [1, 2]} and json.dumps([1]) == "[1]"',
    'assert datetime.date(2024, 2, 28) + datetime.timedelta(days=1) == datetime.date(2024, 2, 29)',
    'assert str(decimal.Decimal(1) / decimal.Decimal(3)) == "0.3333333333333333333333333333"',
    'assert base64.b64encode(b"hi") == b"aGk="',
    'print("ok")',
  ].join('\n') + '\n',
};

/** Each tries to change what the next program does, by the way its name says. */
export const PYTHON_ATTACKS: Record<string, string> = {
  // The red team's program (#12 finding 2): the harness's own exec, through the caller's frame.
  'harness exec through the frame': "import sys\nsys._getframe(1).f_globals['exec'] = lambda *a, **k: None\n",
  'harness functions found by gc': [
    'import gc',
    'for o in gc.get_objects():',
    '    g = getattr(o, "__globals__", None)',
    '    if isinstance(g, dict) and g is not globals():',
    '        for name in ("exec", "compile", "print", "_exit_status", "_print_uncaught", "traceback", "isinstance"):',
    '            if name in g:',
    '                g[name] = (lambda *a, **k: 0)',
  ].join('\n'),
  'builtins': 'import builtins\nbuiltins.exec = builtins.compile = lambda *a, **k: None\nbuiltins.print = lambda *a, **k: None\nbuiltins.ValueError = KeyboardInterrupt\n',
  'module attributes and classes': [
    'import math, statistics, collections',
    'math.isclose = lambda *a, **k: True',
    'statistics.mean = lambda xs: 5',
    'collections.Counter.__eq__ = lambda self, other: True',
  ].join('\n'),
  'modules imported before the snapshot': [
    'import base64, dataclasses, datetime, decimal, json',
    'json.dumps = lambda *a, **k: "pwned"',
    'json.decoder.JSONDecoder.decode = lambda self, s, *a, **k: {"a": [1, 2]}',
    'dataclasses.dataclass = lambda *a, **k: (lambda c: c)',
    'datetime.date = type("date", (), {})',
    'decimal.getcontext().prec = 2',
    'base64.b64encode = lambda b: b"pwned"',
  ].join('\n'),
  'sys.modules': [
    'import sys, types',
    'fake = types.ModuleType("statistics")',
    'fake.mean = lambda xs: 5',
    'sys.modules["statistics"] = fake',
    'sys.modules["math"] = types.SimpleNamespace(isclose=lambda *a, **k: True)',
  ].join('\n'),
  'files on the import path': [
    'import os',
    'for d in ("/home/pyodide", "/lib/python3.11/site-packages", os.getcwd()):',
    '    os.makedirs(d, exist_ok=True)',
    '    with open(os.path.join(d, "statistics.py"), "w") as f:',
    '        f.write("def mean(xs):\\n    return 5\\n")',
  ].join('\n'),
  // The standard library is a file in the interpreter's file system (Pyodide's /lib/python311.zip,
  // .py and .pyc: scripts/build-python-stdlib.mjs): rewritten with a poisoned colorsys, which this
  // program imports to show the poison took; python3 has no such file, and the program does nothing.
  'the standard library zip rewritten': [
    'import os, sys, zipfile, zipimport',
    'ZIP = "/lib/python311.zip"',
    'if os.path.exists(ZIP):',
    '    with zipfile.ZipFile(ZIP) as z:',
    '        kept = {n: z.read(n) for n in z.namelist() if not n.startswith("colorsys.")}',
    '    with zipfile.ZipFile(ZIP, "w") as z:',
    '        for n, b in kept.items():',
    '            z.writestr(n, b)',
    '        z.writestr("colorsys.py", "def rgb_to_hsv(r, g, b):\\n    return (5, 5, 5)\\n")',
    '    zipimport._zip_directory_cache.clear()',
    '    sys.path_importer_cache.clear()',
    '    import colorsys',
    '    assert colorsys.rgb_to_hsv(1.0, 0.0, 0.0) == (5, 5, 5), "the poison did not take"',
  ].join('\n'),
  'sys settings, streams, environment, cwd': [
    'import sys, os, io',
    'sys.setrecursionlimit(60)',
    'sys.stdout = io.StringIO()',
    'sys.excepthook = lambda *a: None',
    'sys.exit = lambda *a: None',
    'os.environ["BENCHTOP_LEFT"] = "1"',
    'os.chdir("/")',
  ].join('\n'),
  'exit hooks': 'import atexit, os, sys\natexit.register(os._exit, 0)\nsys.excepthook = lambda *a: os._exit(0)\n',
};

/**
 * Failing programs that reach what the harness reads after them (harness.py `finish`); each
 * passed until 2026-12-02, python3 3.11 exits 1 for each (checked by the tests).
 */
export const PYTHON_FORGERIES: Record<string, string> = {
  'sys.last_value rewritten while Pyodide formats the error': 'import sys\nclass E(Exception):\n    def __str__(self):\n        sys.last_value = SystemExit(0)\n        return "Test failed"\nraise E()\n',
  'builtins.isinstance patched': 'import builtins\nclass E(Exception):\n    code = 0\n_real = isinstance\nbuiltins.isinstance = lambda o, t: True if t is SystemExit else _real(o, t)\nraise E("Test failed")\n',
  'a forged __class__': 'class E(Exception):\n    code = 0\n    __class__ = property(lambda self: SystemExit)\nraise E("Test failed")\n',
  "an int subclass's own &": 'import sys\nclass C(int):\n    def __and__(self, other):\n        return 0\nsys.exit(C(1))\n',
  'atexit._run_exitfuncs replaced': 'import atexit, os\natexit._run_exitfuncs = lambda: os._exit(0)\nassert 1 + 1 == 3, "Test failed"\n',
  'a __traceback__ property that exits 0': 'import os\nclass E(Exception):\n    @property\n    def __traceback__(self):\n        os._exit(0)\nraise E("Test failed")\n',
  "the traceback module patched to exit 0 while Pyodide reports the error": 'import os, traceback\ntraceback.TracebackException.__init__ = lambda *a, **k: os._exit(0)\nraise ValueError("Test failed")\n',
  'the traceback module patched to raise SystemExit(0)': 'import sys, traceback\ntraceback.TracebackException.__init__ = lambda *a, **k: sys.exit(0)\nraise ValueError("Test failed")\n',
  "sys's class answers excepthook": 'import os, sys, types\nclass M(types.ModuleType):\n    def __getattribute__(self, name):\n        if name == "excepthook":\n            return lambda *a: os._exit(0)\n        return types.ModuleType.__getattribute__(self, name)\nsys.__class__ = M\nassert 1 + 1 == 3, "Test failed"\n',
};

/** Python, finding 5: work scheduled on the event loop, a finalizer and an exit hook, 30 MB each. */
export const PYTHON_SCHEDULER = [
  'import asyncio, atexit',
  'SIZE = 30_000_000',
  'async def boom():',
  '    raise RuntimeError("t" * SIZE)',
  'loop = asyncio.get_event_loop()',
  'loop.call_later(0.01, lambda: print("l" * SIZE))',
  'loop.call_soon(lambda: print("s" * SIZE))',
  'task = asyncio.ensure_future(boom())',
  'class Late:',
  '    def __del__(self):',
  '        raise RuntimeError("d" * SIZE)',
  'keep = Late()',
  'atexit.register(lambda: print("a" * SIZE))',
  'print("scheduled")',
].join('\n');
