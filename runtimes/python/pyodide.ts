/**
 * Python runtime: Pyodide (CPython compiled to WebAssembly), loaded once per worker and reused.
 * Each run gets a fresh __main__ namespace and forgets the modules it imported (harness.py).
 * A runaway program cannot be interrupted here: the host kills the worker at the time limit.
 */
import { loadPyodide } from 'pyodide';
import harness from './harness.py?raw';
import type { LanguageRuntime } from '../types';

export interface PythonRuntimeOptions {
  /** Where Pyodide's files are served from (the app's own origin); Node finds them itself. */
  indexURL?: string;
}

export async function createPythonRuntime(options: PythonRuntimeOptions = {}): Promise<LanguageRuntime> {
  const pyodide = await loadPyodide({ indexURL: options.indexURL, stdin: () => null });
  let stdout = '';
  let stderr = '';
  const decoder = { out: new TextDecoder(), err: new TextDecoder() };
  pyodide.setStdout({ write: (bytes: Uint8Array) => ((stdout += decoder.out.decode(bytes, { stream: true })), bytes.length) });
  pyodide.setStderr({ write: (bytes: Uint8Array) => ((stderr += decoder.err.decode(bytes, { stream: true })), bytes.length) });
  pyodide.runPython(harness);
  const runProgram = pyodide.globals.get('run_program') as (source: string) => number;
  const cpython = pyodide.runPython('import sys; sys.version.split()[0]') as string;
  return {
    description: `Pyodide ${pyodide.version} (CPython ${cpython})`,
    async run(program) {
      stdout = '';
      stderr = '';
      const started = performance.now();
      const exitCode = runProgram(program);
      return { exitCode, stdout, stderr, timedOut: false, durationMs: performance.now() - started };
    },
  };
}
