/**
 * Perl runtime: zeroperl (Perl 5 compiled to WASI with its core library embedded in the .wasm),
 * run as `perl test.pl` would: every program starts from the state of a new WebAssembly instance
 * whose C start-up has run (one instance per worker, its memory and mutable globals put back from
 * a snapshot before each program: runtimes/host/wasm-snapshot.ts; instantiating copied zeroperl's
 * 20 MB of data segments each time), and its Perl parses and runs test.pl from an in-memory file
 * system, END blocks and exit codes included.
 *
 * We use only zeroperl's .wasm, not its JavaScript wrapper: the wrapper loads the .wasm itself
 * (fetch in a window, `node:fs` elsewhere, so not in a sandboxed worker), recompiles it for every
 * interpreter, and its file system answers reads asynchronously, which breaks zeroperl's own
 * start-up path when the program is a file. Here the compiled module is kept, and each run gets a
 * new @bjorn3/browser_wasi_shim (synchronous, in memory), and the interpreter is
 * started with argv `perl -MBenchtop::Phase test.pl` (`zeroperl_init_with_args` = perl_parse +
 * perl_run, the way perlmain does).
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
import { OutputCapture } from '../host/output';
import { exposeMutableGlobals, InstanceSnapshot } from '../host/wasm-snapshot';
import type { LanguageRuntime } from '../../src/contracts';

/** The files the host hands in (name → bytes): zeroperl's WebAssembly binary. */
export const PERL_FILES = ['zeroperl.wasm'] as const;

export interface PerlRuntimeOptions {
  files: Record<string, ArrayBuffer>;
}

const LIB_DIR = '/usr/share/benchtop/perl5';
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

interface ZeroperlExports {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  zeroperl_init_with_args(argc: number, argv: number): number;
  zeroperl_free_interpreter(): void;
}

export async function createPerlRuntime(options: PerlRuntimeOptions): Promise<LanguageRuntime> {
  const wasm = options.files['zeroperl.wasm'];
  if (!wasm) throw new Error('missing zeroperl.wasm');
  const encoder = new TextEncoder();
  const library = Object.entries(LIBRARY).map(([path, source]) => [path, encoder.encode(source)] as const);

  const module = await WebAssembly.compile(exposeMutableGlobals(wasm));
  // A table the program could change would be state outside the snapshot: none is shared.
  if ([...WebAssembly.Module.imports(module), ...WebAssembly.Module.exports(module)].some((e) => e.kind === 'table')) {
    throw new Error('zeroperl.wasm shares its table: the snapshot would not cover it');
  }

  // The WASI of the run in progress: the instance's imports call through to it, so that one
  // instance serves every run while each run gets a new WASI (descriptors, files, environment).
  let current: WASI | null = null;
  const wasiImport: Record<string, (...args: never[]) => unknown> = {};
  for (const entry of WebAssembly.Module.imports(module)) {
    if (entry.module !== 'wasi_snapshot_preview1') continue;
    wasiImport[entry.name] = (...args: never[]) => {
      if (!current) throw new Error('a WASI call outside a run');
      return (current.wasiImport[entry.name] as (...a: never[]) => unknown)(...args);
    };
  }
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
    return { wasi: new WASI(['perl'], [`PERL5LIB=${LIB_DIR}`], fds, { debug: false }), marker };
  }

  // Start-up, once: the C library's constructors (`_initialize`), then the snapshot every run
  // starts from (security.md, "Every program starts from a clean slate").
  let exports = await instantiate();
  current = newWasi('', new OutputCapture(), new OutputCapture(), { out: new TextDecoder(), err: new TextDecoder() }).wasi;
  current.initialize({ exports } as never);
  current = null;
  const snapshot = new InstanceSnapshot(exports);

  async function execute(args: string[], program: string): Promise<{ exitCode: number; stdout: OutputCapture; stderr: OutputCapture }> {
    const stdout = new OutputCapture();
    const stderr = new OutputCapture();
    const decoders = { out: new TextDecoder(), err: new TextDecoder() };
    // The instance as it was after start-up; a new one if the last program grew its memory.
    if (!snapshot.restore(exports)) {
      exports = await instantiate();
      if (!snapshot.restore(exports)) throw new Error('a new zeroperl instance is larger than its snapshot');
    }
    const { wasi, marker } = newWasi(program, stdout, stderr, decoders);
    (wasi as unknown as { inst: { exports: WebAssembly.Exports } }).inst = { exports };
    const perl = exports as unknown as ZeroperlExports;

    let status: number;
    // The phase as it was when the interpreter returned: END blocks after a failed compilation
    // (run by perl_destruct) and DESTROY methods come later, and may write the marker too.
    let phase: string | null = null;
    current = wasi;
    try {
      status = perl.zeroperl_init_with_args(args.length, writeArgv(perl, args, encoder));
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
    }
    stdout.write(decoders.out.decode());
    stderr.write(decoders.err.decode());
    return { exitCode: exitStatus(status, phase), stdout, stderr };
  }

  // Load check and warm-up (the first run compiles much of the interpreter): the Perl version.
  const probe = await execute(['perl', '-e', 'printf "%vd", $^V'], '');
  if (probe.exitCode !== 0) throw new Error(`zeroperl did not start: ${probe.stderr.text()}`);
  const perlVersion = probe.stdout.text();

  // One program at a time (each instance starts with 32 MB of memory): the worker host sends
  // runs one by one anyway; direct callers may not.
  const queue = createQueue();
  return {
    description: `zeroperl ${packageVersion('@6over3/zeroperl-ts')} (Perl ${perlVersion})`,
    run: (program) => queue(async () => {
      const started = performance.now();
      const { exitCode, stdout, stderr } = await execute(['perl', '-MBenchtop::Phase', 'test.pl'], program);
      const result = { exitCode, stdout: stdout.text(), stderr: stderr.text(), timedOut: false, durationMs: performance.now() - started };
      return stdout.truncated || stderr.truncated ? { ...result, truncated: true } : result;
    }),
  };
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
