/**
 * Python runtime: Pyodide (CPython compiled to WebAssembly), loaded once per worker and reused.
 * Each run gets a fresh __main__ namespace and forgets the modules it imported (harness.py).
 * A runaway program cannot be interrupted here: the host kills the worker at the time limit.
 *
 * Isolation (docs/security.md): the program's `js` module is an empty object instead of the
 * worker's globals, and in the page the worker loads Pyodide from files the host hands in, so it
 * needs no network at all and runs under a policy that forbids every connection.
 */
import { loadPyodide, type PyodideInterface } from 'pyodide';
import harness from './harness.py?raw';
import { OutputCapture, type LanguageRuntime } from '../types';

/** Pyodide's files by name (pyodide.asm.mjs, pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json). */
export type RuntimeFiles = Record<string, ArrayBuffer>;

/** The files a sandboxed worker needs from the host to start Pyodide without any request. */
export const PYODIDE_FILES = ['pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'] as const;

export interface PythonRuntimeOptions {
  /** Where Pyodide's files are served from (the app's own origin); Node finds them itself. */
  indexURL?: string;
  /** Pyodide's files, handed in by the host: then nothing is fetched (the page's sandboxed workers). */
  files?: RuntimeFiles;
}

/** A base that never resolves: only the in-memory files below answer to it. */
const IN_MEMORY_BASE = 'https://pyodide.benchtop.invalid/';

export async function createPythonRuntime(options: PythonRuntimeOptions = {}): Promise<LanguageRuntime> {
  let stdout = new OutputCapture();
  let stderr = new OutputCapture();
  const decoder = { out: new TextDecoder(), err: new TextDecoder() };
  const pyodide = options.files ? await loadFromFiles(options.files) : await loadPyodide({ indexURL: options.indexURL, stdin: () => null, jsglobals: {} });
  pyodide.setStdout({ write: (bytes: Uint8Array) => (stdout.writeBytes(bytes, decoder.out), bytes.length) });
  pyodide.setStderr({ write: (bytes: Uint8Array) => (stderr.writeBytes(bytes, decoder.err), bytes.length) });
  pyodide.runPython(harness);
  const runProgram = pyodide.globals.get('run_program') as (source: string) => number;
  const cpython = pyodide.runPython('import sys; sys.version.split()[0]') as string;
  lockdownPyodide(pyodide);
  return {
    description: `Pyodide ${pyodide.version} (CPython ${cpython})`,
    async run(program) {
      stdout = new OutputCapture();
      stderr = new OutputCapture();
      decoder.out = new TextDecoder();
      decoder.err = new TextDecoder();
      const started = performance.now();
      const exitCode = runProgram(program);
      const result = { exitCode, stdout: stdout.text(), stderr: stderr.text(), timedOut: false, durationMs: performance.now() - started };
      return stdout.truncated || stderr.truncated ? { ...result, truncated: true } : result;
    },
  };
}

/**
 * Takes from Pyodide what a test program could misuse once it holds the `pyodide_js` object
 * (reachable through sys.modules): sockets (Emscripten's SOCKFS opens WebSockets in a browser
 * and real TCP connections under Node), host file systems (Node's disk), package loading (network
 * or disk), and the setters of our stdout/stderr capture. The `js` module is unregistered.
 */
function lockdownPyodide(pyodide: PyodideInterface): void {
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
  for (const name of [
    'loadPackage', 'loadPackagesFromImports', 'mountNodeFS', 'mountNativeFS', 'useNodeSockFS', 'registerComlink',
    'setStdout', 'setStderr', 'setStdin', 'setInterruptBuffer', 'makeMemorySnapshot', 'unpackArchive', 'registerJsModule',
  ]) {
    delete api[name];
  }
  pyodide.unregisterJsModule('js');
  pyodide.runPython("import sys\nsys.modules.pop('js', None)");
  delete api.unregisterJsModule;
}

/**
 * Starts Pyodide from in-memory files: its module script comes from a blob: URL, and its two
 * fetches (the .wasm and the standard library) are answered by a stand-in `fetch` that knows only
 * these files. The stand-in is removed afterwards (the worker's lockdown deletes `fetch` for good).
 */
async function loadFromFiles(files: RuntimeFiles): Promise<PyodideInterface> {
  for (const name of PYODIDE_FILES) if (!files[name]) throw new Error(`missing ${name}`);
  const scope = globalThis as { fetch?: typeof fetch };
  const realFetch = scope.fetch;
  scope.fetch = async (input: RequestInfo | URL) => {
    const url = String(input instanceof Request ? input.url : input);
    const name = url.startsWith(IN_MEMORY_BASE) ? url.slice(IN_MEMORY_BASE.length) : '';
    const body = files[name];
    if (!body) throw new TypeError(`benchtop: no request may leave the runtime worker (${url})`);
    return new Response(body, { headers: { 'content-type': name.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream' } });
  };
  const moduleUrl = URL.createObjectURL(new Blob([files['pyodide.asm.mjs']!], { type: 'text/javascript' }));
  try {
    const asm = (await import(/* @vite-ignore */ moduleUrl)) as { default: NonNullable<Parameters<typeof loadPyodide>[0]>['createPyodideModule'] };
    return await loadPyodide({
      indexURL: IN_MEMORY_BASE,
      createPyodideModule: asm.default,
      lockFileContents: new TextDecoder().decode(files['pyodide-lock.json']),
      stdin: () => null,
      jsglobals: {},
    });
  } finally {
    URL.revokeObjectURL(moduleUrl);
    if (realFetch) scope.fetch = realFetch;
    else delete scope.fetch;
  }
}
