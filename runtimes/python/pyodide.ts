/**
 * Python runtime: Pyodide 0.25.1, which is CPython 3.11 like the official image (docs/fidelity.md),
 * loaded once per worker. Every program starts from the same state: the interpreter is put back
 * from a snapshot after each run (snapshot.ts), and the program runs with no harness frame above it
 * (harness.py; JavaScript drives the run). A runaway program cannot be interrupted here: the host
 * kills the worker at the time limit.
 *
 * Isolation (docs/security.md): Python sees no JavaScript globals (its `js` module and the
 * `pyodide_js` module are unregistered; the two timer functions Pyodide's event loop imports are
 * inert stand-ins, so nothing a program schedules can run later), and while a program runs nothing
 * new crosses the bridge: no Python object becomes a JavaScript proxy (create_proxy, to_js of a
 * callable…) and no JavaScript object becomes a Python proxy (only strings, numbers, booleans and
 * null come back). In the page the worker loads Pyodide from files the host hands in, so it needs
 * no network at all and runs under a policy that forbids every connection.
 */
import { loadPyodide, type PyodideInterface } from 'pyodide';
import { pythonDecline } from './decline';
import harness from './harness.py?raw';
import { InterpreterSnapshot, type PyodideModule } from './snapshot';
import { AheadStep } from '../host/ahead';
import { declinedRun, OutputCapture } from '../host/output';
import type { LanguageRuntime } from '../../src/contracts';
import type { StepDone } from '../loader';

/** Pyodide's files by name (pyodide.asm.js, pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json). */
export type RuntimeFiles = Record<string, ArrayBuffer>;

/** The files a sandboxed worker needs from the host to start Pyodide without any request. */
export const PYODIDE_FILES = ['pyodide.asm.js', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'] as const;

export interface PythonRuntimeOptions {
  /**
   * Where each of Pyodide's files is (by the names of PYODIDE_FILES), when it loads them itself
   * (Node: node_modules; `npm run dev`: the app's origin). The catalog names the files: its
   * python_stdlib.zip is the zip with each module compiled (scripts/build-python-stdlib.mjs).
   */
  urls?: Record<string, string>;
  /** Pyodide's files, handed in by the host: then nothing is fetched (the page's sandboxed workers). */
  files?: RuntimeFiles;
  /** Told as each step of the load ends (loader.ts). */
  step?: StepDone;
}

/** A base that never resolves: only the in-memory files below answer to it. */
const IN_MEMORY_BASE = 'https://pyodide.benchtop.invalid/';

/**
 * The only JavaScript globals Python gets. Pyodide's event loop imports setTimeout/clearTimeout
 * when it starts; these never call anything, so an asyncio task or a timer a program schedules
 * never runs (under `python3` it would die with the process too).
 */
function inertGlobals(): object {
  return { setTimeout: Object.freeze(() => 0), clearTimeout: Object.freeze(() => undefined) };
}

/** Standard input is empty, as in the official sandbox: Pyodide reads null as end of input. */
const endOfInput = () => null as unknown as string;

type PyCallable = ((...args: unknown[]) => unknown) & { destroy(): void };

export async function createPythonRuntime(options: PythonRuntimeOptions = {}): Promise<LanguageRuntime> {
  let stdout: OutputCapture | null = null;
  let stderr: OutputCapture | null = null;
  const decoder = { out: new TextDecoder(), err: new TextDecoder() };
  const imports = watchWasmImports();
  let pyodide: PyodideInterface;
  try {
    if (options.files) pyodide = await loadFromFiles(options.files, options.step);
    else if (options.urls) pyodide = await loadFromUrls(options.urls);
    else throw new Error('benchtop: Python needs its files or where they are');
  } finally {
    imports.stopWatching();
  }
  // Instantiation, CPython's start-up and the imports of Pyodide's own modules.
  options.step?.('start');
  const wasmImports = imports.captured();
  const memory = wasmImports.memory;
  if (!(memory instanceof WebAssembly.Memory)) throw new Error('Pyodide changed: it imports no memory');
  hideJsLibraryFromDlsym(wasmImports);
  // Output outside a run (there should be none) is dropped: it belongs to no program.
  pyodide.setStdout({ write: (bytes: Uint8Array) => (stdout?.writeBytes(bytes, decoder.out), bytes.length) });
  pyodide.setStderr({ write: (bytes: Uint8Array) => (stderr?.writeBytes(bytes, decoder.err), bytes.length) });
  const namespace = pyodide.toPy({}) as { get(name: string): unknown; destroy(): void };
  pyodide.runPython(harness, { globals: namespace as never });
  const prepare = namespace.get('prepare') as PyCallable;
  const finish = namespace.get('finish') as PyCallable;
  options.step?.('harness'); // (with the common modules it imports)
  const cpython = pyodide.runPython('import sys; sys.version.split()[0]') as string;
  const bridge = lockdownPyodide(pyodide);
  const description = `Pyodide ${pyodide.version} (CPython ${cpython})`;
  // Collected now, so that the snapshot holds no garbage and no pending finalizer; then frozen
  // (gc.freeze: the collector skips these objects from now on), so that the collection that
  // ends every program (harness.py `finish`, as python3's exit does) walks only the program's own
  // objects, not the whole standard library loaded here: the largest per-program cost before.
  pyodide.runPython('import gc; gc.collect(); gc.freeze()');
  options.step?.('gc');
  const module = (pyodide as unknown as { _module: PyodideModule & { API: unknown } })._module;
  const snapshot = new InterpreterSnapshot(module, memory);
  // The JavaScript objects Python still holds (the globals stand-in, Pyodide's public API object,
  // its package record…) are frozen: a program could otherwise leave a value on one for the next.
  for (const value of snapshot.heldValues()) {
    if (value !== module && value !== module.API && (typeof value === 'object' || typeof value === 'function') && value) Object.freeze(value);
  }
  options.step?.('snapshot');
  // The interpreter as it was at the snapshot, put back after a program's result has gone out
  // (AheadStep); a put-back that fails starts no program: the worker hands the run to a new one.
  const putBack = new AheadStep(() => snapshot.restore());

  return {
    description,
    async run(program) {
      const declined = pythonDecline(program);
      if (declined) return declinedRun(declined);
      stdout = new OutputCapture();
      stderr = new OutputCapture();
      decoder.out = new TextDecoder();
      decoder.err = new TextDecoder();
      const started = performance.now();
      let exitCode = 1;
      // The interpreter itself failed (not the program's Python code): report, then replace it.
      let broken = false;
      await putBack.ensure();
      prepare(program);
      const job = namespace.get('job') as PyCallable;
      bridge.close();
      let raised = false;
      let address: number | null = null;
      try {
        job();
      } catch (e) {
        raised = true; // a Python exception is in sys.last_value: finish() reads it, if it is still the one at `address`
        const named = (e as { __error_address?: unknown } | null)?.__error_address;
        if (typeof named === 'number') address = named;
        if (!(e instanceof Error) || e.constructor.name !== 'PythonError') {
          // The run left Python: os._exit() (Emscripten's ExitStatus), os.abort(), a wasm trap.
          broken = true;
          exitCode = exitStatusOf(e);
          // Emscripten's own ExitStatus, not Pyodide's Exit, reaches here only from Pyodide's report
          // of an exception that left the program (the call's own exits come converted): the
          // report runs the traceback module, which the program may have patched to exit 0 (until
          // 2026-12-02 that passed a failure). python3 reports in C: the uncaught error's status.
          if ((e as { name?: unknown } | null)?.name === 'ExitStatus') {
            exitCode = 1;
            stderr.write('benchtop: the program exited while its uncaught exception was being reported\n');
          }
        }
      }
      if (!broken) {
        try {
          const status = Number(finish(raised, address));
          exitCode = Number.isInteger(status) ? status : 1;
        } catch (e) {
          broken = true; // the program broke its own ending: it can only harm its own verdict
          // os._exit(n) in an atexit handler or sys.excepthook ends python3 with n as well.
          exitCode = exitStatusOf(e);
        }
      }
      bridge.open();
      try {
        job.destroy();
      } catch {
        broken = true; // an interpreter that aborted refuses even this
      }
      const result = { exitCode, stdout: stdout.text(), stderr: stderr.text(), timedOut: false, durationMs: performance.now() - started };
      const truncated = stdout.truncated || stderr.truncated;
      stdout = stderr = null; // anything emitted after this point belongs to no run
      // A program that left what the snapshot cannot put back (unrestorable) ends its worker with
      // its own result, as python3's exit ends whatever a program did to its interpreter.
      const retire = broken || snapshot.unrestorable() !== null || snapshot.grownBytes() > RETIRE_AFTER_GROWTH;
      return { ...result, ...(truncated ? { truncated: true } : {}), ...(retire ? { retire: true } : {}) };
    },
    prepare: () => putBack.prepare(),
  };
}

/** The exit status of a run that left Python: os._exit(n) gives n, as under python3; anything else, 1. */
function exitStatusOf(error: unknown): number {
  const e = error as { name?: unknown; status?: unknown } | null;
  // Pyodide 0.25 rethrows Emscripten's ExitStatus as its own error named Exit.
  return e && (e.name === 'ExitStatus' || e.name === 'Exit') && Number.isInteger(e.status) ? (e.status as number) & 0xff : 1;
}

/** A program that grew the interpreter's memory by more than this gets the worker replaced after it (memory back to the system). */
const RETIRE_AFTER_GROWTH = 512 << 20;

/**
 * Emscripten's table of the module's imports (`wasmImports`): besides what the wasm calls directly
 * (bound when it was instantiated), it is where `dlsym` looks symbols up, so Python's ctypes
 * (`ctypes.CDLL(None).emscripten_run_script(b"…")`) could call any JavaScript library function:
 * `eval` of a string, timers that call back into wasm after the program's run, browser event
 * callbacks. It is caught here as Pyodide instantiates the module: pyodide.asm.js publishes its
 * factory on globalThis, and the factory's instantiateWasm hook receives the imports.
 */
function watchWasmImports(): { captured(): Record<string, unknown>; stopWatching(): void } {
  const scope = globalThis as Record<string, unknown>;
  let imports: Record<string, unknown> | null = null;
  type Factory = (moduleArg: { instantiateWasm?: (info: { env: Record<string, unknown> }, receive: unknown) => unknown }) => unknown;
  let factory: Factory | undefined;
  const wrapped: Factory = (moduleArg) => {
    const instantiate = moduleArg.instantiateWasm;
    if (!instantiate) throw new Error('Pyodide changed: no instantiateWasm hook');
    moduleArg.instantiateWasm = (info, receive) => {
      imports = info.env;
      return instantiate.call(moduleArg, info, receive);
    };
    return factory!(moduleArg);
  };
  Object.defineProperty(scope, '_createPyodideModule', {
    configurable: true,
    get: () => (factory ? wrapped : undefined),
    set: (value: Factory) => {
      if (value !== wrapped) factory = value; // a classic script re-assigns what it read back
    },
  });
  return {
    captured: () => {
      if (!imports) throw new Error('Pyodide changed: its imports were not seen');
      return imports;
    },
    stopWatching: () => {
      delete scope._createPyodideModule;
    },
  };
}

/**
 * Leaves `dlsym` only the module's own (WebAssembly) functions: every JavaScript function in the
 * imports is replaced by a stub marked as such, which Emscripten's dynamic linker treats as an
 * undefined symbol. The wasm's own calls are unaffected (bound at instantiation), and Pyodide
 * loads no side module after start-up here (no package loading; its standard library is built in).
 */
function hideJsLibraryFromDlsym(imports: Record<string, unknown>): void {
  const stub = Object.assign(() => {
    throw new Error('benchtop: JavaScript library functions are not callable from test programs');
  }, { stub: true });
  for (const [name, value] of Object.entries(imports)) {
    const native = typeof value === 'function' && /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(value));
    if (typeof value === 'function' && !native) imports[name] = stub;
  }
}

/** Opens and closes the bridge between Python and JavaScript around a program's run. */
interface Bridge {
  close(): void;
  open(): void;
}

/**
 * Takes from Pyodide what a test program could misuse: sockets (Emscripten's SOCKFS opens
 * WebSockets in a browser and real TCP connections under Node), host file systems (Node's disk),
 * package loading (network or disk), the setters of our stdout/stderr capture, and the `js` and
 * `pyodide_js` modules. Returns the switch that, while a program runs, refuses every new proxy
 * across the bridge: a Python object handed to JavaScript as a callable or proxy (the way to get
 * JavaScript to call back into Python, `this` included), a JavaScript object handed to Python
 * (the way to walk from one object to the worker's globals), and Pyodide's finalizers for such
 * objects (which would run after the snapshot is restored).
 */
function lockdownPyodide(pyodide: PyodideInterface): Bridge {
  const api = pyodide as unknown as Record<string, unknown>;
  const module = api._module as Record<string, unknown> & { SOCKFS?: Record<string, unknown> };
  const FS = pyodide.FS as unknown as { ErrnoError: new (errno: number) => Error; filesystems?: Record<string, unknown> };
  const EACCES = (pyodide.ERRNO_CODES as Record<string, number>).EACCES ?? 2;
  const denied = () => {
    throw new FS.ErrnoError(EACCES);
  };
  if (module.SOCKFS) {
    module.SOCKFS.createSocket = denied;
    const ops = module.SOCKFS.websocket_sock_ops as Record<string, unknown> | undefined;
    if (ops) ops.createPeer = denied;
  }
  for (const name of ['NODEFS', 'NODERAWFS', 'IDBFS', 'PROXYFS', 'WORKERFS']) {
    if (FS.filesystems) delete FS.filesystems[name];
    delete module[name];
  }
  pyodide.unregisterJsModule('js');
  pyodide.unregisterJsModule('pyodide_js');
  pyodide.runPython("import sys\nfor _m in ('js', 'pyodide_js'): sys.modules.pop(_m, None)\ndel _m");
  for (const name of [
    'loadPackage', 'loadPackagesFromImports', 'mountNodeFS', 'mountNativeFS', 'useNodeSockFS', 'registerComlink',
    'setStdout', 'setStderr', 'setStdin', 'setInterruptBuffer', 'makeMemorySnapshot', 'unpackArchive', 'registerJsModule',
    'unregisterJsModule', 'runPythonAsync', 'pyimport', 'globals', 'pyodide_py', 'FS', 'PATH', '_api',
  ]) {
    delete api[name];
  }

  const real = {
    pyproxyNew: module.pyproxy_new as (...args: unknown[]) => unknown,
    immutable: module.js2python_convertImmutable as (value: unknown) => unknown,
    convert: module.js2python_convert as (...args: unknown[]) => unknown,
    registry: module.finalizationRegistry,
  };
  const internals = module.API as Record<string, unknown>;
  const realIsPyProxy = internals.isPyProxy as (value: unknown) => boolean;
  for (const [name, fn] of Object.entries(real)) if (!fn) throw new Error(`Pyodide changed: ${name} is missing`);
  const refused = () => new Error('benchtop: no object crosses between Python and JavaScript while a test program runs');
  const closed = {
    pyproxy_new: () => {
      throw refused();
    },
    js2python_convertImmutable: (value: unknown) => {
      const result = real.immutable(value);
      if (result === undefined) throw refused();
      return result;
    },
    js2python_convert: () => {
      throw refused();
    },
    finalizationRegistry: { register() {}, unregister() {} },
  };
  // A few JavaScript objects become Python proxies in C, without asking js2python_convertImmutable
  // (pyodide.ffi.create_once_callable, an attribute of an existing proxy). All of them go through
  // JsProxy_compute_typeflags, whose first question is this one: refused there, except for errors,
  // so that a program still gets its exceptions (they carry no way out: see above).
  const closedIsPyProxy = (value: unknown) => {
    const making = (new Error().stack ?? 'JsProxy_compute_typeflags').includes('JsProxy_compute_typeflags'); // no stack: refuse
    if (making && !(value instanceof Error)) throw refused();
    return realIsPyProxy(value);
  };
  return {
    close: () => {
      Object.assign(module, closed);
      internals.isPyProxy = closedIsPyProxy;
    },
    open: () => {
      internals.isPyProxy = realIsPyProxy;
      Object.assign(module, {
        pyproxy_new: real.pyproxyNew,
        js2python_convertImmutable: real.immutable,
        js2python_convert: real.convert,
        finalizationRegistry: real.registry,
      });
    },
  };
}

/** Throws unless each of PYODIDE_FILES is given (as bytes or as an address). */
function requireAll(given: Record<string, unknown>): void {
  for (const name of PYODIDE_FILES) if (!given[name]) throw new Error(`missing ${name}`);
}

/** Pyodide loads itself: its script, module and lock file from one folder, the standard library from its own address. */
function loadFromUrls(urls: Record<string, string>): Promise<PyodideInterface> {
  requireAll(urls);
  const script = urls['pyodide.asm.js']!;
  const indexURL = script.slice(0, script.lastIndexOf('/') + 1);
  for (const name of ['pyodide.asm.wasm', 'pyodide-lock.json']) {
    if (urls[name] !== indexURL + name) throw new Error(`benchtop: Pyodide loads ${name} from the folder of pyodide.asm.js`);
  }
  return loadPyodide({ indexURL, stdLibURL: urls['python_stdlib.zip'], stdin: endOfInput, jsglobals: inertGlobals() });
}

/**
 * Starts Pyodide from in-memory files: its module script comes from a blob: URL (it defines
 * globalThis._createPyodideModule, which loadPyodide then uses), and its fetches (the .wasm, the
 * standard library, the lock file) are answered by a stand-in `fetch` that knows only these files.
 * The stand-in is removed afterwards (the worker's lockdown deletes `fetch` for good).
 */
async function loadFromFiles(files: RuntimeFiles, step?: StepDone): Promise<PyodideInterface> {
  requireAll(files);
  const scope = globalThis as { fetch?: typeof fetch; _createPyodideModule?: unknown };
  // (globalThis._createPyodideModule is watched by watchWasmImports, which removes it afterwards.)
  const realFetch = scope.fetch;
  scope.fetch = async (input: RequestInfo | URL) => {
    const url = String(input instanceof Request ? input.url : input);
    const name = url.startsWith(IN_MEMORY_BASE) ? url.slice(IN_MEMORY_BASE.length) : '';
    const body = files[name];
    if (!body) throw new TypeError(`benchtop: no request may leave the runtime worker (${url})`);
    return new Response(body, { headers: { 'content-type': name.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream' } });
  };
  const moduleUrl = URL.createObjectURL(new Blob([files['pyodide.asm.js']!], { type: 'text/javascript' }));
  try {
    await import(/* @vite-ignore */ moduleUrl);
    if (typeof scope._createPyodideModule !== 'function') throw new Error('pyodide.asm.js did not load');
    step?.('script');
    return await loadPyodide({ indexURL: IN_MEMORY_BASE, stdin: endOfInput, jsglobals: inertGlobals() });
  } finally {
    URL.revokeObjectURL(moduleUrl);
    if (realFetch) scope.fetch = realFetch;
    else delete scope.fetch;
  }
}
