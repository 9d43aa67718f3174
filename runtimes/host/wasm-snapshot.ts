/**
 * A clean slate for a WebAssembly instance without instantiating it again (Wizer's idea, at run
 * time): after start-up, keep a copy of its linear memory and of every mutable global; before each
 * program, put them back. A module's whole state is its memories, globals and tables, so this is
 * exactly a new instance's state when:
 *   - every mutable global can be read and written: `exposeMutableGlobals` rewrites the binary so
 *     that the ones it does not export (asyncify's state, say) are exported too;
 *   - the table is not changed at run time (true of a module that neither exports nor imports its
 *     table: C compiled without dynamic linking has no table.set);
 *   - the memory has not grown, or the caller allows some growth (`restore`'s `growthLimit`): the
 *     extra pages are then zeroed, which is what `memory.grow` gives a new instance; what differs
 *     is only the memory's size, which the C allocator reads to decide when to grow it (zeroing
 *     costs more than a new instance for zeroperl, less for php-wasm).
 * What the host keeps outside the instance (the WASI file descriptors, environment, files) is the
 * caller's to make new per program.
 */

import { MemoryImage } from './memory-image';

/** Prefix of the export names `exposeMutableGlobals` adds. */
const EXPOSED = 'benchtop_global_';

/** A cursor over a module's bytes, from past the 8-byte header: bytes and unsigned LEB128 numbers. */
class Cursor {
  p = 8;
  constructor(private readonly b: Uint8Array) {}

  byte(): number {
    return this.b[this.p++]!;
  }

  leb(): number {
    let result = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = this.byte();
      result += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return result;
  }

  name(): string {
    const length = this.leb();
    const text = new TextDecoder().decode(this.b.subarray(this.p, this.p + length));
    this.p += length;
    return text;
  }

  /** One entry of the import section: its kind (0 function, 1 table, 2 memory, 3 global) and, for a global, whether it is mutable. */
  importEntry(): { kind: number; mutable: boolean } {
    this.name();
    this.name();
    const kind = this.byte();
    const limits = () => {
      const flags = this.leb();
      this.leb();
      if (flags & 1) this.leb();
    };
    if (kind === 0) this.leb();
    else if (kind === 1) (this.p++, limits());
    else if (kind === 2) limits();
    else if (kind === 3) {
      this.p++; // value type
      return { kind, mutable: this.byte() === 1 };
    } else throw new Error(`unknown import kind ${kind}`);
    return { kind, mutable: false };
  }
}

/**
 * The module's bytes with every mutable global exported (as `benchtop_global_<index>`) that was
 * not already. Only the export section changes; nothing else is parsed beyond section bounds.
 */
export function exposeMutableGlobals(bytes: ArrayBuffer): ArrayBuffer {
  const b = new Uint8Array(bytes);
  const c = new Cursor(b);
  const leb = () => c.leb();
  const name = () => c.name();
  const mutable: number[] = [];
  const exported = new Set<number>();
  let importedGlobals = 0;
  let exportSection: { start: number; end: number } | null = null;
  while (c.p < b.length) {
    const id = c.byte();
    const size = leb();
    const start = c.p;
    if (id === 2) {
      for (let n = leb(); n > 0; n--) {
        const entry = c.importEntry();
        if (entry.kind !== 3) continue;
        if (entry.mutable) mutable.push(importedGlobals);
        importedGlobals++;
      }
    } else if (id === 6) {
      for (let n = leb(), i = importedGlobals; n > 0; n--, i++) {
        const type = c.byte();
        if (type !== 0x7f && type !== 0x7e && type !== 0x7d && type !== 0x7c) throw new Error(`global of type 0x${type.toString(16)}`);
        if (c.byte() === 1) mutable.push(i);
        // A constant expression: one instruction with its immediate, then `end`.
        const op = c.byte();
        if (op === 0x41 || op === 0x42 || op === 0x23) leb();
        else if (op === 0x43) c.p += 4;
        else if (op === 0x44) c.p += 8;
        else throw new Error(`global initialiser 0x${op.toString(16)}`);
        if (c.byte() !== 0x0b) throw new Error('global initialiser longer than one instruction');
      }
    } else if (id === 7) {
      exportSection = { start, end: start + size };
      for (let n = leb(); n > 0; n--) {
        name();
        const kind = c.byte();
        const index = leb();
        if (kind === 3) exported.add(index);
      }
    }
    c.p = start + size;
  }
  const missing = mutable.filter((i) => !exported.has(i));
  if (missing.length === 0) return bytes;
  if (!exportSection) throw new Error('the module has no export section');
  // The new export section: the old entries, then ours; count and size re-encoded.
  c.p = exportSection.start;
  const count = leb();
  const entries = b.subarray(c.p, exportSection.end);
  const added = missing.flatMap((i) => [...encodeName(`${EXPOSED}${i}`), 3, ...uleb(i)]);
  const body = [...uleb(count + missing.length)];
  const content = new Uint8Array(body.length + entries.length + added.length);
  content.set(body);
  content.set(entries, body.length);
  content.set(added, body.length + entries.length);
  // Section id 7 sits one byte before its size's LEB: find where the section header began.
  let header = exportSection.start - 1;
  while (b[header - 1]! & 0x80) header--;
  header -= 1;
  const head = [7, ...uleb(content.length)];
  const out = new Uint8Array(header + head.length + content.length + (b.length - exportSection.end));
  out.set(b.subarray(0, header));
  out.set(head, header);
  out.set(content, header + head.length);
  out.set(b.subarray(exportSection.end), header + head.length + content.length);
  return out.buffer;
}

function uleb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return out;
}

function encodeName(text: string): number[] {
  const bytes = new TextEncoder().encode(text);
  return [...uleb(bytes.length), ...bytes];
}

/** An instance's memory and mutable globals at one moment, to be put back before each program. */
export class InstanceSnapshot {
  private readonly memory: MemoryImage;
  /** Mutable globals by export name, so that a new instance of the same module can take them. */
  private readonly globals: ReadonlyMap<string, unknown>;

  /** `exports` must come from a module passed through `exposeMutableGlobals`. */
  constructor(exports: WebAssembly.Exports) {
    const { memory, globals } = instanceParts(exports);
    this.memory = new MemoryImage(memory);
    this.globals = new Map(globals.map(([name, global]) => [name, global.value]));
  }

  /**
   * Puts the instance of `exports` (the snapshot's, or a new instance of the same module) back as
   * it was. Memory grown past the snapshot's by at most `growthLimit` bytes is zeroed (the header
   * says why that is a new instance's state). Returns false, changing nothing, when it has grown
   * more: then the caller must make a new instance.
   */
  restore(exports: WebAssembly.Exports, growthLimit = 0): boolean {
    const { memory, globals } = instanceParts(exports);
    const size = memory.buffer.byteLength;
    if (size > this.memory.byteLength + growthLimit) return false;
    if (size < this.memory.byteLength) memory.grow((this.memory.byteLength - size) / 65536);
    this.memory.putBack(new Uint8Array(memory.buffer));
    if (globals.length !== this.globals.size) throw new Error('the instance has other globals than the snapshot');
    for (const [name, global] of globals) {
      if (!this.globals.has(name)) throw new Error(`global ${name} is not in the snapshot`);
      global.value = this.globals.get(name);
    }
    return true;
  }

  /**
   * `exports` put back (`restore`), or, when its memory has grown too much for that, a new
   * instance from `instantiate` put back instead: the exports the next program runs on.
   */
  async restoreOrRenew<E>(exports: E, instantiate: () => Promise<E>, growthLimit = 0): Promise<E> {
    if (this.restore(exports as WebAssembly.Exports, growthLimit)) return exports;
    const renewed = await instantiate();
    if (!this.restore(renewed as WebAssembly.Exports, growthLimit)) throw new Error('a new instance is larger than its snapshot');
    return renewed;
  }
}

/** An instance's memory and mutable globals, found once per exports object (an instance's exports never change). */
const partsOf = new WeakMap<WebAssembly.Exports, { memory: WebAssembly.Memory; globals: [string, WebAssembly.Global][] }>();

function instanceParts(exports: WebAssembly.Exports): { memory: WebAssembly.Memory; globals: [string, WebAssembly.Global][] } {
  let parts = partsOf.get(exports);
  if (!parts) {
    const memories = Object.values(exports).filter((e) => e instanceof WebAssembly.Memory);
    if (memories.length !== 1) throw new Error(`expected one exported memory, found ${memories.length}`);
    const globals = Object.entries(exports).filter((entry): entry is [string, WebAssembly.Global] => entry[1] instanceof WebAssembly.Global && isMutable(entry[1]));
    parts = { memory: memories[0] as WebAssembly.Memory, globals };
    partsOf.set(exports, parts);
  }
  return parts;
}

/** A global is mutable if writing its own value back does not throw. */
function isMutable(global: WebAssembly.Global): boolean {
  try {
    global.value = global.value;
    return true;
  } catch {
    return false;
  }
}

/**
 * The module's bytes with its memory's initial size set to `pages` (64 KB each), so that a snapshot
 * copies no more than the program needs: the rest is grown on demand (C's sbrk asks the host).
 */
export function withInitialMemory(bytes: ArrayBuffer, pages: number): ArrayBuffer {
  const b = new Uint8Array(bytes);
  const c = new Cursor(b);
  const leb = () => c.leb();
  while (c.p < b.length) {
    const header = c.p;
    const id = c.byte();
    const size = leb();
    const start = c.p;
    if (id === 5) {
      if (leb() !== 1) throw new Error('the module defines more than one memory');
      const flags = leb();
      const initial = leb();
      const maximum = flags & 1 ? leb() : null;
      if (flags & ~1) throw new Error(`memory flags 0x${flags.toString(16)}`);
      if (pages > initial) throw new Error(`the memory already starts at ${initial} pages`);
      if (maximum !== null && pages > maximum) throw new Error('initial memory above its maximum');
      const body = [1, flags, ...uleb(pages), ...(maximum === null ? [] : uleb(maximum))];
      const head = [5, ...uleb(body.length)];
      const out = new Uint8Array(header + head.length + body.length + (b.length - (start + size)));
      out.set(b.subarray(0, header));
      out.set(head, header);
      out.set(body, header + head.length);
      out.set(b.subarray(start + size), header + head.length + body.length);
      return out.buffer;
    }
    c.p = start + size;
  }
  throw new Error('the module defines no memory (an imported one is not supported)');
}

/**
 * The address of the C global that an exported getter returns (a function compiled as `i32.const
 * address; i32.load`, as `bool is_initialized(void) { return ptr != NULL; }` is), so that the host
 * can read or change a static the module has no setter for. Throws for any other shape.
 */
export function addressReadBy(bytes: ArrayBuffer, exportName: string): number {
  const b = new Uint8Array(bytes);
  const c = new Cursor(b);
  const leb = () => c.leb();
  const skip = () => {
    const size = leb(); // (read before c.p is: `c.p += leb()` would add to the old position)
    c.p += size;
  };
  let importedFunctions = 0;
  let index: number | null = null;
  let code: number | null = null;
  while (c.p < b.length) {
    const id = c.byte();
    const size = leb();
    const start = c.p;
    if (id === 2) {
      for (let n = leb(); n > 0; n--) if (c.importEntry().kind === 0) importedFunctions++;
    } else if (id === 7) {
      for (let n = leb(); n > 0; n--) {
        const name = c.name();
        const kind = c.byte();
        const at = leb();
        if (kind === 0 && name === exportName) index = at;
      }
    } else if (id === 10) code = start;
    c.p = start + size;
  }
  if (index === null || index < importedFunctions || code === null) throw new Error(`no exported function ${exportName}`);
  c.p = code;
  const count = leb();
  for (let i = 0; i < index - importedFunctions && i < count; i++) skip();
  leb(); // the body's size
  // No locals; i32.const (signed LEB, non-negative here); i32.load with its alignment and offset.
  if (c.byte() !== 0 || c.byte() !== 0x41) throw new Error(`${exportName} does not start by loading a constant address`);
  const at = c.p;
  const address = leb();
  if (b[c.p - 1]! & 0x40) throw new Error(`${exportName} loads from a negative address`);
  if (c.byte() !== 0x28) throw new Error(`${exportName} does not load an i32 from address ${address} (byte ${at})`);
  leb(); // alignment
  return address + leb();
}
