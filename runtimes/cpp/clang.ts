/**
 * C++ runtime: Clang/LLD compiled to WebAssembly (@yowasp/clang, LLVM 22 with a wasi-sdk sysroot:
 * libc++, wasi-libc) compiles the program to wasm32-wasi, and @bjorn3/browser_wasi_shim runs it.
 * The official command is `g++ -o test test.cpp && ./test` (g++ 12, gnu++17, no -O); ours is
 *
 *   clang++ -std=gnu++17 -O1 -fwasm-exceptions -fno-strict-return -D_LIBCPP_REMOVE_TRANSITIVE_INCLUDES
 *           … test.cpp exceptions.o glibc-rand.o -o test
 *
 * then `./test` with empty stdin, in a fresh instance, a fresh WASI and an empty working directory.
 * -O1: WebAssembly from -O0 code runs several times slower than g++'s -O0 native code (programs
 * that pass under g++ would time out); -O1 brings it to about native -O0 speed and compiles about
 * as fast as -O0 (and clang -O0 with wasm exceptions hits an LLVM assertion on exceptions.cpp).
 *
 * Start-up (once per worker): load @yowasp/clang's bundle from the handed-in text (a blob: module,
 * its `import.meta.url` pointed at a base that only the in-memory files answer), compile its
 * 75 MB of LLVM once, unpack the sysroot, and build exceptions.o (the C++ exception runtime the
 * sysroot lacks, exceptions.cpp) with the very flags of a run, and ask the driver once for the
 * compile and link command lines (driver.ts). A later worker of the same page gets LLVM's
 * compiled modules, the two objects, the splice's PCH and the command lines from the first
 * (`shareable`, handed on by the runtime frame) and skips all of that but the unpacking (under
 * 1 s in Chromium). Each run instantiates LLVM afresh (the compiler, then the linker), then the
 * program.
 *
 * Precompiled headers (pch.ts; on unless `precompiledHeaders: false`): a program's leading
 * standard #include lines (and `using namespace std;`) are read from a PCH of exactly those
 * lines, built once per worker (the splice's own two lines at load, handed on to later workers
 * like the objects; any other prefix when first met: a problem's two programs share it). A
 * program that fails to compile with it is compiled again without, so a compile error is what the
 * program alone gives. (One broad PCH of all the headers is not used: it would make names visible
 * that the program never included, and clang keeps each header of a PCH that a program includes
 * again open, more than the WASI layer's ~128 descriptors.)
 *
 * Not like g++ (docs/fidelity.md): wasm32 has a 32-bit `size_t` and pointers (`long` is widened
 * to 64 bits in the program's text, and programs whose verdict may depend on the pointer width are
 * declined: lp64.ts); libc++
 * instead of libstdc++ (unordered containers iterate in another order, a few headers still bring
 * more than libstdc++'s; <bits/stdc++.h>, std::__gcd, <tr1/…>, glibc's rand() and what C++17 removed are
 * supplied, programs needing other libstdc++-only headers declined: headers.ts); a crash is a WebAssembly
 * trap, reported with the exit status a shell would show for the matching signal.
 */
import { ConsoleStdout, Directory, File, OpenFile, PreopenDirectory, WASI, WASIProcExit } from '@bjorn3/browser_wasi_shim';
import exceptionsSource from './exceptions.cpp?raw';
import { GXX_HEADERS, REMOVED_FEATURE_FLAGS, libstdcxxDecline } from './headers';
import glibcRandSource from './glibc-rand.c?raw';
import { toLP64 } from './lp64';
import { jobsFromBytes, jobsToBytes, planJobs, runJobs, type ClangModule, type Tree } from './driver';
import { PchCache, SPLICE_PREFIX } from './pch';
import { prebuiltSupportObjects, supportFingerprint, type SupportObjects } from './support-objects';
import { declinedRun, OutputCapture } from '../host/output';
import { moduleUrl } from '../host/module-url';
import type { RunResult } from '../../src/contracts';
import type { RuntimeShared, SharingRuntime, StepDone } from '../loader';

/** The files the runtime needs (name → inside node_modules/@yowasp/clang/gen). */
export const CLANG_FILES = ['bundle.js', 'llvm.core.wasm', 'llvm.core2.wasm', 'llvm.core3.wasm', 'llvm.core4.wasm', 'llvm-resources.tar'] as const;

export interface CppRuntimeOptions {
  /** The files of CLANG_FILES; a .wasm file may be left out when `shared` has its compiled module. */
  files: Record<string, ArrayBuffer>;
  /** What an earlier worker built while loading (its `shareable()`): LLVM's modules, exceptions.o, glibc-rand.o, the splice's PCH, the driver's command lines. */
  shared?: RuntimeShared;
  /** Optimisation level (default -O1; -O0 trips an LLVM assertion on exceptions.cpp). */
  optimization?: '-O1' | '-O2';
  /**
   * Read a program's leading standard includes from a precompiled header (pch.ts); on by default
   * (a program of the splice's two lines compiles in about a quarter of the time: docs/performance-notes.md).
   */
  precompiledHeaders?: boolean;
  /** Take the prebuilt support objects when they fit (support-objects.ts); on by default. */
  prebuiltObjects?: boolean;
  /** More compiler flags (experiments). */
  extraFlags?: string[];
  /** Told as each step of the load ends (loader.ts). */
  step?: StepDone;
}

export interface CppRuntime extends SharingRuntime {
  /** Milliseconds the last run spent compiling and linking. */
  readonly lastCompileMs: number;
  /** The leading lines the last run's program was compiled with from a PCH (null: none). */
  readonly lastPrecompiled: string | null;
  /** Where its support objects came from, and the fingerprint of what they are built from (support-objects.ts). */
  readonly supportObjects: { from: SupportFrom; fingerprint: string };
}

/** An earlier worker's (`shared`), prebuilt (support-objects.generated.ts), or compiled while loading. */
export type SupportFrom = 'given' | 'prebuilt' | 'compiled';


/** The precompiled header's name in the compiler's tree, and in what a later worker gets. */
const PCH_FILE = 'prefix.pch';
/**
 * The text a PCH was built from, under the name it was built from: clang checks that a PCH's input
 * files are still there (same size) before it reads the PCH, and refuses it otherwise ("could not
 * find file '/prefix.hpp' referenced by AST file"), so every compile with a PCH gets its text too.
 */
const PCH_HEADER = 'prefix.hpp';
const SHARED_PCH = 'splice-prefix.pch';
/** The driver's command lines in what a later worker gets (without and with a PCH). */
const SHARED_JOBS = 'driver-jobs.json';
const SHARED_PCH_JOBS = 'driver-jobs-pch.json';

/** A base that never resolves: only the in-memory files answer to it. */
const IN_MEMORY_BASE = 'https://clang.benchtop.invalid/';

export async function createCppRuntime(options: CppRuntimeOptions): Promise<CppRuntime> {
  const loaded = await loadClang(options.files, options.shared?.modules ?? {});
  options.step?.('compile LLVM, unpack the sysroot');
  const clang = loaded.clang;
  const optimization = options.optimization ?? '-O1';
  const compileFlags = [
    '-std=gnu++17', optimization, '-fwasm-exceptions', '-fno-strict-return', '-isystem', '/benchtop/include',
    // libc++ in C++17 mode keeps, for old code, many includes the standard does not require: its
    // <vector> alone brings <algorithm>, <climits>, <memory>, … A program that forgets an include
    // then compiles here and fails under g++ (libstdc++ includes much less). Without them libc++
    // is close to libstdc++ (measured in docs/fidelity.md).
    '-D_LIBCPP_REMOVE_TRANSITIVE_INCLUDES',
    // What C++17 removed and g++ 12 keeps in gnu++17 (auto_ptr, bind2nd, unary_function, …).
    ...REMOVED_FEATURE_FLAGS,
    // wasi-libc's emulations of what POSIX programs take for granted: signal(), clock(), getpid(), mmap().
    '-D_WASI_EMULATED_SIGNAL', '-D_WASI_EMULATED_PROCESS_CLOCKS', '-D_WASI_EMULATED_GETPID', '-D_WASI_EMULATED_MMAN',
    // Warnings g++ does not give by default (libc++'s [[nodiscard]], variable-length arrays).
    '-Wno-unused-result', '-Wno-vla-cxx-extension',
    // What a release build of clang does by default (this one is built with assertions): no IR
    // verifier pass, no names for IR values. The object file is byte for byte the same; the
    // compile is 5-10% shorter.
    '-fno-verify-intermediate-code', '-fdiscard-value-names',
    ...(options.extraFlags ?? []),
  ];
  const linkFlags = [
    '-Wl,-z,stack-size=8388608', '-Wl,--stack-first', '-Wl,--allow-multiple-definition',
    '-lwasi-emulated-signal', '-lwasi-emulated-process-clocks', '-lwasi-emulated-getpid', '-lwasi-emulated-mman',
    // wasi-libc leaves long double out of printf unless asked: `cout << 1.5L` aborted without it.
    '-lc-printscan-long-double',
    // No name section: half of a program's bytes, written by the linker and read by the engine
    // for nothing (it only names functions in a debugger; traps and exit codes do not use it).
    '-Wl,--strip-all',
  ];
  const headers = GXX_HEADERS;

  // The two support objects: as an earlier worker of this page built them with these very flags,
  // prebuilt for exactly these inputs (support-objects.ts), or built here (each compile costs
  // seconds while LLVM's code is still cold).
  const key = JSON.stringify([compileFlags, optimization]);
  const given = options.shared?.key === key ? options.shared.bytes : undefined;
  const randFlags = ['-x', 'c', '-std=gnu11', optimization];
  const fingerprint = supportFingerprint([clang.version, compileFlags, randFlags, exceptionsSource, glibcRandSource, headers]);
  const givenObjects = given?.['exceptions.o'] instanceof Uint8Array && given['glibc-rand.o'] instanceof Uint8Array
    ? { 'exceptions.o': given['exceptions.o'], 'glibc-rand.o': given['glibc-rand.o'] }
    : null;
  const prebuilt = givenObjects || options.prebuiltObjects === false ? null : prebuiltSupportObjects(fingerprint);
  const supportFrom: SupportFrom = givenObjects ? 'given' : prebuilt ? 'prebuilt' : 'compiled';
  const objects: SupportObjects = givenObjects ?? prebuilt ?? (await compileSupport());
  async function compileSupport(): Promise<SupportObjects> {
    const support = await compile(clang, [...compileFlags, '-c', 'exceptions.cpp', '-o', 'exceptions.o'], { ...headers, 'exceptions.cpp': exceptionsSource });
    const exceptionsObject = support.files?.['exceptions.o'];
    if (!(exceptionsObject instanceof Uint8Array)) throw new Error(`could not build the C++ exception runtime:\n${support.diagnostics}`);
    // glibc's rand()/random() sequence, linked before wasi-libc (first definition wins).
    const rand = await compile(clang, [...randFlags, '-c', 'glibc-rand.c', '-o', 'glibc-rand.o'], { 'glibc-rand.c': glibcRandSource });
    const randObject = rand.files?.['glibc-rand.o'];
    if (!(randObject instanceof Uint8Array)) throw new Error(`could not build glibc's rand():\n${rand.diagnostics}`);
    options.step?.('support objects');
    return { 'exceptions.o': exceptionsObject, 'glibc-rand.o': randObject };
  }
  const programArgs = [...compileFlags, 'test.cpp', 'exceptions.o', 'glibc-rand.o', '-o', 'test', ...linkFlags];
  // The driver's compile and link command lines, the same for every program (driver.ts), as an
  // earlier worker of this page planned them with these very flags, or planned here.
  const jobs = jobsFromBytes(given?.[SHARED_JOBS]) ?? (await planJobs(clang, programArgs, { ...headers, 'test.cpp': '', ...objects }));
  // The same with the program's first lines read from a precompiled header (pch.ts).
  const pchArgs = [...compileFlags, '-include-pch', PCH_FILE, 'test.cpp', 'exceptions.o', 'glibc-rand.o', '-o', 'test', ...linkFlags];
  const pchJobs = jobs && options.precompiledHeaders !== false
    ? jobsFromBytes(given?.[SHARED_PCH_JOBS]) ?? (await planJobs(clang, pchArgs, { ...headers, 'test.cpp': '', ...objects, [PCH_FILE]: new Uint8Array(0) }))
    : null;
  // -fpch-instantiate-templates: the templates the header itself uses are instantiated once, in
  // the PCH, instead of again in every program that reads it (about a tenth of a warm compile;
  // they involve only the library's own types, so only a program adding overloads to namespace
  // std, undefined behaviour, could see a difference from g++ instantiating them later).
  const pchBuildArgs = [...compileFlags, '-fpch-instantiate-templates', '-Xclang', '-fno-pch-timestamp', '-x', 'c++-header', PCH_HEADER, '-o', PCH_FILE];
  const pchs = new PchCache(async (header) => {
    const built = await compile(clang, pchBuildArgs, { ...headers, [PCH_HEADER]: `${header}\n` });
    const pch = built.files?.[PCH_FILE];
    return pch instanceof Uint8Array && built.diagnostics === '' ? pch : null;
  });
  options.step?.('driver command lines');
  const givenPch = given?.[SHARED_PCH];
  if (givenPch instanceof Uint8Array) pchs.put(SPLICE_PREFIX, givenPch);
  const splicePch = pchJobs ? await pchs.ensure(SPLICE_PREFIX) : null;
  options.step?.('precompiled header');

  let lastCompileMs = 0;
  let lastPrecompiled: string | null = null;
  return {
    description: `clang ${clang.version.split('-')[0]} (@yowasp/clang ${clang.version}, libc++, wasm32-wasi)`,
    get lastCompileMs() {
      return lastCompileMs;
    },
    get lastPrecompiled() {
      return lastPrecompiled;
    },
    supportObjects: { from: supportFrom, fingerprint },
    // Copies, taken before any program ran: nothing a later worker gets can be written by a program here.
    shareable: () => ({
      modules: { ...loaded.modules },
      bytes: {
        'exceptions.o': objects['exceptions.o'].slice(),
        'glibc-rand.o': objects['glibc-rand.o'].slice(),
        ...(splicePch ? { [SHARED_PCH]: splicePch.slice() } : {}),
        ...(jobs ? { [SHARED_JOBS]: jobsToBytes(jobs) } : {}),
        ...(pchJobs ? { [SHARED_PCH_JOBS]: jobsToBytes(pchJobs) } : {}),
      },
      key,
    }),
    async run(original, _timeoutMs, steps) {
      const started = performance.now();
      // 64-bit `long` as under g++ on x86-64, or declined when pointer width may decide (lp64.ts).
      // libstdc++-only headers this runtime cannot supply: declined, not a compile error (headers.ts).
      const missing = libstdcxxDecline(original);
      const lp64 = missing ? { declined: missing } : toLP64(original);
      lastPrecompiled = null;
      if ('declined' in lp64) {
        lastCompileMs = 0;
        return declinedRun(lp64.declined, performance.now() - started);
      }
      const program = lp64.program;
      const stdout = new OutputCapture();
      const stderr = new OutputCapture();
      const prefix = pchJobs ? await pchs.prepare(program) : null;
      let built = prefix && (await compile(clang, pchArgs, { ...headers, [PCH_HEADER]: `${prefix.header}\n`, 'test.cpp': prefix.program, ...objects, [PCH_FILE]: prefix.pch }, pchJobs));
      // Anything but a program: compiled again without the PCH, so that a compile error, its
      // message or a compiler crash is exactly what the program alone gives.
      if (built?.files?.test instanceof Uint8Array) lastPrecompiled = prefix!.header;
      else built = await compile(clang, programArgs, { ...headers, 'test.cpp': program, ...objects }, jobs);
      lastCompileMs = performance.now() - started;
      // The compiler's warnings and errors go to stderr, as in `g++ … && ./test` run by a shell.
      stderr.write(built.diagnostics);
      // A compiler that crashes fails the compile step, as an internal compiler error of g++ does.
      if (built.crashed) stderr.write(`clang++: error: the compiler crashed (${built.crashed})\n`);
      const wasm = built.files?.test;
      if (!(wasm instanceof Uint8Array)) {
        return finish({ exitCode: 1, compileFailed: true, timedOut: false }, stdout, stderr, started);
      }
      steps?.compiled();
      const exitCode = await execute(wasm, stdout, stderr);
      return finish({ exitCode, timedOut: false }, stdout, stderr, started);
    },
  };
}

type Report = Pick<RunResult, 'exitCode' | 'timedOut' | 'compileFailed'>;

function finish(report: Report, stdout: OutputCapture, stderr: OutputCapture, started: number): Omit<RunResult, 'runtime'> {
  const result = { ...report, stdout: stdout.text(), stderr: stderr.text(), durationMs: performance.now() - started };
  return stdout.truncated || stderr.truncated ? { ...result, truncated: true } : result;
}

/**
 * Runs clang (driver, compiler, linker, or only the last two when the driver's `jobs` are known)
 * on an in-memory tree; returns the tree after and what it printed.
 */
async function compile(clang: ClangModule, args: string[], files: Tree, jobs: string[][] | null = null): Promise<{ files: Tree | null; diagnostics: string; crashed?: string }> {
  const chunks: Uint8Array[] = [];
  const collect = (bytes: Uint8Array | null) => {
    if (bytes) chunks.push(bytes.slice());
  };
  let out: Tree | null = null;
  let crashed: string | undefined;
  try {
    const options = { stdout: collect, stderr: collect, decodeASCII: false };
    out = (await (jobs ? runJobs(clang, jobs, files, options) : clang.runClang(['clang++', ...args], files, options))) ?? null;
  } catch (e) {
    // Exit: the compiler reported an error. Anything else: it trapped (an LLVM bug or a limit).
    if (!(e instanceof clang.Exit)) crashed = e instanceof Error ? e.message : String(e);
  }
  const decoder = new TextDecoder();
  const diagnostics = chunks.map((c) => decoder.decode(c, { stream: true })).join('') + decoder.decode();
  return crashed === undefined ? { files: out, diagnostics } : { files: null, diagnostics, crashed };
}

/** Signals as a shell reports them: 128 + the signal number. */
const SIGABRT = 134;
const SIGFPE = 136;
const SIGSEGV = 139;

/** Runs a compiled program as `./test`; returns its exit status. */
async function execute(wasm: Uint8Array, stdout: OutputCapture, stderr: OutputCapture): Promise<number> {
  const decoders = { out: new TextDecoder(), err: new TextDecoder() };
  const wasi = new WASI(
    ['./test'],
    [],
    [
      new OpenFile(new File([])),
      new ConsoleStdout((bytes) => stdout.writeBytes(bytes, decoders.out)),
      new ConsoleStdout((bytes) => stderr.writeBytes(bytes, decoders.err)),
      new PreopenDirectory('.', new Map()),
      new PreopenDirectory('/tmp', new Map<string, File | Directory>()),
    ],
    { debug: false }, // (the shim logs every file access to the console otherwise)
  );
  let status: number;
  let instance: WebAssembly.Instance | null = null;
  try {
    const module = await WebAssembly.compile(wasm as Uint8Array<ArrayBuffer>);
    instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi.wasiImport });
    status = wasi.start(instance as unknown as Parameters<WASI['start']>[0]) & 0xff; // as a process's exit status
  } catch (e) {
    status = crash(e, instance, stderr);
  }
  if (!stdout.full) stdout.write(decoders.out.decode());
  if (!stderr.full) stderr.write(decoders.err.decode());
  return status;
}

/** A program that ended by a trap or an uncaught exception: the status and message a shell would give. */
function crash(e: unknown, instance: WebAssembly.Instance | null, stderr: OutputCapture): number {
  if (e instanceof WASIProcExit) return e.code & 0xff; // exit() from a nested call, already unwound
  if (typeof WebAssembly.Exception === 'function' && e instanceof WebAssembly.Exception) {
    // A C++ exception left main: g++'s runtime prints what it was and aborts.
    const uncaught = instance?.exports.__benchtop_uncaught;
    try {
      if (typeof uncaught === 'function') uncaught();
    } catch {
      // The report itself failed: the status still says what happened.
    }
    stderr.write('Aborted\n');
    return SIGABRT;
  }
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof RangeError || /call stack/i.test(message)) {
    stderr.write(`Segmentation fault (stack overflow: ${message})\n`);
    return SIGSEGV;
  }
  if (e instanceof WebAssembly.RuntimeError) {
    if (/unreachable/i.test(message)) {
      // abort() (a failed assert, std::terminate) is a trap in wasi-libc.
      stderr.write('Aborted\n');
      return SIGABRT;
    }
    if (/divide by zero|remainder by zero|integer overflow|float unrepresentable/i.test(message)) {
      stderr.write(`Floating point exception (${message})\n`);
      return SIGFPE;
    }
    stderr.write(`Segmentation fault (${message})\n`);
    return SIGSEGV;
  }
  if (e instanceof WebAssembly.CompileError || e instanceof WebAssembly.LinkError) {
    stderr.write(`benchtop: the compiled program could not be loaded: ${message}\n`);
    return 1;
  }
  stderr.write(`benchtop: the program stopped: ${message}\n`);
  return 1;
}

/**
 * Loads @yowasp/clang from the handed-in files: its bundle becomes a module (blob: in a browser,
 * data: under Node, which cannot import blob: URLs) whose `import.meta.url` is the in-memory base,
 * and its resource fetches are answered by a stand-in `fetch` that knows only these files, removed
 * once LLVM is compiled and the sysroot unpacked. The bundle compiles its four WebAssembly modules
 * through one function (COMPILE_MODULE), pointed here at a stand-in that returns the module an
 * earlier worker compiled (`shared`) or compiles the file and keeps the module for the next worker.
 */
async function loadClang(files: Record<string, ArrayBuffer>, shared: Record<string, WebAssembly.Module>): Promise<{ clang: ClangModule; modules: Record<string, WebAssembly.Module> }> {
  for (const name of CLANG_FILES) {
    if (!files[name] && !(name.endsWith('.wasm') && shared[name] instanceof WebAssembly.Module)) throw new Error(`missing ${name}`);
  }
  const bundle = new TextDecoder().decode(files['bundle.js']);
  if (!bundle.includes('import.meta.url')) throw new Error('bundle.js: unexpected layout (no import.meta.url)');
  if (!bundle.includes(COMPILE_MODULE)) throw new Error('bundle.js: unexpected layout (no compileWasmModule)');
  if (!bundle.includes(PROGRESS_STREAM)) throw new Error('bundle.js: unexpected layout (no progress stream)');
  const patched = bundle
    .replaceAll('import.meta.url', JSON.stringify(IN_MEMORY_BASE))
    .replace(QUADRATIC_WRITE, LINEAR_WRITE)
    .replace(PROGRESS_STREAM, NO_PROGRESS_STREAM)
    .replace(COMPILE_MODULE, SHARED_COMPILE_MODULE);

  const modules: Record<string, WebAssembly.Module> = {};
  const scope = globalThis as { fetch?: typeof fetch; [COMPILE_HOOK]?: (response: Response) => Promise<WebAssembly.Module> };
  const realFetch = scope.fetch;
  scope.fetch = async (input: RequestInfo | URL) => {
    const url = String(input instanceof Request ? input.url : input);
    const name = url.startsWith(IN_MEMORY_BASE) ? url.slice(IN_MEMORY_BASE.length) : '';
    const body = Object.hasOwn(files, name) ? files[name] : Object.hasOwn(shared, name) ? new ArrayBuffer(0) : undefined;
    if (!body) throw new TypeError(`benchtop: no request may leave the runtime worker (${url})`);
    const type = name.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
    // The name travels in a header, for the compile hook. The bytes are handed over as they are:
    // a Response's body is read through a stream (in Chromium a data pipe), which cost a later
    // worker about 0.3 s for the 30 MB sysroot tar that is in memory already.
    const response = new Response(null, { headers: { 'content-type': type, 'content-length': String(body.byteLength), [NAME_HEADER]: name } });
    Object.defineProperty(response, 'arrayBuffer', { value: async () => body });
    return response;
  };
  scope[COMPILE_HOOK] = async (response: Response) => {
    const name = response.headers.get(NAME_HEADER) ?? '';
    const given = Object.hasOwn(shared, name) ? shared[name] : undefined;
    // Compiled from the bytes, not streamed: a stand-in Response has no URL for a code cache to key on.
    const module = given instanceof WebAssembly.Module ? given : await WebAssembly.compile(await response.arrayBuffer());
    modules[name] = module;
    return module;
  };
  const module = moduleUrl(patched);
  try {
    const clang = (await import(/* @vite-ignore */ module.url)) as ClangModule;
    // Compile LLVM and unpack the sysroot now (args null: load only). No progress callback: the
    // bundle's progress stream is patched out (NO_PROGRESS_STREAM), so none would be called.
    await clang.runLLVM(null);
    return { clang, modules };
  } finally {
    module.release();
    delete scope[COMPILE_HOOK];
    if (realFetch) scope.fetch = realFetch;
    else delete scope.fetch;
  }
}

/**
 * The bundle pipes every resource through a stream that counts bytes for its progress callback
 * (Node: 150-270 ms of chunk passing for the 30 MB sysroot tar, against 5-25 ms to parse it). The
 * files are in memory already, so there is no progress to tell: the patched bundle takes the
 * stand-in responses' bytes as they are (which have no body to pipe, hence the layout check).
 */
const PROGRESS_STREAM = `    let fetchFn = fetch_default;
    if (fetchProgress !== void 0) {`;
const NO_PROGRESS_STREAM = `    let fetchFn = fetch_default;
    if (false) {`;

/** The header that names a stand-in response's file, for the compile hook. */
const NAME_HEADER = 'x-benchtop-file';
/** The global the patched bundle calls while it loads (removed once it has). */
const COMPILE_HOOK = '__benchtopCompileWasm';
const COMPILE_MODULE = `function compileWasmModule(response) {
  if (WebAssembly.compileStreaming !== void 0) {
    return WebAssembly.compileStreaming(response);
  } else {
    return WebAssembly.compile(response.arrayBuffer());
  }
}`;
const SHARED_COMPILE_MODULE = `function compileWasmModule(response) {
  return globalThis.${COMPILE_HOOK}(response);
}`;

/**
 * The bundle's in-memory file system copies a whole file on every write (quadratic: writing a
 * 13 MB file in small chunks cost seconds; the object files and the program cost less, but some). Replaced (when the text is as expected) by a
 * write into spare capacity that doubles, as a growable buffer does; `data` stays an exact view.
 * Bytes are written in place only into a buffer grown here for this file: a file's first bytes may
 * be shared with every later compile (the sysroot, exceptions.o), so its first write copies them.
 */
const QUADRATIC_WRITE = `  write(contents) {
    const offset = Number(this.offset);
    const newData = new Uint8Array(Math.max(this.file.data.length, offset + contents.length));
    newData.set(this.file.data);
    newData.subarray(offset).set(contents);
    this.file.data = newData;
    this.offset += BigInt(contents.length);
  }`;
const LINEAR_WRITE = `  write(contents) {
    const offset = Number(this.offset);
    const end = offset + contents.length;
    const file = this.file;
    const spare = file.spareCapacity;
    if (spare && spare.buffer === file.data.buffer && file.data.byteOffset === 0 && end <= spare.length) {
      const size = file.data.length;
      if (end > size) {
        file.data = spare.subarray(0, end);
        if (offset > size) file.data.fill(0, size, offset);
      }
    } else {
      const grown = new Uint8Array(Math.max(end, 2 * file.data.length, 65536));
      grown.set(file.data);
      file.spareCapacity = grown;
      file.data = grown.subarray(0, Math.max(end, file.data.length));
    }
    file.data.set(contents, offset);
    this.offset += BigInt(contents.length);
  }`;
