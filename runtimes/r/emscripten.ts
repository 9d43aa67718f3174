/** The parts of webR's Emscripten module (R.js + R.wasm) that the R runtime uses. */

/** The parts of Emscripten's file system that this adapter uses (MEMFS nodes and streams). */
export interface FSNode {
  name: string;
  mode: number;
  /** A directory's entries (name → node), a file's bytes. */
  contents: unknown;
  usedBytes?: number;
  mtime: number;
  ctime: number;
  mounted?: unknown;
}
export interface FSStream {
  fd: number | null;
  node: FSNode;
  flags: number;
  position: number;
  ungotten?: unknown[];
}
export interface EmscriptenFS {
  streams: (FSStream | null)[];
  writeFile(path: string, data: string | Uint8Array): void;
  readFile(path: string, opts: { encoding: 'utf8' }): string;
  mkdirTree(path: string): void;
  chdir(path: string): void;
  readdir(path: string): string[];
  lookupPath(path: string, opts?: { follow?: boolean }): { node: FSNode };
  stat(path: string): { mode: number };
  isDir(mode: number): boolean;
  isFile(mode: number): boolean;
  unlink(path: string): void;
  rmdir(path: string): void;
  close(stream: FSStream): void;
  createDataFile(parent: string, name: string, data: Uint8Array, canRead: boolean, canWrite: boolean, canOwn: boolean): void;
}
export interface RModule {
  FS: EmscriptenFS;
  ENV: Record<string, string>;
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  _malloc(size: number): number;
  _Rf_initialize_R(argc: number, argv: number): number;
  _setup_Rmainloop(): void;
  _run_Rmainloop(): void;
  _emscripten_stack_set_limits(base: number, end: number): void;
  __emscripten_stack_restore(pointer: number): void;
  _R_CStackStart: number;
  _R_CStackLimit: number;
  setValue(ptr: number, value: number, type: string): void;
  allocateUTF8(text: string): number;
  /** Added by wrapRJs: the number of side modules loaded, and a way to load one. */
  benchtopLibraries(): number;
  benchtopLoadLibrary(path: string): void;
}
export type Factory = (module: Record<string, unknown>) => unknown;

/** The status of Emscripten's ExitStatus (R called exit()), or null for anything else. */
export function exitStatus(e: unknown): number | null {
  if (e && typeof e === 'object' && (e as { name?: unknown }).name === 'ExitStatus') {
    const status = (e as { status?: unknown }).status;
    if (typeof status === 'number') return status;
  }
  return null;
}
