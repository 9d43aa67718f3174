/**
 * JavaScript runtime: QuickJS (quickjs-ng, compiled to WebAssembly). Every run gets a fresh
 * QuickJS runtime and context, so nothing survives from one program to the next, and the code
 * cannot reach the page, the worker's globals or the network: it sees only what prelude.js gives.
 * Timeouts are enforced inside QuickJS by an interrupt handler, so a runaway loop does not cost
 * the worker. See docs/architecture.md for why QuickJS rather than the worker's own V8.
 */
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSContext, type QuickJSHandle } from 'quickjs-emscripten-core';
import baseVariant from '@jitl/quickjs-ng-wasmfile-release-sync';
import nodeEnvironment from './node-env.generated.js';
import { NODE18_INTRINSICS, node18SyntaxError } from './node18';
import { packageVersion } from '../package-versions';
import { OutputCapture } from '../host/output';
import type { LanguageRuntime } from '../../src/contracts';
import type { StepDone } from '../loader';

/** The file a sandboxed worker needs from the host (it may not fetch it itself). */
export const QUICKJS_WASM_FILE = 'quickjs.wasm';

export interface JavaScriptRuntimeOptions {
  /** QuickJS's WebAssembly binary, handed in by the host: then nothing is fetched. */
  wasm?: ArrayBuffer;
  /** Told as each step of the load ends (loader.ts). */
  step?: StepDone;
}

const MEMORY_LIMIT_BYTES = 2 * 1024 * 1024 * 1024;
const STACK_LIMIT_BYTES = 2 * 1024 * 1024;

interface Streams {
  stdout: OutputCapture;
  stderr: OutputCapture;
}

export async function createJavaScriptRuntime(options: JavaScriptRuntimeOptions = {}): Promise<LanguageRuntime> {
  // Compiled once; a new instance (fresh memory) is made from it whenever the old one broke.
  const wasmModule = options.wasm ? await WebAssembly.compile(options.wasm) : null;
  options.step?.('compile');
  const variant = wasmModule ? newVariant(baseVariant, { wasmModule, wasmLocation: QUICKJS_WASM_FILE }) : baseVariant;
  let quickjs = await newQuickJSWASMModuleFromVariant(variant);
  options.step?.('start');
  return {
    description: `QuickJS-ng (quickjs-emscripten ${packageVersion('quickjs-emscripten-core')})`,
    async run(program, timeoutMs) {
      const started = performance.now();
      const deadline = started + timeoutMs;
      const streams: Streams = { stdout: new OutputCapture(), stderr: new OutputCapture() };
      // Syntax newer than the official Node 18 fails as it does there (node18.ts).
      const tooNew = node18SyntaxError(program);
      if (tooNew !== null) {
        return { exitCode: 1, stdout: '', stderr: tooNew, timedOut: false, durationMs: performance.now() - started };
      }
      const runtime = quickjs.newRuntime();
      runtime.setMemoryLimit(MEMORY_LIMIT_BYTES);
      // About 13,000 frames of simple recursion, near Node's ~11,000. Where the thread's own stack
      // is smaller (a browser worker), the host overflow below is reported as Node's RangeError.
      runtime.setMaxStackSize(STACK_LIMIT_BYTES);
      let interrupted = false;
      const exit: ExitRequest = { code: null, stopping: false };
      // (An exit stops the program too: an error QuickJS lets no catch or finally block take.)
      runtime.setInterruptHandler(() => exit.stopping || (interrupted = performance.now() > deadline));
      const context = runtime.newContext();
      let exitCode: number;
      try {
        exitCode = execute(context, program, streams, timeoutMs, () => interrupted, exit);
        context.dispose();
        runtime.dispose();
      } catch (e) {
        // The WebAssembly instance itself failed (host stack overflow, out of memory): its state
        // is lost, so the next run gets a new instance.
        const overflow = e instanceof RangeError;
        streams.stderr.write(overflow ? `RangeError: Maximum call stack size exceeded\n` : `benchtop: the JavaScript runtime failed: ${(e as Error).message}\n`);
        exitCode = 1;
        quickjs = await newQuickJSWASMModuleFromVariant(variant);
      }
      const result = {
        exitCode: interrupted ? null : exitCode,
        stdout: streams.stdout.text(),
        stderr: streams.stderr.text(),
        timedOut: interrupted || exitCode === TIMED_OUT,
        durationMs: performance.now() - started,
      };
      return streams.stdout.truncated || streams.stderr.truncated ? { ...result, truncated: true } : result;
    },
  };
}

const TIMED_OUT = -1;
/** What the host calls in the environment (prelude.js: `__benchtop`). */
const HOST_ENTRIES = ['runNextTimer', 'virtualNow', 'defaultExitCode', 'formatUncaught', 'handleUncaught', 'emitExit'] as const;

/**
 * process.exit as the host saw it: node-process.js calls `__benchtop_exit(n)` (a handle taken
 * before the program runs) and only then throws to unwind. The host learns of an exit from this
 * call alone, never from the thrown value (a program can catch it, reach its class and make any
 * error look like it: until 2026-12-02 a caught `process.exit(1)` or a forged `instanceof` gave
 * exit 0). Once `stopping`, the interrupt handler stops the program at its next check, as Node's
 * exit does at once: what it prints meanwhile is dropped.
 */
interface ExitRequest {
  code: number | null;
  stopping: boolean;
}

/** Runs the program and its event loop; returns the exit code (TIMED_OUT for a virtual-clock timeout). */
function execute(context: QuickJSContext, program: string, streams: Streams, timeoutMs: number, interrupted: () => boolean, exit: ExitRequest): number {
  const writeFn = context.newFunction('__benchtop_write', (fd, text, dropped) => {
    const stream = context.getNumber(fd) === 2 ? streams.stderr : streams.stdout;
    if (exit.stopping) return stream.full ? context.true : context.false; // (Node has exited by now)
    stream.write(context.getString(text));
    // Characters the environment did not even pass (node-process.js caps each write at 1 MB).
    if (dropped) stream.drop(context.getNumber(dropped));
    return stream.full ? context.true : context.false;
  });
  context.setProp(context.global, '__benchtop_write', writeFn);
  writeFn.dispose();
  const exitFn = context.newFunction('__benchtop_exit', (code) => {
    // The first exit wins until the 'exit' listeners run (Node exits at once).
    if (exit.stopping) return;
    const n = context.typeof(code) === 'number' ? context.getNumber(code) : 0;
    exit.code = Number.isFinite(n) ? Math.trunc(n) & 0xff : 0; // (a process's status: exit(-1) is 255, exit(256) is 0)
    exit.stopping = true;
  });
  context.setProp(context.global, '__benchtop_exit', exitFn);
  exitFn.dispose();
  context.unwrapResult(context.evalCode(NODE18_INTRINSICS, 'node18.js')).dispose();
  context.unwrapResult(context.evalCode(nodeEnvironment, 'node-env.js')).dispose();
  // The environment's entry points are taken before the program runs and their global removed: the
  // program can neither reach nor replace them (a replaced `exitCode` would turn its own uncaught
  // error into exit 0). Nothing else of the host is in the realm, which dies with the run.
  const host = context.getProp(context.global, '__benchtop');
  const entries = new Map(HOST_ENTRIES.map((name) => [name, context.getProp(host, name)] as const));
  context.unwrapResult(context.evalCode('delete globalThis.__benchtop', 'benchtop.js')).dispose();
  const call = (name: (typeof HOST_ENTRIES)[number], ...args: QuickJSHandle[]) => context.callFunction(entries.get(name)!, host, ...args);

  const dumpAndDispose = (result: ReturnType<typeof call>): unknown => {
    const handle = context.unwrapResult(result);
    const value = context.dump(handle);
    handle.dispose();
    return value;
  };

  /**
   * A thrown value reached the top: process.exit(n) gives n; an error that a
   * process.on('uncaughtException') listener takes gives null (the program goes on, as in Node);
   * any other is reported like Node's and gives 1 (7 when it came from such a listener, as in Node).
   */
  const uncaught = (error: QuickJSHandle, listeners = true, failure = 1): number | null => {
    try {
      if (exit.stopping) return exit.code;
      if (listeners) {
        const handled = call('handleUncaught', error);
        if (exit.stopping) {
          (handled.error ?? handled.value).dispose();
          return exit.code;
        }
        if (handled.error) return uncaught(handled.error, false, 7);
        const taken = context.dump(handled.value);
        handled.value.dispose();
        if (taken === true) return null;
      }
      const programHandle = context.newString(program);
      const formatted = call('formatUncaught', error, programHandle);
      programHandle.dispose();
      // (A getter of the error that calls process.exit while it is formatted changes nothing.)
      exit.stopping = false;
      if (formatted.error) formatted.error.dispose();
      else streams.stderr.write(String(dumpAndDispose(formatted)));
      return failure;
    } finally {
      error.dispose();
    }
  };
  let completion: QuickJSHandle | undefined;

  try {
    let code: number | null = null;
    const evaluated = context.evalCode(program, 'test.js', { type: 'global' });
    // The script's completion value: when the last statement is a call like `demoTesting()` of an
    // async function, its rejection is the unhandled rejection that makes Node exit with code 1.
    if (evaluated.error) code = uncaught(evaluated.error);
    else completion = evaluated.value;
    while (code === null && !exit.stopping) {
      if (interrupted()) return TIMED_OUT;
      const jobs = context.runtime.executePendingJobs();
      if (jobs.error) {
        code = uncaught(jobs.error);
        continue;
      }
      jobs.dispose();
      if (exit.stopping) break;
      const ran = call('runNextTimer');
      if (ran.error) {
        code = uncaught(ran.error);
        continue;
      }
      const more = context.dump(ran.value);
      ran.value.dispose();
      if (!more || exit.stopping) break;
      const now = dumpAndDispose(call('virtualNow')) as number;
      if (now > timeoutMs) return TIMED_OUT;
    }
    if (exit.stopping) code = exit.code;
    if (code === null && completion) {
      const state = context.getPromiseState(completion);
      if (state.type === 'rejected') code = uncaught(state.error);
      else if (state.type === 'fulfilled' && !state.notAPromise) state.value.dispose();
    }
    if (code === null) code = (dumpAndDispose(call('defaultExitCode')) as number) & 0xff;
    // Node's 'exit' event: its listeners run inside this run, may print, and may change the code
    // (process.exit in one ends there with its code, as in Node).
    exit.stopping = false;
    const codeHandle = context.newNumber(code);
    const exited = call('emitExit', codeHandle);
    codeHandle.dispose();
    if (exit.stopping) {
      (exited.error ?? exited.value).dispose();
      return exit.code ?? 0;
    }
    if (exited.error) return uncaught(exited.error, false) ?? 1;
    return (dumpAndDispose(exited) as number) & 0xff;
  } finally {
    completion?.dispose();
    for (const fn of entries.values()) fn.dispose();
    host.dispose();
  }
}
