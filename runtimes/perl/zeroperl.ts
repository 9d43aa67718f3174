/**
 * Perl runtime: zeroperl (Perl 5 compiled to WASI with its core library embedded in the .wasm),
 * run as `perl test.pl` would. One instance per worker is started once, as
 * `perl -MBenchtop::Phase -mstrict -mwarnings test.pl`, and stopped inside perl's first read of
 * test.pl (after the preloaded modules are compiled; runtimes/host/asyncify-pause.ts); its memory
 * and mutable globals are kept (runtimes/host/wasm-snapshot.ts). Every program starts from that
 * snapshot: put back, the read resumed with the program's text, and perl parses and runs it from
 * an in-memory file system, END blocks and exit codes included. What that start shares between
 * runs (the hash seed; strict and warnings in %INC) is in docs/fidelity.md.
 *
 * We use only zeroperl's .wasm, not its JavaScript wrapper: the wrapper loads the .wasm itself
 * (fetch in a window, `node:fs` elsewhere, so not in a sandboxed worker), recompiles it for every
 * interpreter, and its file system answers reads asynchronously, which breaks zeroperl's own
 * start-up path when the program is a file. Here the compiled module is kept, and each run gets a
 * new @bjorn3/browser_wasi_shim (synchronous, in memory).
 *
 * zeroperl does not bundle Test::More, POSIX or Storable; benchtop provides pure-Perl stand-ins
 * (lib/*, on PERL5LIB): Test::More with the same output and exit code, the common part of POSIX,
 * Storable's dclone/freeze/thaw. docs/fidelity.md lists what else differs.
 *
 * A runaway program cannot be interrupted (the wasm runs synchronously): the host terminates the
 * worker at the time limit.
 */
import { ConsoleStdout, Directory, File, OpenFile, PreopenDirectory, WASI, WASIProcExit, type Inode } from '@bjorn3/browser_wasi_shim';
import phaseModule from './lib/Benchtop/Phase.pm?raw';
import posix from './lib/POSIX.pm?raw';
import storable from './lib/Storable.pm?raw';
import testMore from './lib/Test/More.pm?raw';
import testSimple from './lib/Test/Simple.pm?raw';
import { packageVersion } from '../package-versions';
import { createQueue } from '../queue';
import { AheadStep } from '../host/ahead';
import { OutputCapture } from '../host/output';
import { AsyncifyPause } from '../host/asyncify-pause';
import { addressReadBy, exposeMutableGlobals, InstanceSnapshot } from '../host/wasm-snapshot';
import { compiledModule } from '../host/shared-module';
import { forwardedWasiImports } from '../host/wasi-forward';
import type { RuntimeShared, SharingRuntime, StepDone } from '../loader';

/** The files the host hands in (name → bytes): zeroperl's WebAssembly binary. */
export const PERL_FILES = ['zeroperl.wasm'] as const;

export interface PerlRuntimeOptions {
  /** zeroperl.wasm; may be left out when `shared` has its compiled module. */
  files: Record<string, ArrayBuffer>;
  /** What an earlier worker of the page compiled (its `shareable()`). */
  shared?: RuntimeShared;
  /** Told as each step of the load ends (loader.ts). */
  step?: StepDone;
}

const LIB_DIR = '/usr/share/benchtop/perl5';
/** The interpreter pointer's address, in what a worker hands the next (RuntimeShared bytes). */
const INTERPRETER_ADDRESS = 'zeroperl_is_initialized.address';
/** Benchtop::Phase's marker: a directory of its own (a preopen), so the program cannot move it. */
const PHASE_DIR = '/.benchtop';

/**
 * Modules benchtop adds to Perl's library (path under LIB_DIR → source): pure-Perl stand-ins for
 * core modules that zeroperl lacks (Test::More and Test::Simple, POSIX, Storable; see each
 * file's header for what they cover), and the phase marker.
 */
const LIBRARY: Readonly<Record<string, string>> = {
  'Test/More.pm': testMore,
  'Test/Simple.pm': testSimple,
  'POSIX.pm': posix,
  'Storable.pm': storable,
  'Benchtop/Phase.pm': phaseModule,
};

/**
 * How every program is run: `perl test.pl` with benchtop's phase marker, and strict and warnings
 * compiled but not imported (`-m`, i.e. `use strict ();`), so that they are in the snapshot the
 * program starts from: compiling them was most of a typical program's time (docs/performance-notes.md).
 */
const PROGRAM_ARGS = ['perl', '-MBenchtop::Phase', '-mstrict', '-mwarnings', 'test.pl'];

interface ZeroperlExports {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  zeroperl_init_with_args(argc: number, argv: number): number;
  zeroperl_is_initialized(): number;
  zeroperl_free_interpreter(): void;
}

export async function createPerlRuntime(options: PerlRuntimeOptions): Promise<SharingRuntime> {
  const encoder = new TextEncoder();
  const library = Object.entries(LIBRARY).map(([path, source]) => [path, encoder.encode(source)] as const);

  const module = await compiledModule(options.files, options.shared, 'zeroperl.wasm', exposeMutableGlobals);
  options.step?.('compile');
  // Where zeroperl keeps its interpreter pointer, read from the code of zeroperl_is_initialized; a
  // later worker, handed the compiled module instead of the file, gets it with the module.
  const given = options.shared?.bytes?.[INTERPRETER_ADDRESS];
  const zeroPerlAddress = given?.byteLength === 4
    ? new DataView(given.buffer, given.byteOffset, 4).getUint32(0, true)
    : addressReadBy(options.files['zeroperl.wasm']!, 'zeroperl_is_initialized');
  // A table the program could change would be state outside the snapshot: none is shared.
  if ([...WebAssembly.Module.imports(module), ...WebAssembly.Module.exports(module)].some((e) => e.kind === 'table')) {
    throw new Error('zeroperl.wasm shares its table: the snapshot would not cover it');
  }

  // The WASI of the run in progress: the instance's imports call through to it, so that one
  // instance serves every run while each run gets a new WASI (descriptors, files, environment).
  let current: WASI | null = null;
  // Reads go past the start-up's hook first: it stops perl at its first read of test.pl, and
  // resumes each run there (true: the read is done).
  let readHook: (fd: number) => boolean = () => false;
  const wasiImport = forwardedWasiImports(module, () => current, (name, args) => (name === 'fd_read' && readHook(args[0] as number) ? 0 : undefined));
  const instantiate = async () =>
    (await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasiImport, env: { call_host_function: () => 0 } })).exports;

  /** A new WASI for one run: the program, /dev/null, an empty /tmp, benchtop's modules. */
  function newWasi(program: string, stdout: OutputCapture, stderr: OutputCapture, decoders: { out: TextDecoder; err: TextDecoder }) {
    const lib = new Map<string, Inode>();
    for (const [path, bytes] of library) {
      const parts = path.split('/');
      let dir = lib;
      for (const part of parts.slice(0, -1)) {
        let sub = dir.get(part);
        if (!(sub instanceof Directory)) dir.set(part, (sub = new Directory(new Map())));
        dir = (sub as Directory).contents;
      }
      dir.set(parts.at(-1)!, new File(bytes, { readonly: true }));
    }
    const share = new Map<string, Inode>([['benchtop', new Directory(new Map([['perl5', new Directory(lib)]]))]]);
    const root = new Map<string, Inode>([
      ['test.pl', new File(encoder.encode(program))],
      ['dev', new Directory(new Map([['null', new DevNull()]]))],
      ['tmp', new Directory(new Map())],
      ['usr', new Directory(new Map([['share', new Directory(share)]]))],
    ]);
    const marker = new PhaseMarker();
    const fds = [
      new OpenFile(new File(new Uint8Array(0))), // stdin: empty
      new ConsoleStdout((bytes) => stdout.writeBytes(bytes, decoders.out)),
      new ConsoleStdout((bytes) => stderr.writeBytes(bytes, decoders.err)),
      new PreopenDirectory('/', root),
      new PreopenDirectory(PHASE_DIR, new PinnedEntries([['phase', marker]])),
    ];
    return { wasi: new WASI(['perl'], [`PERL5LIB=${LIB_DIR}`], fds, { debug: false }), marker, program: root.get('test.pl') as File, opened: fds.length };
  }

  // Start-up, once: the C library's constructors (`_initialize`), then perl itself as far as its
  // first read of test.pl, which is where every run starts (security.md, "Every program starts
  // from a clean slate"): the instance is stopped inside that read (AsyncifyPause), its memory and
  // globals are kept, and each run puts them back and resumes the read with its own program.
  let exports = await instantiate();
  options.step?.('instantiate');
  const setUpErrors = new OutputCapture();
  const setUp = newWasi('', new OutputCapture(), setUpErrors, { out: new TextDecoder(), err: new TextDecoder() });
  current = setUp.wasi;
  current.initialize({ exports } as never);
  const perl0 = exports as unknown as ZeroperlExports;
  const argv = writeArgv(perl0, PROGRAM_ARGS, encoder);
  const pause = new AsyncifyPause(exports);
  let stopAt: File | null = setUp.program;
  // (a holder, not a `let`: TypeScript does not see the read hook assign a local during the call below)
  const stop: { at: { fd: number; fds: number; time: number } | null } = { at: null };
  let resuming: { interpreter: number; basetime: number } | null = null;
  readHook = (fd) => {
    if (resuming && pause.arrived(exports)) {
      // zeroperl's entry point returns at once when its interpreter pointer is set (its
      // `if (zero_perl) return 0;` is not instrumented, so it runs again): it is cleared before
      // the call and put back here, with the run's own start time for $^T.
      memory32(exports).setUint32(zeroPerlAddress, resuming.interpreter, true);
      memory32(exports).setBigInt64(resuming.basetime, BigInt(Math.floor(Date.now() / 1000)), true);
      resuming = null;
      return false;
    }
    if (!stopAt || (current!.fds[fd] as OpenFile | undefined)?.file !== stopAt) return false;
    stop.at = { fd, fds: current!.fds.length, time: Math.floor(Date.now() / 1000) };
    stopAt = null;
    pause.unwind(exports);
    return true;
  };
  const before = Math.floor(Date.now() / 1000);
  const stackTop = (exports.__stack_pointer as WebAssembly.Global).value as number;
  perl0.zeroperl_init_with_args(PROGRAM_ARGS.length, argv);
  current = null;
  if (!pause.stopped(exports) || !stop.at) throw new Error(`zeroperl did not start: ${setUpErrors.text()}`);
  const { fd: programFd, fds: fdCount, time: after } = stop.at;
  if (setUp.wasi.fds.some((f, i) => f && i >= setUp.opened && i !== programFd)) throw new Error('zeroperl has files open besides test.pl');
  const interpreter = memory32(exports).getUint32(zeroPerlAddress, true);
  if (!perl0.zeroperl_is_initialized() || interpreter === 0) throw new Error('zeroperl_is_initialized does not read the interpreter pointer');
  // $^T: perl notes the time when it starts, which is now the snapshot's; each run writes its own.
  const basetime = findTime(exports, stackTop, before, after);
  options.step?.('start');
  const snapshot = new InstanceSnapshot(exports);
  options.step?.('snapshot');
  // The instance as it was at the read; a new one if the last program grew its memory.
  const putBack = new AheadStep(async () => {
    exports = await snapshot.restoreOrRenew(exports, instantiate);
  });

  async function execute(program: string): Promise<{ exitCode: number; stdout: OutputCapture; stderr: OutputCapture }> {
    const stdout = new OutputCapture();
    const stderr = new OutputCapture();
    const decoders = { out: new TextDecoder(), err: new TextDecoder() };
    await putBack.ensure();
    const { wasi, marker, program: file } = newWasi(program, stdout, stderr, decoders);
    (wasi as unknown as { inst: { exports: WebAssembly.Exports } }).inst = { exports };
    // The descriptors as perl left them: test.pl open where it was, closed ones closed.
    while (wasi.fds.length < fdCount) wasi.fds.push(undefined as never);
    wasi.fds[programFd] = new OpenFile(file);
    const perl = exports as unknown as ZeroperlExports;

    let status: number;
    // The phase as it was when the interpreter returned: END blocks after a failed compilation
    // (run by perl_destruct) and DESTROY methods come later, and may write the marker too.
    let phase: string | null = null;
    current = wasi;
    try {
      memory32(exports).setUint32(zeroPerlAddress, 0, true);
      resuming = { interpreter, basetime };
      pause.rewind(exports);
      status = perl.zeroperl_init_with_args(PROGRAM_ARGS.length, argv);
      if (resuming) throw new Error('zeroperl did not resume at its read of test.pl');
      phase = marker.phase();
      perl.zeroperl_free_interpreter(); // perl_destruct: flushes STDOUT and STDERR
    } catch (e) {
      if (!(e instanceof WASIProcExit)) {
        stderr.write(`benchtop: the Perl runtime stopped: ${(e as Error).message}\n`);
        return { exitCode: 1, stdout, stderr };
      }
      status = e.code;
      phase ??= marker.phase();
    } finally {
      current = null;
      resuming = null;
    }
    stdout.write(decoders.out.decode());
    stderr.write(decoders.err.decode());
    return { exitCode: exitStatus(status, phase), stdout, stderr };
  }

  // Load check and warm-up (the first run compiles much of the interpreter): the Perl version,
  // and $^T as each run sets it.
  const now = Math.floor(Date.now() / 1000);
  const probe = await execute('printf "%vd %d", $^V, $^T;');
  const [perlVersion, probeTime] = probe.stdout.text().split(' ');
  if (probe.exitCode !== 0 || Math.abs(Number(probeTime) - now) > 2) throw new Error(`zeroperl did not start: ${probe.stdout.text()} ${probe.stderr.text()}`);
  options.step?.('probe program');

  // One program at a time (each instance starts with 32 MB of memory): the worker host sends
  // runs one by one anyway; direct callers may not.
  const queue = createQueue();
  return {
    description: `zeroperl ${packageVersion('@6over3/zeroperl-ts')} (Perl ${perlVersion})`,
    shareable: () => {
      const address = new Uint8Array(4);
      new DataView(address.buffer).setUint32(0, zeroPerlAddress, true);
      return { modules: { 'zeroperl.wasm': module }, bytes: { [INTERPRETER_ADDRESS]: address } };
    },
    run: (program) => queue(async () => {
      const started = performance.now();
      const { exitCode, stdout, stderr } = await execute(program);
      const result = { exitCode, stdout: stdout.text(), stderr: stderr.text(), timedOut: false, durationMs: performance.now() - started };
      return stdout.truncated || stderr.truncated ? { ...result, truncated: true } : result;
    }),
    prepare: () => queue(() => putBack.prepare()),
  };
}

function memory32(exports: WebAssembly.Exports): DataView {
  return new DataView((exports.memory as WebAssembly.Memory).buffer);
}

/**
 * Where perl keeps the time it started ($^T: PL_basetime, a 64-bit time_t among the C library's
 * statics in this build): the one place above the C stack (whose frames hold copies) that holds a
 * time between `from` and `to`, the seconds around perl's start. Each run writes its own start
 * there, and the load check reads it back through $^T.
 */
function findTime(exports: WebAssembly.Exports, stackTop: number, from: number, to: number): number {
  const view = memory32(exports);
  const found: number[] = [];
  for (let at = stackTop + ((8 - (stackTop % 8)) % 8); at + 8 <= view.byteLength; at += 8) {
    const value = Number(view.getBigInt64(at, true));
    if (value >= from && value <= to) found.push(at);
  }
  if (found.length !== 1) throw new Error(`perl's start time ($^T) not found (${found.length} places hold it)`);
  return found[0]!;
}

/** /dev/null: reads nothing, forgets what is written (perl -e opens it). */
class DevNull extends File {
  constructor() {
    super(new Uint8Array(0));
  }
  override path_open(): { ret: number; fd_obj: OpenFile } {
    return { ret: 0, fd_obj: new NullFile(this) };
  }
}

class NullFile extends OpenFile {
  override fd_write(data: Uint8Array): { ret: number; nwritten: number } {
    return { ret: 0, nwritten: data.byteLength };
  }
  override fd_pwrite(data: Uint8Array): { ret: number; nwritten: number } {
    return { ret: 0, nwritten: data.byteLength };
  }
}

/** argv as a C array of C strings in the instance's memory. */
function writeArgv(exports: ZeroperlExports, args: readonly string[], encoder: TextEncoder): number {
  const pointers = args.map((arg) => {
    const bytes = encoder.encode(`${arg}\0`);
    const at = exports.malloc(bytes.length);
    new Uint8Array(exports.memory.buffer).set(bytes, at);
    return at;
  });
  const argv = exports.malloc(4 * (args.length + 1));
  const view = new DataView(exports.memory.buffer);
  pointers.forEach((at, i) => view.setUint32(argv + 4 * i, at, true));
  view.setUint32(argv + 4 * args.length, 0, true);
  return argv;
}

/**
 * The exit status `perl test.pl` would give. zeroperl returns perl_run's status when the
 * program ran, but only 1 when compilation failed: then the status noted by Benchtop::Phase's
 * CHECK block is the real one. That status is perl's errno-or-255 rule (a die exits with $! when
 * it is set), and errno at that point is WASI's: EBADF/ENOTSUP left over from zeroperl's own
 * file calls (ENOTTY from a file the program opened) (on Linux errno is 0 there, so perl exits 255), or ENOENT after a missing module
 * (44 in WASI, 2 on Linux).
 */
export function exitStatus(status: number, phase: string | null): number {
  if (phase === 'running' || status === 0) return status & 0xff;
  const compiled = phase?.match(/^compiled (-?\d+)$/);
  if (!compiled) return 255;
  const code = Number(compiled[1]) & 0xff;
  return COMPILE_ERRNO_ON_LINUX[code] ?? code;
}

/** WASI errno → what Linux perl's exit status would be, for compile-time failures. */
const COMPILE_ERRNO_ON_LINUX: Readonly<Record<number, number>> = { 8: 255, 58: 255, 59: 255, 70: 255, 44: 2 };

/**
 * Benchtop::Phase's marker file, which keeps every write made to it in order (a write is one
 * syswrite of the module; what a program writes is kept too, never instead). Its phase: "running"
 * once the program has started, whatever was written after (an END block of a program that died
 * could otherwise write "compiled 0" and pass); before that, the last thing written, which after
 * a failed compilation is the module's CHECK block (the last CHECK block to run).
 */
export class PhaseMarker extends File {
  private readonly writes: string[] = [];
  constructor() {
    super(new Uint8Array(0));
  }
  override path_open(oflags: number, rights: bigint, fdFlags: number): { ret: number; fd_obj: OpenFile } {
    const opened = super.path_open(oflags, rights, fdFlags);
    if (!opened.fd_obj) return opened;
    const file = new MarkerFile(this, this.writes);
    file.file_pos = opened.fd_obj.file_pos; // (at the end when opened to append)
    return { ...opened, fd_obj: file };
  }
  phase(): string | null {
    return this.writes.includes('running') ? 'running' : (this.writes.at(-1) ?? null);
  }
}

class MarkerFile extends OpenFile {
  constructor(file: File, private readonly writes: string[]) {
    super(file);
  }
  override fd_write(data: Uint8Array): { ret: number; nwritten: number } {
    this.writes.push(new TextDecoder().decode(data));
    return super.fd_write(data);
  }
  override fd_pwrite(data: Uint8Array, offset: bigint): { ret: number; nwritten: number } {
    this.writes.push(new TextDecoder().decode(data));
    return super.fd_pwrite(data, offset);
  }
}

/** A directory's entries that a program cannot remove or replace (the shim's unlink, rename and link all go through these). */
class PinnedEntries extends Map<string, Inode> {
  private readonly pinned: ReadonlySet<string>;
  constructor(entries: Array<[string, Inode]>) {
    super(entries);
    this.pinned = new Set(entries.map(([name]) => name));
  }
  override set(name: string, inode: Inode): this {
    // (Map's constructor calls set before `pinned` exists.)
    return this.pinned?.has(name) && this.get(name) !== inode ? this : super.set(name, inode);
  }
  override delete(name: string): boolean {
    return this.pinned.has(name) ? false : super.delete(name);
  }
  override clear(): void {
    for (const name of this.keys()) this.delete(name);
  }
}
