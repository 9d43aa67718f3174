/**
 * R runtime: webR's R (compiled to WebAssembly with Emscripten), run as `Rscript test.r` would:
 * R started as `R --no-echo --no-restore --file=test.r` (what Rscript executes), so an error
 * prints "Error …" + "Execution halted" and exits 1, `quit(status = 3)` exits 3, warnings and
 * messages go to stderr, and nothing a program defines, attaches, sets or writes survives it.
 *
 * We use webR's Emscripten module (R.js + R.wasm), not webR's JavaScript API: that API starts its
 * own worker and fetches R.wasm and its file system from a base URL, which a sandboxed runtime
 * worker cannot do. R.wasm embeds the base library (base, stats, utils, methods, grDevices,
 * graphics, datasets, tools, …); the other files are the BLAS and LAPACK side modules and two of
 * webR's file-system images (R_HOME/share with the time zones, the parallel package). R.js is
 * evaluated once as a factory function (a blob: script in the page, where the Content Security
 * Policy forbids code from strings; `new Function` in Node, before the worker's lockdown) with
 * the worker's network, Node and DOM globals shadowed: R.js then runs as a plain JavaScript shell
 * (no `require`, no `fetch`, no host `system()`, no JavaScript from R).
 *
 * Starting R (instantiating it, loading the default packages) costs about 0.7 s of CPU, far more
 * than a typical test program. So a worker starts one R, up to the point where R would read
 * test.r, and takes a snapshot of it (its memory, C stack pointer, open files, file system); each
 * program runs in that R and the snapshot is put back afterwards (about 20 ms): R's whole state
 * is in its WebAssembly memory, and what is outside (files, side modules) is put back or checked.
 * When a run leaves something that cannot be put back (it crashed, loaded a side module, grew
 * the memory by a lot, changed the read-only part of the file system), the next program gets a
 * new R instead. A runaway program cannot be interrupted: the host terminates the worker at the
 * time limit.
 */
import { OutputCapture } from '../host/output';
import { javascriptDataUrl } from '../host/module-url';
import type { LanguageRuntime, RunResult } from '../../src/contracts';

/** The files the host hands in (name → bytes), all from node_modules/webr/dist. */
export const R_FILES = [
  'R.js', 'R.wasm', 'libRblas.so', 'libRlapack.so',
  'share.data.gz', 'share.js.metadata', 'parallel.data.gz', 'parallel.js.metadata',
] as const;

/**
 * Parts of R's installation that R.wasm does not embed, as webR ships them: gzipped file-system
 * images, each with a listing (file → byte range). R_HOME/share holds the time zone database
 * (without it every time zone is "unknown"); parallel is a base package.
 */
const IMAGES = [
  { mount: '/usr/lib/R/share', data: 'share.data.gz', listing: 'share.js.metadata' },
  { mount: '/usr/lib/R/library/parallel', data: 'parallel.data.gz', listing: 'parallel.js.metadata' },
] as const;

export interface RRuntimeOptions {
  files: Record<string, ArrayBuffer>;
}

/** Where the program lives (Rscript runs test.r from the current directory). */
const HOME = '/home/user';
const PROGRAM = 'test.r';
/** The command line Rscript gives R (`Rscript test.r` execs `R --no-echo --no-restore --file=test.r`). */
const ARGV = ['/usr/lib/R/bin/exec/R', '--no-echo', '--no-restore', `--file=${PROGRAM}`];

/**
 * R's environment. webR's own settings (R_HOME, no JIT) plus a fixed, neutral session: UTF-8,
 * UTC, and a site profile without webR's `options(expressions = 400)` (see SITE_PROFILE).
 */
const ENV: Readonly<Record<string, string>> = {
  R_HOME: '/usr/lib/R',
  R_ENABLE_JIT: '0',
  HOME,
  USER: 'user',
  LOGNAME: 'user',
  LANG: 'C.UTF-8',
  TZ: 'UTC',
  PWD: HOME,
};

/** R's C stack: 8 MB, as Linux gives a process by default (webR's is 1 MB, overflowing into R's data). */
const C_STACK_SIZE = 8 << 20;
/** Where R stops recursion (it keeps the rest for handling the error), as R does with 95% of `ulimit -s`. */
const C_STACK_LIMIT = Math.floor(C_STACK_SIZE * 0.9);

/**
 * Replaces webR's R_HOME/etc/Rprofile.site (`options(expressions = 400)`, against the browser's
 * small stack, and a bitmap type). Rscript's R compiles functions to bytecode as they run (its
 * JIT), so a recursive call nests about one evaluation; webR's R runs without the JIT (it is
 * several times slower in WebAssembly), where the same call nests about four. A limit of 4 × R's
 * default 5000 lets a program recurse about as deep as under Rscript; past that the C stack
 * (8 MB, as Rscript's) or the protection stack stops it with R's own error.
 * WebAssembly cannot fork: with `mc.cores = 1`, parallel's mclapply() and friends run serially
 * (same results) instead of failing, unless a program asks for more cores itself.
 */
const SITE_PROFILE = 'options(expressions = 20000, mc.cores = 1L)\n';

/** The parts of Emscripten's file system that this adapter uses (MEMFS nodes and streams). */
interface FSNode {
  name: string;
  mode: number;
  /** A directory's entries (name → node), a file's bytes. */
  contents: unknown;
  usedBytes?: number;
  mtime: number;
  ctime: number;
  mounted?: unknown;
}
interface FSStream {
  fd: number | null;
  node: FSNode;
  flags: number;
  position: number;
  ungotten?: unknown[];
}
interface EmscriptenFS {
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
interface RModule {
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
type Factory = (module: Record<string, unknown>) => unknown;

/** Where a program may write (removed after each run); the rest of the file system is read-only. */
const WRITABLE = ['/tmp', HOME];
/** A run that grew R's memory by more than this gets a new R instead of a zeroed tail. */
const MAX_GROWTH = 256 << 20;

/**
 * One R, started and waiting to read test.r, with the state it had then (its snapshot): memory,
 * C stack, open files, side modules, file system. After each run the snapshot is put back, so
 * every program starts from the same R as the first one (see restore()).
 */
interface Instance {
  R: RModule;
  stdout: ByteSink;
  stderr: ByteSink;
  memory: Uint8Array;
  stackTop: number;
  streams: Map<number, { stream: FSStream; flags: number; position: number }>;
  programNode: FSNode;
  libraries: number;
  /** Every node outside WRITABLE (and /proc): its state, and for files its bytes object. */
  fixed: Map<FSNode, { key: string; contents: unknown }>;
  /** Every path in WRITABLE when the snapshot was taken (R's session temporary directory, test.r). */
  writable: Map<string, { node: FSNode; mode: number }>;
}

export async function createRRuntime(options: RRuntimeOptions): Promise<LanguageRuntime> {
  const { files } = options;
  for (const name of R_FILES) if (!files[name]) throw new Error(`missing ${name}`);
  const wasm = await WebAssembly.compile(files['R.wasm']!);
  const images = await Promise.all(IMAGES.map((image) => unpackImage(image.mount, files[image.data]!, files[image.listing]!)));
  const factory = await loadFactory(wrapRJs(new TextDecoder().decode(files['R.js']), wasm));
  // Side modules (BLAS, LAPACK, the packages' .so files), compiled once for every instance.
  const compiled = new Map<string, WebAssembly.Module>();
  const compile = (binary: Uint8Array | WebAssembly.Module, name: string): WebAssembly.Module => {
    if (binary instanceof WebAssembly.Module) return binary;
    let module = compiled.get(name);
    if (!module) compiled.set(name, (module = new WebAssembly.Module(binary as Uint8Array<ArrayBuffer>)));
    return module;
  };
  const fileBytes = (url: string): Uint8Array => {
    const body = files[url.slice(url.lastIndexOf('/') + 1)];
    if (!body) throw new Error(`benchtop: R asked for ${url}, which is not among its files`);
    return new Uint8Array(body);
  };

  let versions = { r: '', webr: '' };

  /** A new R: instantiated, started as Rscript starts it, its snapshot taken. */
  async function createInstance(): Promise<Instance> {
    let tempDir = '';
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
        WebAssembly.instantiate(wasm, imports).then((instance) => receive(instance, wasm), failed);
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
    if (!versions.r) versions = readVersions(R.FS);
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
      memory: R.HEAPU8.slice(),
      libraries: R.benchtopLibraries(),
      fixed: fingerprint(R.FS),
      writable: writableEntries(R.FS),
    };
  }

  /**
   * Puts back the snapshot after a run; false when that cannot be trusted and a new R is needed:
   * the program loaded a side module, grew the memory a lot, changed the read-only file system
   * (chmod first, say) or removed what R keeps open.
   */
  function restore(instance: Instance): boolean {
    const { R } = instance;
    const FS = R.FS;
    if (R.benchtopLibraries() !== instance.libraries) return false;
    if (R.HEAPU8.length > instance.memory.length + MAX_GROWTH) return false;
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
    const heap = R.HEAPU8;
    heap.set(instance.memory);
    if (heap.length > instance.memory.length) heap.fill(0, instance.memory.length);
    R.__emscripten_stack_restore(instance.stackTop);
    return true;
  }

  let current: Promise<Instance> = createInstance();
  await current;

  /** Runs one program in the waiting R, then puts that R back (or makes a new one) for the next. */
  async function execute(program: string): Promise<Omit<RunResult, 'runtime'>> {
    const instance = await current;
    const { R } = instance;
    const stdout = new OutputCapture();
    const stderr = new OutputCapture();
    instance.stdout.target = stdout;
    instance.stderr.target = stderr;
    const startedAt = performance.now();
    R.FS.writeFile(`${HOME}/${PROGRAM}`, program);
    let exitCode = 0;
    let exited = true;
    try {
      R._run_Rmainloop(); // reads test.r to its end, then quits: it always leaves through exit()
    } catch (e) {
      const status = exitStatus(e);
      if (status === null) {
        // A trap or a JavaScript error inside R (the engine's own stack overflowing, say): the
        // process would have died. This R is not used again.
        exited = false;
        instance.stderr.flush();
        stderr.write(`benchtop: R stopped: ${e instanceof Error ? e.message : String(e)}\n`);
        exitCode = 1;
      } else exitCode = status;
    }
    instance.stdout.flush();
    instance.stderr.flush();
    instance.stdout.target = instance.stderr.target = null;
    const durationMs = performance.now() - startedAt;
    // After this result is posted: the same R, put back, or a new one.
    current = new Promise<Instance>((resolve, reject) => {
      setTimeout(() => {
        let reusable = false;
        try {
          reusable = exited && restore(instance);
        } catch {
          reusable = false;
        }
        if (reusable) resolve(instance);
        else createInstance().then(resolve, reject);
      }, 0);
    });
    current.catch(() => {}); // a failure surfaces when the next run awaits it
    const result = { exitCode, stdout: stdout.text(), stderr: stderr.text(), timedOut: false, durationMs };
    return stdout.truncated || stderr.truncated ? { ...result, truncated: true } : result;
  }

  // One program at a time, in call order (the worker's host already sends one at a time).
  let queue: Promise<unknown> = Promise.resolve();
  return {
    description: `webR ${versions.webr} (R ${versions.r})`,
    run(program) {
      const result = queue.then(() => execute(program));
      queue = result.catch(() => {});
      return result;
    },
  };
}

/** Before R's C code runs: its environment and working directory. */
function prepareSession(R: RModule): void {
  Object.assign(R.ENV, ENV);
  R.FS.mkdirTree(HOME);
  R.FS.chdir(HOME);
}

/**
 * The file system of a new R (R.wasm's embedded files are in place), before R starts: the images,
 * an empty test.r (R opens it at start-up and reads it when the program runs), webR's site profile
 * replaced, and the webr package removed (it talks to webR's own worker; the official R has no
 * such package).
 */
function prepareFileSystem(FS: EmscriptenFS, images: readonly ImageFile[][]): void {
  for (const image of images) {
    for (const file of image) {
      FS.mkdirTree(file.dir);
      // A copy per R (read-only, but a program could chmod it; restore() would notice).
      FS.createDataFile(file.dir, file.name, file.bytes, true, false, false);
    }
  }
  FS.writeFile(`${HOME}/${PROGRAM}`, '');
  FS.writeFile('/usr/lib/R/etc/Rprofile.site', SITE_PROFILE);
  removeTree(FS, '/usr/lib/R/library/webr');
}

/** The side modules of R's packages and modules (library/<package>/libs/*.so, modules/*.so). */
function sideModules(FS: EmscriptenFS): string[] {
  const list = (dir: string) => {
    try {
      return FS.readdir(dir).filter((name) => name.endsWith('.so')).map((name) => `${dir}/${name}`);
    } catch {
      return [];
    }
  };
  const library = '/usr/lib/R/library';
  const packages = FS.readdir(library).filter((name) => name !== '.' && name !== '..');
  return [...packages.flatMap((name) => list(`${library}/${name}/libs`)), ...list('/usr/lib/R/modules')];
}

/** Entries of a directory node (MEMFS), without mount points (/proc/self/fd). */
function entries(FS: EmscriptenFS, node: FSNode): [string, FSNode][] {
  if (!FS.isDir(node.mode) || node.mounted) return [];
  return Object.entries(node.contents as Record<string, FSNode>);
}

/** Calls `visit` for every node outside WRITABLE and /proc, with its path. */
function walkFixed(FS: EmscriptenFS, visit: (path: string, node: FSNode) => void): void {
  const walk = (path: string, node: FSNode) => {
    visit(path, node);
    for (const [name, child] of entries(FS, node)) {
      const childPath = `${path === '/' ? '' : path}/${name}`;
      if (!WRITABLE.includes(childPath) && childPath !== '/proc') walk(childPath, child);
    }
  };
  walk('/', FS.lookupPath('/').node);
}

/** Takes the write permission from every directory and file outside WRITABLE (devices keep theirs). */
function makeReadOnly(FS: EmscriptenFS): void {
  walkFixed(FS, (path, node) => {
    if (FS.isDir(node.mode) || FS.isFile(node.mode)) node.mode &= ~0o222;
  });
}

/** What identifies the state of a node: its mode and times, a directory's names, a file's size (devices: the mode). */
function nodeKey(FS: EmscriptenFS, node: FSNode): string {
  if (FS.isDir(node.mode)) return `${node.mode}|${node.mtime}|${node.ctime}|${entries(FS, node).map(([name]) => name).join('/')}`;
  if (FS.isFile(node.mode)) return `${node.mode}|${node.mtime}|${node.ctime}|${node.usedBytes}`;
  return `${node.mode}|${String((node as { link?: unknown }).link ?? '')}`;
}

function fingerprint(FS: EmscriptenFS): Map<FSNode, { key: string; contents: unknown }> {
  const nodes = new Map<FSNode, { key: string; contents: unknown }>();
  walkFixed(FS, (path, node) => nodes.set(node, { key: nodeKey(FS, node), contents: FS.isFile(node.mode) ? node.contents : null }));
  return nodes;
}

function sameFingerprint(FS: EmscriptenFS, saved: Map<FSNode, { key: string; contents: unknown }>): boolean {
  let same = true;
  let count = 0;
  walkFixed(FS, (path, node) => {
    count++;
    const was = saved.get(node);
    if (!was || was.key !== nodeKey(FS, node) || (FS.isFile(node.mode) && was.contents !== node.contents)) same = false;
  });
  return same && count === saved.size;
}

/** Every path under WRITABLE, with its node and mode. */
function writableEntries(FS: EmscriptenFS): Map<string, { node: FSNode; mode: number }> {
  const found = new Map<string, { node: FSNode; mode: number }>();
  const walk = (path: string, node: FSNode) => {
    found.set(path, { node, mode: node.mode });
    for (const [name, child] of entries(FS, node)) walk(`${path}/${name}`, child);
  };
  for (const root of WRITABLE) walk(root, FS.lookupPath(root).node);
  return found;
}

/** Removes what is under `path` and was not there when the snapshot was taken. */
function removeNew(FS: EmscriptenFS, path: string, keep: Map<string, unknown>): void {
  let node: FSNode;
  try {
    node = FS.lookupPath(path, { follow: false }).node;
  } catch {
    return;
  }
  for (const [name] of entries(FS, node)) {
    const child = `${path}/${name}`;
    if (keep.has(child)) removeNew(FS, child, keep);
    else removeTree(FS, child);
  }
}

interface ImageFile {
  dir: string;
  name: string;
  bytes: Uint8Array;
}

/**
 * The files of one of webR's file-system images (gzipped data + a JSON listing of byte ranges).
 * A web server may have sent the .gz with `Content-Encoding: gzip` (vite's does), so that the
 * browser already unpacked it: then the data is used as it came.
 */
async function unpackImage(mount: string, packed: ArrayBuffer, listing: ArrayBuffer): Promise<ImageFile[]> {
  let data = new Uint8Array(packed);
  if (data[0] === 0x1f && data[1] === 0x8b) {
    data = new Uint8Array(await new Response(new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer());
  }
  const { files } = JSON.parse(new TextDecoder().decode(listing)) as { files: { filename: string; start: number; end: number }[] };
  if (files.some((f) => f.end > data.length)) throw new Error(`benchtop: R's ${mount} image is incomplete`);
  return files.map(({ filename, start, end }) => {
    const path = mount + filename;
    const cut = path.lastIndexOf('/');
    return { dir: path.slice(0, cut), name: path.slice(cut + 1), bytes: data.subarray(start, end) };
  });
}

function readVersions(FS: EmscriptenFS): { r: string; webr: string } {
  const field = (path: string, name: string) => new RegExp(`^${name}: *(.+)$`, 'm').exec(FS.readFile(path, { encoding: 'utf8' }))?.[1]?.trim() ?? '?';
  return { r: field('/usr/lib/R/library/base/DESCRIPTION', 'Version'), webr: field('/usr/lib/R/library/webr/DESCRIPTION', 'Version') };
}

/** Removes a file, link or directory with everything in it (links are not followed). */
function removeTree(FS: EmscriptenFS, path: string): void {
  const node = FS.lookupPath(path, { follow: false }).node;
  if (!FS.isDir(node.mode)) return FS.unlink(path);
  node.mode |= 0o700; // a program may have taken its own permissions away
  for (const [name] of entries(FS, node)) removeTree(FS, `${path}/${name}`);
  FS.rmdir(path);
}

/**
 * Moves the C stack of a new R (nothing on it yet) to an 8 MB block of its heap. webR links R
 * with a 1 MB stack placed just below R's static data, which deep recursion overwrites silently.
 * Returns the top of the new stack.
 */
function useLargeStack(R: RModule): number {
  const bottom = R._malloc(C_STACK_SIZE + 16);
  const top = (bottom + C_STACK_SIZE) & ~15;
  R._emscripten_stack_set_limits(top, bottom);
  R.__emscripten_stack_restore(top);
  return top;
}

/** R's session temporary directory (/tmp/RtmpXXXXXX), which it removes with system() at exit. */
function readTempDir(FS: EmscriptenFS): string {
  const dirs = FS.readdir('/tmp').filter((name) => name.startsWith('Rtmp'));
  return dirs.length === 1 ? `/tmp/${dirs[0]}` : '';
}

/** The status of Emscripten's ExitStatus (R called exit()), or null for anything else. */
function exitStatus(e: unknown): number | null {
  if (e && typeof e === 'object' && (e as { name?: unknown }).name === 'ExitStatus') {
    const status = (e as { status?: unknown }).status;
    if (typeof status === 'number') return status;
  }
  return null;
}

/** Bytes written one at a time by Emscripten's stdout/stderr devices, decoded in chunks. */
class ByteSink {
  target: OutputCapture | null = null;
  private chunk = new Uint8Array(8192);
  private used = 0;
  private decoder = new TextDecoder();

  push(byte: number): void {
    if (this.used === this.chunk.length) this.drain();
    this.chunk[this.used++] = byte;
  }

  text(text: string): void {
    this.drain();
    this.target?.write(text);
  }

  /** Hands on what is buffered, and the end of a multi-byte character cut at the end. */
  flush(): void {
    this.drain();
    const rest = this.decoder.decode();
    if (rest) this.target?.write(rest);
  }

  private drain(): void {
    if (!this.used) return;
    // Output written before the program ran (none, normally) has no target and is dropped.
    this.target?.writeBytes(this.chunk.subarray(0, this.used), this.decoder);
    this.used = 0;
  }
}

/**
 * Makes R.js a factory `(Module) => void` that starts a new R each time it is called. R.js is an
 * Emscripten script written for a worker's global scope; here it runs inside one function, with
 * a `globalThis` of its own, the network, Node and DOM globals shadowed, and these changes to its
 * text (each must match exactly once, or loading fails loudly):
 *  - its file loaders read the files we were handed (Module.benchtopReadAsync/ReadBinary);
 *  - side modules are compiled once and the compiled module reused (Module.benchtopCompile);
 *  - system() asks Module.benchtopSystem first (R's clean-up at exit);
 *  - the dynamic linker tells how many side modules are loaded and loads one on request
 *    (Module.benchtopLibraries, Module.benchtopLoadLibrary);
 *  - C code cannot evaluate JavaScript (emscripten_run_script*: nothing runs, the result is 0).
 * Emscripten publishes the wasm exports as globals and reads some of them back as bare names
 * (`_malloc`, `___heap_base`, …): those are declared as variables of the factory, and its
 * `globalThis` stores them there.
 */
export function wrapRJs(source: string, wasm: WebAssembly.Module): string {
  let text = source;
  const patch = (from: string, to: string) => {
    const count = text.split(from).length - 1;
    if (count !== 1) throw new Error(`benchtop: unexpected R.js (${count} × ${from.slice(0, 40)}…); is this webR 0.6?`);
    text = text.replace(from, () => to);
  };
  patch('var readAsync,readBinary;', 'var readAsync=Module.benchtopReadAsync,readBinary=Module.benchtopReadBinary;');
  patch(
    'var loadWebAssemblyModule=(binary,flags,libName,localScope,handle)=>{',
    'var loadWebAssemblyModule=(binary,flags,libName,localScope,handle)=>{binary=Module.benchtopCompile(binary,libName);',
  );
  patch(
    'var __emscripten_system=command=>{',
    'var __emscripten_system=command=>{var benchtopStatus=Module.benchtopSystem(command?UTF8ToString(command):null);if(benchtopStatus!==undefined)return benchtopStatus;',
  );
  patch(
    'var LDSO={',
    'Module.benchtopLibraries=()=>Object.keys(LDSO.loadedLibsByName).length;' +
      'Module.benchtopLoadLibrary=path=>loadDynamicLibrary(path,{global:false,nodelete:true},{});var LDSO={',
  );
  // webR's R downloads (download.file, url()) by evaluating JavaScript that it writes: nothing
  // is evaluated, and R sees a failed request ("cannot open the connection"), as offline.
  patch('var _emscripten_run_script=ptr=>{eval(UTF8ToString(ptr))};', 'var _emscripten_run_script=ptr=>{};');
  patch('var _emscripten_run_script_int=ptr=>eval(UTF8ToString(ptr))|0;', 'var _emscripten_run_script_int=ptr=>0;');
  patch('var _emscripten_run_script_string=ptr=>{var s=eval(UTF8ToString(ptr));', 'var _emscripten_run_script_string=ptr=>{var s=null;');

  const bare = new Set<string>();
  for (const m of text.matchAll(/(?:^|[^\w$."'])([A-Za-z_$][\w$]*)/g)) bare.add(m[1]!);
  const declared = new Set<string>();
  for (const m of text.matchAll(/(?:var|let|const|function|class)\s+([A-Za-z_$][\w$]*)/g)) declared.add(m[1]!);
  const mangle = (name: string) => '_' + (name === '__main_argc_argv' ? 'main' : name);
  const globals = WebAssembly.Module.exports(wasm).map((e) => mangle(e.name)).filter((n) => bare.has(n) && !declared.has(n));
  globals.push('wasmTable', 'wasmMemory', 'incrementUncaughtExceptionCount', 'decrementUncaughtExceptionCount');
  const shadowed = [
    'process', 'require', 'module', '__filename', '__dirname', 'window', 'document', 'self', 'location', 'navigator',
    'importScripts', 'XMLHttpRequest', 'fetch', 'WebSocket', 'Worker', 'WorkerGlobalScope',
  ];
  const accessors = globals.map((n) => `get ${n}() { return ${n}; }, set ${n}(v) { ${n} = v; }`);
  return [
    '"use strict";',
    `var ${globals.join(', ')};`,
    `var ${shadowed.join(', ')};`,
    `var globalThis = { Module: Module, ${accessors.join(',\n')} };`,
    text,
  ].join('\n');
}

/**
 * Evaluates the factory's text once. In a browser worker it is a blob: script (the only code the
 * sandbox's policy allows besides WebAssembly); under Node a data: module, since the CLI's
 * runtime processes allow no code from strings (runtimes/host/node.ts).
 */
async function loadFactory(body: string): Promise<Factory> {
  const scope = globalThis as unknown as { importScripts?: (url: string) => void } & Record<string, unknown>;
  if (typeof scope.importScripts === 'function') {
    const key = '__benchtopRFactory';
    const url = URL.createObjectURL(new Blob([`self.${key} = function (Module) {\n${body}\n};`], { type: 'text/javascript' }));
    try {
      scope.importScripts(url);
    } finally {
      URL.revokeObjectURL(url);
    }
    const factory = scope[key] as Factory | undefined;
    delete scope[key];
    if (typeof factory !== 'function') throw new Error('benchtop: R.js did not load');
    return factory;
  }
  const url = javascriptDataUrl(`export default function (Module) {\n${body}\n}`);
  const factory = ((await import(/* @vite-ignore */ url)) as { default?: Factory }).default;
  if (typeof factory !== 'function') throw new Error('benchtop: R.js did not load');
  return factory;
}
