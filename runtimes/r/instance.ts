/**
 * One R, started and waiting to read test.r, with a snapshot of its state (memory, C stack, open
 * files, side modules, file system), which is put back after each run: every program starts from
 * the same R as the first one.
 */
import { MemoryImage } from '../host/memory-image';
import { ByteSink } from './byte-sink';
import type { Factory, FSNode, FSStream, RModule } from './emscripten';
import { fingerprint, makeReadOnly, prepareFileSystem, removeNew, sameFingerprint, writableEntries, WRITABLE } from './filesystem';
import type { ImageFile } from './images';
import { ARGV, C_STACK_LIMIT, HOME, prepareSession, PROGRAM, readTempDir, sideModules, useLargeStack } from './session';

/** A run that grew R's memory by more than this gets a new R instead of a zeroed tail. */
const MAX_GROWTH = 256 << 20;

/**
 * One R, started and waiting to read test.r, with the state it had then (its snapshot): memory,
 * C stack, open files, side modules, file system. After each run the snapshot is put back, so
 * every program starts from the same R as the first one (see restore()).
 */
export interface Instance {
  R: RModule;
  stdout: ByteSink;
  stderr: ByteSink;
  /** R's memory when the snapshot was taken (memory-image.ts: its non-zero pages and zero runs). */
  memory: MemoryImage;
  stackTop: number;
  streams: Map<number, { stream: FSStream; flags: number; position: number }>;
  programNode: FSNode;
  libraries: number;
  /** Every node outside WRITABLE (and /proc): its state, and for files its bytes object. */
  fixed: Map<FSNode, { key: string; contents: unknown }>;
  /** Every path in WRITABLE when the snapshot was taken (R's session temporary directory, test.r). */
  writable: Map<string, { node: FSNode; mode: number }>;
}

/** What every new R is made from, prepared once per worker (webr.ts). */
export interface RBuild {
  wasm: WebAssembly.Module;
  factory: Factory;
  images: readonly ImageFile[][];
  /** Side modules (BLAS, LAPACK, the packages' .so files), compiled once for every instance. */
  compile(binary: Uint8Array | WebAssembly.Module, name: string): WebAssembly.Module;
  /** A file R asks for by URL, from the files the host handed in. */
  fileBytes(url: string): Uint8Array;
}

/** A new R: instantiated, started as Rscript starts it, its snapshot taken. */
export async function createInstance(build: RBuild): Promise<Instance> {
  const { wasm, factory, images, compile, fileBytes } = build;
  let tempDir = '';
  let memory: WebAssembly.Memory | null = null;
  const stdout = new ByteSink();
  const stderr = new ByteSink();
  let ready!: () => void;
  let failed!: (e: unknown) => void;
  const started = new Promise<void>((resolve, reject) => ((ready = resolve), (failed = reject)));
  const module: Record<string, unknown> = {
    noInitialRun: true,
    noImageDecoding: true,
    noAudioDecoding: true,
    noWasmDecoding: true,
    locateFile: (path: string) => path,
    instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
      WebAssembly.instantiate(wasm, imports).then((instance) => {
        // R is built for dynamic linking, so it imports its memory; otherwise it would export it.
        const found = (imports.env as Record<string, unknown> | undefined)?.memory ?? instance.exports.memory;
        if (found instanceof WebAssembly.Memory) memory = found;
        receive(instance, wasm);
      }, failed);
      return {};
    },
    benchtopReadAsync: async (url: string) => fileBytes(url),
    benchtopReadBinary: fileBytes,
    benchtopCompile: compile,
    // R's system(): only R's own clean-up at exit (`rm -Rf <its temporary directory>`) is
    // answered, as done (restore() empties the directory); anything else fails as webR's
    // does (no shell in here).
    benchtopSystem: (command: string | null) => (command !== null && command === `rm -Rf '${tempDir}'` ? 0 : undefined),
    stdin: () => null,
    stdout: (byte: number) => stdout.push(byte),
    stderr: (byte: number) => stderr.push(byte),
    print: (line: string) => stdout.text(line + '\n'),
    printErr: (line: string) => stderr.text(line + '\n'),
    onAbort: (what: unknown) => failed(new Error(`R aborted: ${String(what)}`)),
    preRun: [() => prepareSession(module as unknown as RModule)],
    onRuntimeInitialized: () => ready(),
    // What R's webR patches call back into (the console is a file here, never interactive).
    webr: {
      setPrompt: () => {},
      readConsole: () => 0,
      resolveInit: () => {},
      handleEvents: () => {},
    },
  };
  factory(module);
  await started;
  const R = module as unknown as RModule;
  prepareFileSystem(R.FS, images);
  const argv = R._malloc(4 * (ARGV.length + 1));
  ARGV.forEach((arg, i) => R.setValue(argv + 4 * i, R.allocateUTF8(arg), '*'));
  R.setValue(argv + 4 * ARGV.length, 0, '*');
  const stackTop = useLargeStack(R);
  R._Rf_initialize_R(ARGV.length, argv);
  // R could not find its C stack (it reads __libc_stack_end): tell it, so deep recursion ends in
  // R's own "C stack usage … is too close to the limit" error, as with Rscript.
  R.HEAPU32[R._R_CStackStart >> 2] = stackTop;
  R.HEAPU32[R._R_CStackLimit >> 2] = C_STACK_LIMIT;
  R._setup_Rmainloop(); // loads the default packages, as Rscript does
  tempDir = readTempDir(R.FS);
  // Every package's and module's side module, loaded now, so that no run loads one (a side
  // module's memory and functions could not be put back by restore()). R still registers it
  // (library.dynam) when a program loads the package, as usual.
  for (const path of sideModules(R.FS)) R.benchtopLoadLibrary(path);
  // webR's R is built with LLVM's profiling runtime, which leaves an empty default.profraw in
  // the working directory at start-up: the program's directory holds only test.r, as under Rscript.
  removeNew(R.FS, HOME, new Map([[`${HOME}/${PROGRAM}`, true]]));
  makeReadOnly(R.FS);
  const streams = new Map<number, { stream: FSStream; flags: number; position: number }>();
  R.FS.streams.forEach((stream, fd) => {
    if (stream) streams.set(fd, { stream, flags: stream.flags, position: stream.position });
  });
  const programNode = R.FS.lookupPath(`${HOME}/${PROGRAM}`).node;
  if (![...streams.values()].some(({ stream }) => stream.node === programNode)) throw new Error('benchtop: R did not open test.r');
  return {
    R, stdout, stderr, stackTop, streams, programNode,
    memory: snapshotOf(memory, R),
    libraries: R.benchtopLibraries(),
    fixed: fingerprint(R.FS),
    writable: writableEntries(R.FS),
  };
}

function snapshotOf(memory: WebAssembly.Memory | null, R: RModule): MemoryImage {
  if (!memory || memory.buffer !== R.HEAPU8.buffer) throw new Error('webR changed: its memory was not found');
  return new MemoryImage(memory);
}

/**
 * Puts back the snapshot after a run; false when that cannot be trusted and a new R is needed:
 * the program loaded a side module, grew the memory a lot, changed the read-only file system
 * (chmod first, say) or removed what R keeps open.
 */
export function restore(instance: Instance): boolean {
  const { R } = instance;
  const FS = R.FS;
  if (R.benchtopLibraries() !== instance.libraries) return false;
  if (R.HEAPU8.length > instance.memory.byteLength + MAX_GROWTH) return false;
  if (!sameFingerprint(FS, instance.fixed)) return false;
  // Files: whatever the program created in the writable directories goes; what R had there
  // (its temporary directory, test.r) must still be there, unchanged in kind and mode.
  for (const root of WRITABLE) removeNew(FS, root, instance.writable);
  for (const [path, { node, mode }] of instance.writable) {
    let now: FSNode;
    try {
      now = FS.lookupPath(path, { follow: false }).node;
    } catch {
      return false;
    }
    if (now !== node || now.mode !== mode) return false;
  }
  if (FS.lookupPath(`${HOME}/${PROGRAM}`).node !== instance.programNode) return false;
  // Open files: those R opened since are closed; R's own (the standard streams, test.r, which R
  // closes at exit) are open again where they were.
  FS.streams.forEach((stream, fd) => {
    if (stream && !instance.streams.has(fd)) {
      try {
        FS.close(stream);
      } catch {
        // already closed
      }
    }
  });
  for (const [fd, saved] of instance.streams) {
    FS.streams[fd] = saved.stream;
    saved.stream.fd = fd;
    saved.stream.flags = saved.flags;
    saved.stream.position = saved.position;
    saved.stream.ungotten = [];
  }
  FS.chdir(HOME);
  // Memory (where all of R's state lives), and the C stack pointer, left where exit() was called.
  instance.memory.putBack(R.HEAPU8);
  R.__emscripten_stack_restore(instance.stackTop);
  return true;
}
