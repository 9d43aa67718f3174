/**
 * A clean slate for every Python program (docs/security.md, "Python: one interpreter, a fresh
 * state per program"). Starting a new Pyodide costs seconds; instead the worker takes a snapshot
 * of the whole interpreter once it is ready, and puts it back after every program:
 *   - the WebAssembly linear memory (every Python object, module, builtin, sys setting, the C
 *     library's state, os.environ) is copied back byte for byte, and what the program grew past
 *     it is zeroed;
 *   - the stack pointer (a wasm global, outside the memory);
 *   - the table of JavaScript values Python holds (Pyodide's "hiwire" slots live in a wasm table,
 *     outside the memory: a program that freed a slot would otherwise leave a stale entry);
 *   - Emscripten's in-memory file system, which lives in JavaScript objects: the tree, file
 *     contents, open streams and the working directory.
 * What remains outside is JavaScript state that Python cannot create while a program runs (the
 * runtime refuses new proxies across the bridge then: pyodide.ts), and anything unexpected
 * (a mount, an unknown kind of node) makes restore() throw, which replaces the worker.
 */

import { MemoryImage } from '../host/memory-image';

interface FsNode {
  id: number;
  name: string;
  parent: FsNode;
  mode: number;
  mount: { root: FsNode };
  mounted: { root: FsNode } | null;
  contents?: unknown;
  usedBytes?: number;
  name_next?: FsNode;
  [key: string]: unknown;
}

interface EmscriptenFs {
  root: FsNode;
  mounts: unknown[];
  streams: unknown[];
  nameTable: (FsNode | undefined)[];
  currentPath: string;
  nextInode: number;
  hashAddNode(node: FsNode): void;
}

export interface PyodideModule {
  HEAPU8: Uint8Array;
  FS: EmscriptenFs;
  ___stack_pointer: WebAssembly.Global;
  _sbrk(increment: number): number;
  __hiwire_get(index: number): unknown;
  __hiwire_set(index: number, value: unknown): void;
  __hiwire_immortal_get(index: number): unknown;
}

/** Node fields that a program can change through the file system's calls. */
const NODE_FIELDS = ['name', 'parent', 'mode', 'rdev', 'link', 'timestamp', 'atime', 'mtime', 'ctime', 'usedBytes', 'mounted'] as const;

interface SavedNode {
  node: FsNode;
  fields: Record<string, unknown>;
  /** A directory's entries (name → node), or a file's bytes; undefined for other kinds. */
  dir?: Record<string, FsNode>;
  file?: Uint8Array | null;
}

interface SavedStream {
  stream: Record<string, unknown>;
  position: unknown;
  flags: unknown;
}

/** Tables Pyodide keeps outside the linear memory: read entry by entry until the end. */
function readTable(get: (i: number) => unknown): unknown[] {
  const values: unknown[] = [];
  for (let i = 0; i < 1 << 16; i++) {
    try {
      values.push(get(i));
    } catch {
      break; // past the table's end
    }
  }
  return values;
}

export class InterpreterSnapshot {
  private readonly memory: MemoryImage;
  private readonly stackPointer: number;
  private readonly hiwire: unknown[];
  private readonly immortals: unknown[];
  private readonly nodes: SavedNode[] = [];
  private readonly streams: (SavedStream | undefined)[];
  private readonly cwd: string;
  private readonly nextInode: number;
  private readonly mounts: number;
  private readonly nameTableSize: number;

  /** `memory`: the interpreter's WebAssembly memory (its HEAPU8's), which Pyodide imports. */
  constructor(private readonly module: PyodideModule, memory: WebAssembly.Memory) {
    if (memory.buffer !== module.HEAPU8.buffer) throw new Error('Pyodide changed: its memory is not the one it imported');
    this.memory = new MemoryImage(memory);
    this.stackPointer = module.___stack_pointer.value as number;
    this.hiwire = readTable((i) => module.__hiwire_get(i));
    this.immortals = readTable((i) => module.__hiwire_immortal_get(i));
    const fs = module.FS;
    this.walk(fs.root, new Set());
    this.streams = fs.streams.map((s) => {
      if (!s) return undefined;
      const stream = s as Record<string, unknown>;
      return { stream, position: stream.position, flags: stream.flags };
    });
    this.cwd = fs.currentPath;
    this.nextInode = fs.nextInode;
    this.mounts = fs.mounts.length;
    this.nameTableSize = fs.nameTable.length;
  }

  private walk(node: FsNode, seen: Set<FsNode>): void {
    if (seen.has(node)) return;
    seen.add(node);
    const fields: Record<string, unknown> = {};
    for (const key of NODE_FIELDS) if (key in node) fields[key] = node[key];
    const saved: SavedNode = { node, fields };
    const contents = node.contents;
    if ((node.mode & 0o170000) === 0o040000 && contents && typeof contents === 'object' && !ArrayBuffer.isView(contents)) {
      saved.dir = { ...(contents as Record<string, FsNode>) };
    } else if ((node.mode & 0o170000) === 0o100000) {
      saved.file = contents instanceof Uint8Array ? contents.slice(0, node.usedBytes ?? contents.length) : null;
    }
    this.nodes.push(saved);
    if (saved.dir) for (const child of Object.values(saved.dir)) this.walk(child, seen);
    if (node.mounted) this.walk(node.mounted.root, seen);
  }

  /** The memory in use by the interpreter now (what a program grew is zeroed on restore). */
  private currentBreak(): number {
    try {
      return this.module._sbrk(0) >>> 0;
    } catch {
      return this.module.HEAPU8.length;
    }
  }

  /** The JavaScript values Python held when the snapshot was taken (Pyodide's hiwire slots). */
  heldValues(): readonly unknown[] {
    return this.hiwire;
  }

  /** How much the memory has grown past the snapshot (WebAssembly memory never shrinks). */
  grownBytes(): number {
    return this.module.HEAPU8.length - this.memory.byteLength;
  }

  /**
   * Why the interpreter cannot be put back to the snapshot (null: it can). Asked when a program
   * has ended, before its result goes out, so that a worker that cannot start the next program
   * from a clean slate retires with that program's own result.
   */
  unrestorable(): string | null {
    const m = this.module;
    if (this.immortals.some((value, i) => m.__hiwire_immortal_get(i) !== value)) return 'the interpreter changed a value it cannot restore';
    if (m.FS.mounts.length !== this.mounts) return 'a file system was mounted';
    return null;
  }

  /** Puts the interpreter back as it was when the snapshot was taken. Throws if it cannot. */
  restore(): void {
    const reason = this.unrestorable();
    if (reason) throw new Error(reason);
    const m = this.module;
    const end = Math.min(this.currentBreak(), m.HEAPU8.length);
    const heap = m.HEAPU8; // re-read: the memory may have grown (a new buffer)
    this.memory.putBack(heap, end);
    m.___stack_pointer.value = this.stackPointer;
    this.hiwire.forEach((value, i) => m.__hiwire_set(i, value));
    this.restoreFiles();
  }

  private restoreFiles(): void {
    const fs = this.module.FS;
    for (const { node, fields, dir, file } of this.nodes) {
      const target = node as Record<string, unknown>;
      for (const key of NODE_FIELDS) {
        if (key in fields) target[key] = fields[key];
        else delete target[key];
      }
      if (dir) node.contents = { ...dir };
      else if (file !== undefined) {
        // Copied back, not compared: a native copy of the standard library's zip (MBs) costs far
        // less than a byte-by-byte comparison in JavaScript. The rest of a larger buffer is zeroed,
        // as a new buffer's would be (a write past the end must not find old bytes in the gap).
        const now = node.contents;
        if (file && now instanceof Uint8Array && now.length >= file.length) {
          now.set(file);
          now.fill(0, file.length);
        } else node.contents = file ? file.slice() : null;
        node.usedBytes = file ? file.length : 0;
      }
    }
    // The name cache: rebuilt from the restored tree (lookups go through it first).
    fs.nameTable = new Array(this.nameTableSize);
    for (const { node } of this.nodes) {
      if (node.parent && node.parent !== node && node !== node.mount?.root) fs.hashAddNode(node);
    }
    fs.streams.length = 0;
    this.streams.forEach((saved, fd) => {
      if (!saved) return;
      saved.stream.position = saved.position;
      saved.stream.flags = saved.flags;
      fs.streams[fd] = saved.stream;
    });
    fs.currentPath = this.cwd;
    fs.nextInode = this.nextInode;
  }
}
