/**
 * JavaScript runtime: QuickJS (quickjs-ng, compiled to WebAssembly). Every run starts from the
 * same fresh QuickJS runtime and context (a snapshot of the instance put back: createRealm says
 * how), so nothing survives from one program to the next, and the code
 * cannot reach the page, the worker's globals or the network: it sees only what prelude.js gives.
 * Timeouts are enforced inside QuickJS by an interrupt handler, so a runaway loop does not cost
 * the worker. See docs/architecture.md for why QuickJS rather than the worker's own V8.
 */
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSContext, type QuickJSHandle } from 'quickjs-emscripten-core';
import baseVariant from '@jitl/quickjs-ng-wasmfile-release-sync';
// The browser build of QuickJS's Emscripten glue, in every host (the page resolves the package to
// it anyway). The Node build requires node:fs, node:path and node:url each time it makes a module,
// which a Node runtime worker's module gate refuses once the runtime has loaded
// (runtimes/host/node-lockdown.ts), and a realm may have to be made again at run time. This build
// asks the host for nothing: createRealm hands it the memory and the instance. (No declaration
// file sits beside it for a path import; its type is the package's own loader's, below.)
// @ts-ignore
import browserGlueUntyped from '../../node_modules/@jitl/quickjs-ng-wasmfile-release-sync/dist/emscripten-module.browser.mjs';
import nodeEnvironment from './node-env.generated.js';
import { NODE18_INTRINSICS, node18SyntaxError } from './node18';
import { packageVersion } from '../package-versions';
import { AheadStep } from '../host/ahead';
import { OutputCapture } from '../host/output';
import { exposeMutableGlobals, InstanceSnapshot } from '../host/wasm-snapshot';
import type { LanguageRuntime } from '../../src/contracts';
import type { StepDone } from '../loader';

/** The file a sandboxed worker needs from the host (it may not fetch it itself). */
export const QUICKJS_WASM_FILE = 'quickjs.wasm';

export interface JavaScriptRuntimeOptions {
  /** QuickJS's WebAssembly binary, handed in by the host (required: nothing is fetched). */
  wasm?: ArrayBuffer;
  /** Told as each step of the load ends (loader.ts). */
  step?: StepDone;
}

const MEMORY_LIMIT_BYTES = 2 * 1024 * 1024 * 1024;
const STACK_LIMIT_BYTES = 2 * 1024 * 1024;
/** The memory QuickJS's module asks for at least (16 MB); what a snapshot copies. */
const INITIAL_MEMORY_PAGES = 256;

interface Streams {
  stdout: OutputCapture;
  stderr: OutputCapture;
}

export async function createJavaScriptRuntime(options: JavaScriptRuntimeOptions): Promise<LanguageRuntime> {
  if (!options.wasm) throw new Error('the JavaScript runtime needs QuickJS\'s WebAssembly binary');
  // Compiled once, with every mutable global exported (the snapshot puts them back); a new
  // realm is made from it whenever the old one broke or grew too much.
  const wasmModule = await WebAssembly.compile(exposeMutableGlobals(options.wasm));
  options.step?.('compile');
  const run: RunState = { streams: newStreams(), deadline: 0, interrupted: false, exit: { code: null, stopping: false } };
  let realm = await createRealm(wasmModule, run);
  options.step?.('start');
  // The realm as it was after start-up: nothing of the last program is left (header).
  const putBack = new AheadStep(async () => {
    if (!realm.restore()) realm = await createRealm(wasmModule, run);
  });
  return {
    description: `QuickJS-ng (quickjs-emscripten ${packageVersion('quickjs-emscripten-core')})`,
    async run(program, timeoutMs) {
      const started = performance.now();
      // Syntax newer than the official Node 18 fails as it does there (node18.ts).
      const tooNew = node18SyntaxError(program);
      if (tooNew !== null) {
        return { exitCode: 1, stdout: '', stderr: tooNew, timedOut: false, durationMs: performance.now() - started };
      }
      await putBack.ensure();
      realm.begin();
      const streams = newStreams();
      Object.assign(run, { streams, deadline: started + timeoutMs, interrupted: false, exit: { code: null, stopping: false } });
      let exitCode: number;
      try {
        exitCode = execute(realm, program, run, timeoutMs);
      } catch (e) {
        // The WebAssembly instance itself failed (host stack overflow, out of memory) in the
        // middle of a call: the next run gets a new realm.
        const overflow = e instanceof RangeError;
        streams.stderr.write(overflow ? `RangeError: Maximum call stack size exceeded\n` : `benchtop: the JavaScript runtime failed: ${(e as Error).message}\n`);
        exitCode = 1;
        realm = await createRealm(wasmModule, run);
      }
      const result = {
        exitCode: run.interrupted ? null : exitCode,
        stdout: streams.stdout.text(),
        stderr: streams.stderr.text(),
        timedOut: run.interrupted || exitCode === TIMED_OUT,
        durationMs: performance.now() - started,
      };
      return streams.stdout.truncated || streams.stderr.truncated ? { ...result, truncated: true } : result;
    },
    prepare: () => putBack.prepare(),
  };
}

const newStreams = (): Streams => ({ stdout: new OutputCapture(), stderr: new OutputCapture() });

/** What the host functions and the interrupt handler of a realm read: the current run's. */
interface RunState {
  streams: Streams;
  deadline: number;
  interrupted: boolean;
  exit: ExitRequest;
}

/** Memory a program may grow and still be put back (zeroing it); past that, a new realm. */
const GROWTH_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * A QuickJS instance with its runtime and context set up for a program (limits, the host
 * functions, Node 18's intrinsics and the Node-like environment), and the snapshot of that state.
 */
interface Realm {
  context: QuickJSContext;
  /** The environment's `__benchtop` object and its entry points, taken before the snapshot. */
  host: QuickJSHandle;
  entries: ReadonlyMap<(typeof HOST_ENTRIES)[number], QuickJSHandle>;
  /** Puts the instance back to its snapshot; false: it grew too much. */
  restore(): boolean;
  /** A new Math.random seed, and the clock's origin now: called as a program starts. */
  begin(): void;
}

/**
 * Setting up a context costs about 9 ms, nearly all of it evaluating the 60 KB environment, which
 * was most of a typical program's run. So it is done once per realm and the instance's memory and
 * globals are kept (runtimes/host/wasm-snapshot.ts) and put back before each program. QuickJS's
 * whole state (objects, atoms, jobs, the runtime's limits) is in that memory; the host side keeps
 * only the handles taken here, which stay valid because they point into it. Two values of the
 * context must not repeat from run to run: Math.random's seed (xorshift64*, seeded from the clock
 * when the context is made) and the origin of `performance.now()`; each run writes its own.
 */
async function createRealm(wasmModule: WebAssembly.Module, run: RunState): Promise<Realm> {
  // No deadline while the environment is evaluated (a run's may have passed).
  run.deadline = Infinity;
  run.exit = { code: null, stopping: false };
  const memory = new WebAssembly.Memory({ initial: INITIAL_MEMORY_PAGES, maximum: 32768 });
  let instance: WebAssembly.Instance | undefined;
  const browserGlue = browserGlueUntyped as Awaited<ReturnType<typeof baseVariant.importModuleLoader>>;
  const variant = newVariant({ ...baseVariant, importModuleLoader: async () => browserGlue }, {
    wasmMemory: memory,
    emscriptenModule: {
      instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
        void WebAssembly.instantiate(wasmModule, imports).then((made) => {
          instance = made;
          receive(made, wasmModule);
        });
        return {};
      },
    } as never,
  });
  const quickjs = await newQuickJSWASMModuleFromVariant(variant);
  if (!instance) throw new Error('QuickJS was not instantiated by benchtop');
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(MEMORY_LIMIT_BYTES);
  // About 13,000 frames of simple recursion, near Node's ~11,000. Where the thread's own stack
  // is smaller (a browser worker), the host overflow is reported as Node's RangeError.
  runtime.setMaxStackSize(STACK_LIMIT_BYTES);
  // (An exit stops the program too: an error QuickJS lets no catch or finally block take.)
  // (It only ever sets `interrupted`: a realm made after a run's failure leaves that run's as it was.)
  runtime.setInterruptHandler(() => run.exit.stopping || (performance.now() > run.deadline && (run.interrupted = true)));
  const beforeContext = performance.now();
  const context = runtime.newContext();
  const afterContext = performance.now();
  // Handles the context makes on first use: made now, so that they point into the snapshot.
  void [context.global, context.undefined, context.null, context.true, context.false];

  const writeFn = context.newFunction('__benchtop_write', (fd, text, dropped) => {
    const stream = context.getNumber(fd) === 2 ? run.streams.stderr : run.streams.stdout;
    if (run.exit.stopping) return stream.full ? context.true : context.false; // (Node has exited by now)
    stream.write(context.getString(text));
    // Characters the environment did not even pass (node-process.js caps each write at 1 MB).
    if (dropped) stream.drop(context.getNumber(dropped));
    return stream.full ? context.true : context.false;
  });
  context.setProp(context.global, '__benchtop_write', writeFn);
  writeFn.dispose();
  const exitFn = context.newFunction('__benchtop_exit', (code) => {
    const exit = run.exit;
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
  // The environment's entry points are taken before any program runs and their global removed: a
  // program can neither reach nor replace them (a replaced `exitCode` would turn its own uncaught
  // error into exit 0). Nothing else of the host is in the realm.
  const host = context.getProp(context.global, '__benchtop');
  const entries = new Map(HOST_ENTRIES.map((name) => [name, context.getProp(host, name)] as const));
  context.unwrapResult(context.evalCode('delete globalThis.__benchtop', 'benchtop.js')).dispose();

  const contextAddress = (context as unknown as { ctx: { value: number } }).ctx.value;
  const randomState = findRandomState(context, memory, contextAddress);
  const timeOrigin = findTimeOrigin(memory, contextAddress, beforeContext, afterContext);
  const exports = { ...instance.exports, memory };
  const snapshot = new InstanceSnapshot(exports);
  const seed = new BigUint64Array(1);
  return {
    context,
    host,
    entries,
    restore: () => snapshot.restore(exports, GROWTH_LIMIT_BYTES),
    begin() {
      const view = new DataView(memory.buffer);
      do crypto.getRandomValues(seed);
      while (seed[0] === 0n);
      view.setBigUint64(randomState, seed[0]!, true);
      view.setFloat64(timeOrigin, performance.now(), true);
    },
  };
}

/** How many bytes of the context (and past it) are searched for its fields. */
const CONTEXT_SEARCH_BYTES = 8192;

/** One step of QuickJS's Math.random state (xorshift64*, quickjs.c). */
function xorshift64(x: bigint): bigint {
  x ^= x >> 12n;
  x = (x ^ (x << 25n)) & 0xffffffffffffffffn;
  return x ^ (x >> 27n);
}

/** The double Math.random returns for a state already stepped (quickjs.c js_math_random). */
function randomDouble(state: bigint): number {
  const v = (state * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn;
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, (1023n << 52n) | (v >> 12n));
  return view.getFloat64(0) - 1;
}

/**
 * The address of the context's Math.random state, found by its effect: the one 64-bit word near
 * the context that one call of Math.random steps as xorshift64*, and whose step gives the double
 * it returned. Throws unless exactly one word does (a QuickJS whose layout or generator changed).
 */
function findRandomState(context: QuickJSContext, memory: WebAssembly.Memory, at: number): number {
  const before = new DataView(memory.buffer.slice(at, at + CONTEXT_SEARCH_BYTES));
  const value = context.unwrapResult(context.evalCode('Math.random()', 'seed.js')).consume((h) => context.getNumber(h));
  const after = new DataView(memory.buffer, at, CONTEXT_SEARCH_BYTES);
  const found: number[] = [];
  for (let offset = 0; offset + 8 <= CONTEXT_SEARCH_BYTES; offset += 4) {
    const next = xorshift64(before.getBigUint64(offset, true));
    if (after.getBigUint64(offset, true) === next && next !== 0n && randomDouble(next) === value) found.push(at + offset);
  }
  if (found.length !== 1) throw new Error(`QuickJS's Math.random state was not found (${found.length} candidates)`);
  return found[0]!;
}

/**
 * The address of the context's time origin (a double: the host's performance.now() when the
 * context was made, which performance.now() inside subtracts): the one double near the context
 * between the clock readings taken around its making.
 */
function findTimeOrigin(memory: WebAssembly.Memory, at: number, from: number, to: number): number {
  const view = new DataView(memory.buffer, at, CONTEXT_SEARCH_BYTES);
  const found: number[] = [];
  for (let offset = 0; offset + 8 <= CONTEXT_SEARCH_BYTES; offset += 4) {
    const v = view.getFloat64(offset, true);
    if (v >= from - 0.001 && v <= to + 0.001) found.push(at + offset);
  }
  if (found.length !== 1) throw new Error(`QuickJS's time origin was not found (${found.length} candidates)`);
  return found[0]!;
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
function execute(realm: Realm, program: string, run: RunState, timeoutMs: number): number {
  const { context, host, entries } = realm;
  const { streams } = run;
  const exit = run.exit;
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
      if (run.interrupted) return TIMED_OUT;
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
  }
}
