/**
 * Stopping a call into an asyncify-instrumented module inside one of its imports, and resuming it
 * there later, any number of times: together with a snapshot of the instance (wasm-snapshot.ts)
 * taken while the call is stopped, every run can start from the middle of a start-up instead of
 * its beginning (zeroperl: after perl has compiled its preloaded modules, at its first read of the
 * program; php-wasm: after PHP's module and request start-up, in a prepend file's sleep).
 *
 * Binaryen's Asyncify saves the instrumented frames' locals to a buffer in linear memory while it
 * unwinds, and restores them while it rewinds; the buffer is in the snapshot, so each restore
 * gives the same stack to rewind. What Asyncify does not keep is the C stack pointer: the
 * functions' epilogues do not run on the way out, and their prologues not on the way back in, so
 * the host puts back the value it had in the import (their frames are still in memory, below it).
 * Frames that are not instrumented (an entry point that only checks a flag and calls on) run
 * normally on the way back in.
 */

interface AsyncifyExports {
  memory: WebAssembly.Memory;
  __stack_pointer: WebAssembly.Global;
  malloc(size: number): number;
  asyncify_start_unwind(data: number): void;
  asyncify_stop_unwind(): void;
  asyncify_start_rewind(data: number): void;
  asyncify_stop_rewind(): void;
}

/**
 * Reads asyncify's state of the instance of `exports`: by default its `asyncify_get_state` export;
 * a module without one (php-wasm) imports the state as a global, which the host then reads.
 */
export type AsyncifyState = (exports: WebAssembly.Exports) => number;

const exportedState: AsyncifyState = (exports) => {
  if (typeof exports.asyncify_get_state !== 'function') throw new Error('the module does not export asyncify_get_state');
  return (exports.asyncify_get_state as () => number)();
};

const UNWINDING = 1;
const REWINDING = 2;

export class AsyncifyPause {
  /** Asyncify's data: two pointers (where it is in the buffer, where the buffer ends), then the buffer. */
  private readonly data: number;
  private stackPointer: number | null = null;
  private readonly state: AsyncifyState;

  /** Reserves the buffer with the module's malloc: do this before the snapshot is taken. */
  constructor(exports: WebAssembly.Exports, bytes = 256 * 1024, state: AsyncifyState = exportedState) {
    const e = asyncify(exports);
    this.state = state;
    this.data = e.malloc(bytes + 8);
    const view = new DataView(e.memory.buffer);
    view.setUint32(this.data, this.data + 8, true);
    view.setUint32(this.data + 4, this.data + 8 + bytes, true);
  }

  /** From inside an import: unwinds to the export's caller. The import must then return at once. */
  unwind(exports: WebAssembly.Exports): void {
    const e = asyncify(exports);
    this.stackPointer = e.__stack_pointer.value as number;
    e.asyncify_start_unwind(this.data);
  }

  /** After the export returned: whether it returned because of `unwind` (which is then complete). */
  stopped(exports: WebAssembly.Exports): boolean {
    const e = asyncify(exports);
    if (this.state(exports) !== UNWINDING) return false;
    e.asyncify_stop_unwind();
    return this.stackPointer !== null;
  }

  /** Before calling the same export again, with the instance put back as it was when stopped. */
  rewind(exports: WebAssembly.Exports): void {
    if (this.stackPointer === null) throw new Error('nothing to resume: the call was never stopped');
    asyncify(exports).asyncify_start_rewind(this.data);
  }

  /**
   * In the import: whether this call is the stopped one coming back. If so, the stack is as it
   * was when stopped, and the import goes on as if it had never been left.
   */
  arrived(exports: WebAssembly.Exports): boolean {
    const e = asyncify(exports);
    if (this.state(exports) !== REWINDING) return false;
    e.asyncify_stop_rewind();
    e.__stack_pointer.value = this.stackPointer;
    return true;
  }
}

/** Export objects already checked: a run calls the pause twice, on the same instance's exports. */
const checked = new WeakSet<WebAssembly.Exports>();

function asyncify(exports: WebAssembly.Exports): AsyncifyExports {
  if (checked.has(exports)) return exports as unknown as AsyncifyExports;
  for (const name of ['asyncify_start_unwind', 'asyncify_stop_unwind', 'asyncify_start_rewind', 'asyncify_stop_rewind', 'malloc']) {
    if (typeof exports[name] !== 'function') throw new Error(`the module does not export ${name}: it is not asyncify-instrumented`);
  }
  if (!(exports.__stack_pointer instanceof WebAssembly.Global)) throw new Error('the module does not export __stack_pointer');
  checked.add(exports);
  return exports as unknown as AsyncifyExports;
}
