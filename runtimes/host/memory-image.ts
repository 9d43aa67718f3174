/**
 * A copy of a WebAssembly memory, kept to be written back before each program (the snapshots of
 * wasm-snapshot.ts, python/snapshot.ts and r/instance.ts). Most of an interpreter's memory is zero
 * when it is taken (QuickJS: 95% of 16 MB; ruby.wasm: 74% of 104 MB; zeroperl a third), and clearing memory
 * costs about a third of copying it, so the image keeps the non-zero pages' bytes and clears the
 * zero ones: every byte is still written back, and the copy held per worker is that much smaller.
 */

/** Granularity of the zero test: a WebAssembly page is 64 KB, a C allocator's page 4 KB. */
const PAGE = 4096;
/** Zero runs shorter than this are copied with their neighbours: a call per short run costs more than it saves. */
const MIN_ZERO_RUN = 4 * PAGE;

export class MemoryImage {
  /** The size of the memory the image was taken from. */
  readonly byteLength: number;
  /** The non-zero runs' bytes, end to end. */
  private readonly data: Uint8Array;
  /** Per run: its start in the memory, its length, and its offset in `data` (-1: a zero run). */
  private readonly runs: Int32Array;

  constructor(wasmMemory: WebAssembly.Memory) {
    const memory = new Uint8Array(wasmMemory.buffer);
    this.byteLength = memory.byteLength;
    const runs: number[] = [];
    let dataBytes = 0;
    let start = 0;
    let zeroStart = -1; // where the current zero stretch began, if it is one
    const flushCopy = (end: number) => {
      if (end > start) {
        runs.push(start, end - start, dataBytes);
        dataBytes += end - start;
      }
    };
    const zero = zeroPages(wasmMemory);
    for (let page = 0; page < memory.byteLength; page += PAGE) {
      if (zero[page / PAGE]) {
        if (zeroStart < 0) zeroStart = page;
        continue;
      }
      if (zeroStart >= 0 && page - zeroStart >= MIN_ZERO_RUN) {
        flushCopy(zeroStart);
        runs.push(zeroStart, page - zeroStart, -1);
        start = page;
      }
      zeroStart = -1;
    }
    if (zeroStart >= 0 && memory.byteLength - zeroStart >= MIN_ZERO_RUN) {
      flushCopy(zeroStart);
      runs.push(zeroStart, memory.byteLength - zeroStart, -1);
    } else flushCopy(memory.byteLength);
    this.runs = Int32Array.from(runs);
    this.data = new Uint8Array(dataBytes);
    for (let i = 0; i < this.runs.length; i += 3) {
      const offset = this.runs[i + 2]!;
      if (offset >= 0) this.data.set(memory.subarray(this.runs[i]!, this.runs[i]! + this.runs[i + 1]!), offset);
    }
  }

  /** The bytes the image holds (the rest is zero runs). */
  get storedBytes(): number {
    return this.data.byteLength;
  }

  /** Writes the image over the first `byteLength` bytes of `target`. */
  writeTo(target: Uint8Array): void {
    if (target.byteLength < this.byteLength) throw new Error('the memory is smaller than its image');
    const runs = this.runs;
    for (let i = 0; i < runs.length; i += 3) {
      const start = runs[i]!;
      const length = runs[i + 1]!;
      const offset = runs[i + 2]!;
      if (offset < 0) target.fill(0, start, start + length);
      else target.set(this.data.subarray(offset, offset + length), start);
    }
  }

  /**
   * Puts the image back into `memory` and zeroes what the memory grew past it, up to `grownEnd`
   * (all of it by default): what a new memory of that size would hold there.
   */
  putBack(memory: Uint8Array, grownEnd = memory.byteLength): void {
    this.writeTo(memory);
    if (grownEnd > this.byteLength) memory.fill(0, this.byteLength, grownEnd);
  }

  /** A copy of the whole memory as it was (for checks and tests). */
  bytes(): Uint8Array {
    const out = new Uint8Array(this.byteLength);
    this.writeTo(out);
    return out;
  }
}

/**
 * Per 4 KB page of `memory`: 1 if all its bytes are zero. This runs once per worker start, before
 * V8 has optimised anything, and a JavaScript loop over 100 MB then takes hundreds of milliseconds
 * (V8's interpreter); WebAssembly is compiled before it runs, so the scan is done by the module
 * below, which imports the memory.
 */
function zeroPages(memory: WebAssembly.Memory): Uint8Array {
  const pages = new Uint8Array(Math.ceil(memory.buffer.byteLength / PAGE));
  const scan = new WebAssembly.Instance(scanner(), { m: { memory } }).exports.zero as (start: number, end: number) => number;
  for (let page = 0; page < pages.length; page++) pages[page] = scan(page * PAGE, (page + 1) * PAGE);
  return pages;
}

let compiledScanner: WebAssembly.Module | null = null;

/**
 * `(func (export "zero") (param $s i32) (param $e i32) (result i32))` over an imported memory:
 * 1 if the bytes from $s to $e (a multiple of 8 apart) are all zero, else 0; eight at a time.
 */
function scanner(): WebAssembly.Module {
  compiledScanner ??= new WebAssembly.Module(new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x07, 0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f, // type 0: (i32, i32) -> i32
    0x02, 0x0d, 0x01, 0x01, 0x6d, 0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00, 0x00, // import m.memory, min 0
    0x03, 0x02, 0x01, 0x00, // func 0: type 0
    0x07, 0x08, 0x01, 0x04, 0x7a, 0x65, 0x72, 0x6f, 0x00, 0x00, // export "zero"
    0x0a, 0x28, 0x01, 0x26, 0x00,
    0x03, 0x40, //   loop
    0x20, 0x00, 0x20, 0x01, 0x49, 0x04, 0x40, //     if $s < $e
    0x20, 0x00, 0x29, 0x03, 0x00, 0x42, 0x00, 0x52, 0x04, 0x40, 0x41, 0x00, 0x0f, 0x0b, //       if i64.load($s) != 0: return 0
    0x20, 0x00, 0x41, 0x08, 0x6a, 0x21, 0x00, //       $s += 8
    0x0c, 0x01, //       continue the loop
    0x0b, 0x0b, //     end if, end loop
    0x41, 0x01, 0x0b, //   return 1
  ]));
  return compiledScanner;
}
