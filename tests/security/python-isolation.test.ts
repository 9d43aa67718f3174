/**
 * Python: one answer cannot change the verdict of another (issue #12, findings 2, 5 and 9). One
 * Pyodide worker (pool of one, as the CLI runs it) gets a hostile program, then wrong answers that
 * must still fail and right answers that must still pass. The expected verdicts are not assumed:
 * each follow-up program runs under the real python3 too, in a process of its own (as the
 * official sandbox runs it), and is judged by the same rules (SPEC §4/§5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { runNative } from '../../runtimes/native/process';
import type { RunResult } from '../../src/contracts';
import { judgeRun } from '../../src/core/rules';
import { PYTHON_ATTACKS as ATTACKS, PYTHON_RIGHT as RIGHT, PYTHON_SCHEDULER, PYTHON_WRONG as WRONG } from '../support/hostile/clean-slate-attacks';

const TIMEOUT_MS = 20_000;
const executor = createNodeExecutor({ poolSize: 1 });
afterAll(() => executor.dispose());
const run = (program: string) => executor.run({ language: 'python', program, timeoutMs: TIMEOUT_MS });

/** What python3 says of each follow-up program: computed once, in a process of its own each. */
const official = new Map<string, string>();
beforeAll(async () => {
  for (const program of [...Object.values(WRONG), ...Object.values(RIGHT)]) {
    official.set(program, judgeRun('python', await runNative({ language: 'python', program, timeoutMs: TIMEOUT_MS })));
  }
  expect(Object.values(WRONG).map((p) => official.get(p)).every((v) => v !== 'PASSED')).toBe(true);
  expect(Object.values(RIGHT).map((p) => official.get(p))).toEqual(Object.values(RIGHT).map(() => 'PASSED'));
}, 120_000);

const followUps = (): [string, string][] => [...Object.entries(WRONG), ...Object.entries(RIGHT)];

describe('Python: nothing an answer does reaches the next one (one worker)', () => {
  it.each(Object.entries(ATTACKS))('after "%s", wrong answers still fail and right ones pass', async (_name, attack) => {
    await run(attack);
    for (const [label, program] of followUps()) {
      const verdict = judgeRun('python', await run(program));
      expect(verdict, label).toBe(official.get(program));
    }
  }, 180_000);

  it('the program runs with no harness frame above it', async () => {
    const r = await run('import sys\ntry:\n    sys._getframe(1)\nexcept ValueError:\n    print("top")\nprint(sys._getframe().f_back)\n');
    expect(r.stdout).toBe('top\nNone\n');
  });
});

describe('Python: what a program schedules or leaves behind stays in its own run (#12 finding 5)', () => {
  const scheduler = PYTHON_SCHEDULER;

  it('the next program sees none of it, and the scheduler pays for its own output', async () => {
    const first = await run(scheduler);
    // python3 runs atexit handlers and __del__ at exit, in this process: their output is this run's, capped.
    expect(first.stdout.startsWith('scheduled\n')).toBe(true);
    expect(first.truncated).toBe(true);
    expect(first.stdout.length + first.stderr.length).toBeLessThan(2 * (1 << 20) + 1000);
    const next: RunResult[] = [];
    for (const program of Object.values(RIGHT)) next.push(await run(program));
    // A pause, for anything a timer could still deliver, then one more program.
    await new Promise((resolve) => setTimeout(resolve, 300));
    next.push(await run(RIGHT.plain));
    for (const r of next) {
      expect(judgeRun('python', r), r.stderr.slice(0, 300)).toBe('PASSED');
      expect(r.stderr).toBe('');
      expect(r.stdout.length).toBeLessThan(100);
      expect(r.truncated).toBeFalsy();
    }
  }, 120_000);

  it('a C-library alarm it leaves (a handler, and the timer Emscripten keeps in JavaScript) fires into no later program', async () => {
    // signal.alarm is missing from Pyodide's signal module; the C library's alarm() is there, and
    // Emscripten runs its timer as a JavaScript setTimeout, which outlives the run and fires
    // between runs, after the put-back: into the state the next program starts from.
    const alarm = await run([
      'import builtins, ctypes, signal',
      'def late(*_):',
      '    builtins.LEAK = 1',
      '    open("/tmp/leak", "w").write("x")',
      'signal.signal(signal.SIGALRM, late)',
      'print(ctypes.CDLL(None).alarm(1))',
    ].join('\n'));
    expect(alarm.stdout).toBe('0\n');
    await new Promise((resolve) => setTimeout(resolve, 1300));
    // As in a new python3 process: no handler, no file, nothing set on builtins.
    const next = await run('import builtins, os, time\nt = time.time()\nwhile time.time() - t < 0.3: pass\nprint(getattr(builtins, "LEAK", None), os.path.exists("/tmp/leak"))');
    expect(next).toMatchObject({ exitCode: 0, stdout: 'None False\n', stderr: '' });
  }, 60_000);
});

describe('Python reaches no JavaScript object (#12 finding 9)', () => {
  // Every way from Python to a JavaScript object the red team or we know of; each success is listed.
  const probe = [
    'reached = []',
    'def attempt(name, fn):',
    '    try:',
    '        value = fn()',
    '    except BaseException:',
    '        return',
    '    reached.append(name)',
    'def ffi():',
    '    import pyodide.ffi',
    '    return pyodide.ffi',
    'attempt("import js", lambda: __import__("js").globalThis)',
    'attempt("import pyodide_js", lambda: __import__("pyodide_js")._module)',
    'attempt("create_proxy(capture_this=True)", lambda: ffi().create_proxy(lambda this, *a: this, capture_this=True))',
    'attempt("create_once_callable", lambda: ffi().create_once_callable(print))',
    'attempt("to_js", lambda: ffi().to_js([1, 2]).constructor)',
    'attempt("to_js dict", lambda: ffi().to_js({"a": 1}))',
    'attempt("JsException.js_error", lambda: ffi().to_js([1]))',
    'try:',
    '    ffi().to_js([1])',
    'except BaseException as e:',
    '    attempt("error object.constructor", lambda: e.js_error.constructor)',
    '    attempt("error object.toString", lambda: e.js_error.toString)',
    'for name in ("emscripten_run_script", "emscripten_run_script_string", "emscripten_async_run_script", "emscripten_set_timeout", "emscripten_async_call"):',
    '    attempt(f"ctypes {name} (eval, timers)", lambda: getattr(__import__("ctypes").CDLL(None), name))',
    'import gc',
    'def existing_proxies():',
    '    kinds = tuple(t for t in (getattr(ffi(), "JsProxy", None),) if t)',
    '    return [o for o in gc.get_objects() if kinds and isinstance(o, kinds)]',
    'for i, o in enumerate(existing_proxies()):',
    '    for attr in ("constructor", "globalThis", "self", "process", "navigator", "__proto__"):',
    '        attempt(f"existing proxy {i}.{attr}", lambda: getattr(o, attr))',
    '    attempt(f"existing proxy {i} called with a callback", lambda: o(lambda *a: a, 0))',
    'print("reached:", reached)',
  ].join('\n');

  it('every path is refused, and the next program is unaffected', async () => {
    const r = await run(probe);
    expect(r.stdout, r.stderr.slice(-500)).toBe('reached: []\n');
    expect(judgeRun('python', await run(RIGHT.plain))).toBe('PASSED');
    expect(judgeRun('python', await run(WRONG['failed assert']))).toBe(official.get(WRONG['failed assert']));
  }, 60_000);
});

describe('Python: raw memory a program writes is put back (the snapshot image, runtimes/host/memory-image.ts)', () => {
  // ctypes reaches the interpreter's whole memory. Buffers of 64 KB, 2 MB and 24 MB land in pages
  // that were zero in the snapshot (the image clears those instead of copying them) and, for the
  // largest, in memory grown past it; a pattern written there must be gone for the next program.
  it('a pattern written with ctypes.memset into fresh heap and grown memory is not there for the next program', async () => {
    const sizes = [64 << 10, 2 << 20, 24 << 20];
    const first = await run([
      'import ctypes',
      `bufs = [ctypes.create_string_buffer(n) for n in ${JSON.stringify(sizes)}]`,
      'for b in bufs:',
      '    ctypes.memset(ctypes.addressof(b), 0x5A, len(b))',
      'print(" ".join(str(ctypes.addressof(b)) for b in bufs))',
    ].join('\n'));
    expect(first.exitCode, first.stderr).toBe(0);
    const addresses = first.stdout.trim().split(' ').map(Number);
    expect(addresses).toHaveLength(3);
    const second = await run([
      'import ctypes',
      `for address, n in zip(${JSON.stringify(addresses)}, ${JSON.stringify(sizes)}):`,
      '    data = ctypes.string_at(address, n)',
      '    print(data.count(b"\\x5a" * 256))',
    ].join('\n'));
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stdout).toBe('0\n0\n0\n');
  });
});
