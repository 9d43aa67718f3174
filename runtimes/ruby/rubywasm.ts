/**
 * Ruby runtime: ruby.wasm (CRuby 3.4 compiled to WASI, its standard library and default/bundled
 * gems packed inside the .wasm), run on @bjorn3/browser_wasi_shim, a WASI written in JavaScript
 * that works the same in a browser worker and in a Node worker thread.
 *
 * Start-up (once per worker): compile the module, start one VM (`ruby-init`, RubyGems included, as
 * `ruby` has them), load harness.rb, and keep a snapshot of the instance: its linear memory and
 * every mutable global (runtimes/host/wasm-snapshot.ts; asyncify's state included).
 *
 * Each run: the snapshot put back into the same instance (exactly the state of a new instance after
 * start-up, without paying for Ruby's boot or for instantiating the 29 MB module again, which was
 * about 60% of a short program's run), a new WASI with a fresh file system holding /workdir/test.rb
 * (the instance's WASI imports call through to the run's), and `BenchtopHarness.run`, which loads
 * test.rb the way `ruby test.rb` runs it and returns the exit status. A program that grew the
 * memory gets a new instance instead (a put-back memory cannot shrink), so nothing of one run can
 * reach the next.
 *
 * harness.rb also gives the program what the official Ruby 3.0 showed where 3.4 differs (Hash
 * inspect, Struct keyword init, Set without require, removed methods), at_exit handlers and
 * finalizers run as the program ends, a thread-less Timeout and minitest; threads.rb runs programs that use Thread on green threads.
 *
 * This build's JavaScript bridge (`require "js"`) gets imports that refuse: a program cannot reach
 * the worker's globals. A runaway program cannot be interrupted: the host kills the worker.
 */
import {
  ConsoleStdout,
  Directory,
  File,
  OpenFile,
  PreopenDirectory,
  WASI,
  WASIProcExit,
  wasi as wasiDefs,
  type Inode,
} from '@bjorn3/browser_wasi_shim';
import { rubyDecline } from './decline';
import harness from './harness.rb?raw';
import ruby30 from './ruby30.rb?raw';
import threads from './threads.rb?raw';
import { packageVersion } from '../package-versions';
import { AheadStep } from '../host/ahead';
import { declinedRun, OutputCapture } from '../host/output';
import { compiledModule } from '../host/shared-module';
import { forwardedWasiImports } from '../host/wasi-forward';
import { exposeMutableGlobals, InstanceSnapshot } from '../host/wasm-snapshot';
import type { RuntimeShared, SharingRuntime, StepDone } from '../loader';

/** The one file the runtime needs: `@ruby/3.4-wasm-wasi/dist/ruby+stdlib.wasm`. */
export const RUBY_WASM_FILE = 'ruby+stdlib.wasm';

export interface RubyRuntimeOptions {
  /** ruby+stdlib.wasm; may be left out when `shared` has its compiled module. */
  files: Record<string, ArrayBuffer>;
  /** What an earlier worker of the page compiled (its `shareable()`). */
  shared?: RuntimeShared;
  /** Told as each step of the load ends (loader.ts). */
  step?: StepDone;
}

/** ruby's own command line at start-up: UTF-8 as the default external encoding, an empty script. */
const INIT_ARGS = ['ruby', '-EUTF-8', '-e_=0'];
/**
 * Read by the VM as it boots: a Fiber gets the VM stack of a thread (1 MB, not 128 KB), so that a
 * program run on green threads (threads.rb) recurses as deep as in the main thread. harness.rb
 * takes the variable out of ENV again.
 */
const BOOT_ENV = ['RUBY_FIBER_VM_STACK_SIZE=1048576'];

const RUBY_INIT = 'ruby-init: func(args: list<string>) -> ()';
const RB_EVAL = 'rb-eval-string-protect: func(str: string) -> tuple<handle<rb-abi-value>, s32>';

interface RubyExports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  cabi_realloc(ptr: number, oldSize: number, align: number, size: number): number;
  [RUBY_INIT]: (list: number, length: number) => void;
  [RB_EVAL]: (ptr: number, length: number) => number;
}

/** Where the program's output goes during a run. */
interface Streams {
  stdout: (bytes: Uint8Array) => void;
  stderr: (bytes: Uint8Array) => void;
}

/**
 * stdout and stderr as a pipe, not a terminal (as under the official sandbox): CRuby then buffers
 * them and prints its error reports without colours. wasi-libc's isatty() wants a character device.
 */
class PipeOut extends ConsoleStdout {
  override fd_filestat_get() {
    const { ret, filestat } = super.fd_filestat_get();
    filestat.filetype = wasiDefs.FILETYPE_UNKNOWN;
    return { ret, filestat };
  }
  override fd_fdstat_get() {
    const { ret, fdstat } = super.fd_fdstat_get();
    if (fdstat) fdstat.fs_filetype = wasiDefs.FILETYPE_UNKNOWN;
    return { ret, fdstat };
  }
}

/**
 * The root directory, with every right: wasi-libc's access() (File.writable?, which Dir.tmpdir and
 * so Tempfile check) answers from the rights of the preopened directory, which the shim leaves empty.
 */
class Root extends PreopenDirectory {
  override fd_fdstat_get() {
    const { ret, fdstat } = super.fd_fdstat_get();
    if (fdstat) {
      fdstat.fs_rights_base = ALL_RIGHTS;
      fdstat.fs_rights_inherited = ALL_RIGHTS;
    }
    return { ret, fdstat };
  }
}
const ALL_RIGHTS = (1n << 29n) - 1n;

/** Raised by the refusing JavaScript bridge; ends the run (the instance is dropped anyway). */
class BridgeRefused extends Error {}

export async function createRubyRuntime(options: RubyRuntimeOptions): Promise<SharingRuntime> {
  const module = await compiledModule(options.files, options.shared, RUBY_WASM_FILE, exposeMutableGlobals);
  options.step?.('compile');
  if ([...WebAssembly.Module.exports(module), ...WebAssembly.Module.imports(module)].some((e) => e.kind === 'table')) {
    throw new Error('ruby+stdlib.wasm shares its table: the snapshot would not cover it');
  }
  const encoder = new TextEncoder();

  const bridge: Record<string, () => never> = {};
  for (const entry of WebAssembly.Module.imports(module)) {
    if (entry.module === 'rb-js-abi-host') {
      bridge[entry.name] = () => {
        throw new BridgeRefused('the JavaScript bridge of ruby.wasm is disabled here');
      };
    }
  }

  // The WASI of the run in progress: the instance's imports call through to it, so that one
  // instance serves every run while each run gets a new WASI (descriptors, files, environment).
  let current: WASI | null = null;
  const wasiImport = forwardedWasiImports(module, () => current);
  const instantiate = async () =>
    (await WebAssembly.instantiate(module, {
      wasi_snapshot_preview1: wasiImport,
      'rb-js-abi-host': bridge,
      // Handles of Ruby values are the raw VALUEs: we only ever read one Integer back.
      canonical_abi: {
        'resource_drop_js-abi-value': () => {},
        'resource_new_rb-abi-value': (value: number) => value,
        'resource_get_rb-abi-value': (value: number) => value,
      },
    })).exports as unknown as RubyExports;

  /** A new WASI for `exports`, made the current one: empty stdin, stdout/stderr to `streams`, `/` with `tree`. */
  function useWasi(exports: RubyExports, streams: Streams, tree: Map<string, Inode>, env: string[] = []): WASI {
    const fds = [
      new OpenFile(new File([])),
      new PipeOut(streams.stdout),
      new PipeOut(streams.stderr),
      new Root('/', tree),
    ];
    const wasi = new WASI([INIT_ARGS[0]!], env, fds, { debug: false });
    (wasi as unknown as { inst: { exports: RubyExports } }).inst = { exports };
    current = wasi;
    return wasi;
  }

  function putString(exports: RubyExports, text: string, nul = false): [number, number] {
    const data = encoder.encode(nul ? text + '\0' : text);
    const ptr = exports.cabi_realloc(0, 0, 1, Math.max(data.length, 1));
    new Uint8Array(exports.memory.buffer, ptr, data.length).set(data);
    return [ptr, nul ? data.length - 1 : data.length];
  }

  /** Evaluates Ruby code at the top level; returns [VALUE, state] (state 0: no exception). */
  function evaluate(exports: RubyExports, code: string): [number, number] {
    const [ptr, length] = putString(exports, code);
    const result = exports[RB_EVAL](ptr, length);
    const view = new DataView(exports.memory.buffer);
    return [view.getInt32(result, true), view.getInt32(result + 4, true)];
  }

  /**
   * The rest of ruby's ending (harness.rb `finish`: the error's report, the pending finalizers),
   * once the status is known. Nothing here changes the status: that code calls methods a program
   * may have redefined, and until 2026-12-02 one that called `exit!(0)` from there (say
   * `Exception#full_message`, which the report uses and ruby's own does not) passed a failure.
   * (An `exit!` in a finalizer therefore no longer sets the status, as it would under ruby.)
   */
  function finish(exports: RubyExports, stderr: OutputCapture): void {
    try {
      evaluate(exports, 'BenchtopHarness.finish');
    } catch (error) {
      if (!(error instanceof WASIProcExit)) stderr.write(`\nbenchtop: the Ruby VM stopped after the program: ${String(error)}\n`);
    }
  }

  // Start-up: one VM, booted and prepared, whose memory every run starts from.
  const bootErrors: string[] = [];
  const bootDecoder = new TextDecoder();
  let exports = await instantiate();
  options.step?.('instantiate');
  const bootWasi = useWasi(
    exports,
    { stdout: () => {}, stderr: (b) => bootErrors.push(bootDecoder.decode(b, { stream: true })) },
    new Map<string, Inode>([['benchtop', new Directory(new Map([
      ['harness.rb', new File(encoder.encode(harness))],
      ['threads.rb', new File(encoder.encode(threads))],
      ['ruby30.rb', new File(encoder.encode(ruby30))],
    ]))]]),
    BOOT_ENV,
  );
  exports._initialize();
  const list = exports.cabi_realloc(0, 0, 4, INIT_ARGS.length * 8);
  INIT_ARGS.forEach((arg, i) => {
    const [ptr, length] = putString(exports, arg, true);
    const view = new DataView(exports.memory.buffer);
    view.setInt32(list + i * 8, ptr, true);
    view.setInt32(list + i * 8 + 4, length, true);
  });
  exports[RUBY_INIT](list, INIT_ARGS.length);
  const [, loadState] = evaluate(exports, 'load "/benchtop/harness.rb"; GC.start');
  const [versionValue, versionState] = evaluate(exports, 'RUBY_VERSION');
  current = null;
  // A file left open on our side at the snapshot would be missing from every run's file table.
  if (loadState !== 0 || versionState !== 0 || bootWasi.fds.slice(4).some((fd) => fd !== undefined)) {
    throw new Error(`ruby.wasm did not start: ${bootErrors.join('') || `state ${loadState}/${versionState}`}`);
  }
  const rubyVersion = readRubyString(exports, versionValue);
  options.step?.('start');
  const snapshot = new InstanceSnapshot(exports as unknown as WebAssembly.Exports);
  options.step?.('snapshot');
  // The instance as it was after start-up; a new one if the last program grew its memory.
  const putBack = new AheadStep(async () => {
    exports = await snapshot.restoreOrRenew(exports, instantiate);
  });

  return {
    description: `ruby.wasm ${packageVersion('@ruby/3.4-wasm-wasi')} (CRuby ${rubyVersion})`,
    shareable: () => ({ modules: { [RUBY_WASM_FILE]: module } }),
    async run(program) {
      const declined = rubyDecline(program);
      if (declined) return declinedRun(declined);
      const started = performance.now();
      const stdout = new OutputCapture();
      const stderr = new OutputCapture();
      const decoders = { out: new TextDecoder(), err: new TextDecoder() };
      const workdir = new Directory(new Map([['test.rb', new File(encoder.encode(program))]]));
      const tree = new Map<string, Inode>([['workdir', workdir], ['tmp', new Directory(new Map())]]);
      await putBack.ensure();
      useWasi(exports, { stdout: (b) => stdout.writeBytes(b, decoders.out), stderr: (b) => stderr.writeBytes(b, decoders.err) }, tree);

      let exitCode: number;
      try {
        const [value, state] = evaluate(exports, 'BenchtopHarness.run');
        // An Integer comes back as a tagged VALUE (2n + 1); anything else means the harness failed.
        if (state === 0 && (value & 1) === 1) {
          exitCode = value >> 1;
          finish(exports, stderr);
        } else {
          stderr.write(`benchtop: the Ruby harness failed (state ${state})\n`);
          exitCode = 1;
        }
      } catch (error) {
        if (error instanceof WASIProcExit) exitCode = error.code; // exit!
        else {
          // A trap (the VM's own abort, the JavaScript engine's stack limit) or the refused bridge.
          const reason = error instanceof BridgeRefused ? error.message : `the Ruby VM stopped: ${String(error)}${crashHint(error)}`;
          stderr.write(`${stderr.text() && !stderr.text().endsWith('\n') ? '\n' : ''}benchtop: ${reason}\n`);
          exitCode = 1;
        }
      }
      current = null;
      stdout.write(decoders.out.decode());
      stderr.write(decoders.err.decode());
      const result = {
        exitCode: exitCode & 0xff,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut: false,
        durationMs: performance.now() - started,
      };
      return stdout.truncated || stderr.truncated ? { ...result, truncated: true } : result;
    },
    prepare: () => putBack.prepare(),
  };
}

/**
 * Why ruby.wasm traps where CRuby would not: recursion that re-enters the VM from C (blocks given
 * to each/map/times, Hash default procs) is limited by the 24 KB buffer ruby.wasm unwinds the stack
 * into (for setjmp and garbage collection), and by the JavaScript engine's own stack.
 */
function crashHint(error: unknown): string {
  const text = String(error);
  if (text.includes('unreachable') || text.includes('Maximum call stack size exceeded')) {
    return ' (ruby.wasm stops like this when recursion through blocks or C methods goes a few hundred levels deep; CRuby allows about ten thousand)';
  }
  return '';
}

/** The bytes of a Ruby String VALUE, read through the VM (`rstring-ptr`) — start-up only. */
function readRubyString(exports: RubyExports, value: number): string {
  const rstring = (exports as unknown as Record<string, (value: number) => number>)['rstring-ptr: func(value: handle<rb-abi-value>) -> string'];
  if (!rstring) return 'unknown';
  const result = rstring(value);
  const view = new DataView(exports.memory.buffer);
  const ptr = view.getInt32(result, true);
  const length = view.getInt32(result + 4, true);
  return new TextDecoder().decode(new Uint8Array(exports.memory.buffer, ptr, length));
}
