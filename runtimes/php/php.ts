/**
 * PHP runtime: PHP 8.1 compiled to WebAssembly by php-wasm (WordPress Playground), the build of
 * `@php-wasm/web-8-1` (its asyncify variant: JSPI is missing from Node 20 and older browsers).
 * The same code runs in the page's sandboxed worker and in Node's worker threads: both hand in the
 * Emscripten loader (php.js) and the binary (php.wasm) as bytes, so nothing is fetched.
 *
 * Every run starts from a new process's state and runs PHP's own CLI SAPI (`php test.php`), which
 * exits when the script ends. Instantiating php-wasm (67,781 data segments) was most of a run, and
 * PHP's module start-up (extensions, php.ini) half of what was left, so a worker starts PHP once,
 * as `php -c php.ini test.php`, and pauses it where a program begins: after module and request
 * start-up, test.php open but not yet read (`PAUSE_PROGRAM`, below). Asyncify unwinds PHP's stack
 * into a buffer there, and the instance is snapshotted (memory and every mutable global, asyncify's
 * included: runtimes/host/wasm-snapshot.ts). Each run puts the snapshot back, makes Emscripten's
 * JavaScript new (its file system, ABORT, exit status, asyncify and stdio state, timers: the
 * loader's `init` called again, handed the instance without its constructors, which ran before the
 * pause), opens the files PHP had open again at the same descriptors, with the run's program in
 * test.php, and rewinds the stack; PHP goes on to read and run the program and exits. The
 * instance's imports forward to the run's own Emscripten; after the run that Emscripten is ended
 * (its ABORT set), so a timer it left cannot reach the next run, and the forwarding refuses calls
 * between runs. The instance is replaced (and paused again) when its memory grew past 64 MB, its
 * function table changed, or the run ended in a WebAssembly error. @php-wasm/universal's PHP class
 * is not used: its php.ini (errors displayed on stdout, an auto_prepend_file) and request
 * machinery are what we would have to undo; the loader's `init` with a few Emscripten options is
 * all we need.
 *
 * What the program sees is Ubuntu 22.04's php8.1-cli as the official sandbox configures it
 * (php.ini beside this file): errors logged to stderr as "PHP Fatal error:  …", exit code 255
 * after a fatal error, `exit(n)` → n, stack traces without arguments. Functions of extensions that
 * php-wasm has and the sandbox lacks (mbstring, bcmath, gd, curl, …) are disabled, so calling them
 * fails as it does there ("Call to undefined function mb_strlen()").
 */
import { RunNotStarted } from '../../src/contracts';
import { packageVersion } from '../package-versions';
import { AheadStep } from '../host/ahead';
import { OutputCapture } from '../host/output';
import { moduleUrl } from '../host/module-url';
import { exposeMutableGlobals, InstanceSnapshot, withInitialMemory } from '../host/wasm-snapshot';
import { AsyncifyPause } from '../host/asyncify-pause';
import { createQueue } from '../queue';
import { compiledModule } from '../host/shared-module';
import type { RuntimeShared, SharingRuntime, StepDone } from '../loader';
import phpIni from './php.ini?raw';
import { createMachine, type ImportObject, type Machine } from './machine';

/**
 * Extensions compiled into php-wasm that Ubuntu's php8.1-cli (+ php-xml, php-intl, as installed
 * by the sandbox) does not load: their functions are disabled. (The classes they define, e.g.
 * SQLite3 or ZipArchive, cannot be removed by php.ini and stay.)
 */
export const EXTENSIONS_NOT_IN_SANDBOX = [
  'mbstring', 'bcmath', 'gd', 'curl', 'sqlite3', 'pdo_sqlite', 'zip', 'soap', 'dns_polyfill', 'post_message_to_js', 'wasm_memory_storage',
] as const;

/**
 * php-wasm cannot start processes: its popen() waits forever for a process that never comes. The
 * sandbox would run the command; here these functions are undefined, so a program using them ends
 * at once (a fatal "Call to undefined function") instead of hanging until the time limit.
 */
export const PROCESS_FUNCTIONS = ['exec', 'shell_exec', 'system', 'passthru', 'proc_open', 'popen', 'mail'] as const;

/** Where the program lives, like the sandbox's `test.php` in its working directory. */
const WORK_DIR = '/sandbox';
const SCRIPT = 'test.php';
const INI_PATH = '/etc/php/8.1/cli/php.ini';

/**
 * The program PHP pauses in, as test.php's first content and php.ini's auto_prepend_file (run after
 * request start-up, when test.php is open but not yet read): asyncify unwinds PHP's stack inside
 * its sleep, and each run rewinds to it with its own program in test.php. Being test.php itself,
 * it adds no entry to get_included_files(). What follows the sleep runs in each run, so that the
 * request time is the run's own, as it is in a new process.
 */
const PAUSE_PROGRAM = "<?php\nusleep(0);\n$_SERVER['REQUEST_TIME_FLOAT'] = microtime(true);\n$_SERVER['REQUEST_TIME'] = (int) $_SERVER['REQUEST_TIME_FLOAT'];\n";
const PAUSE_INI = `\nauto_prepend_file = ${WORK_DIR}/${SCRIPT}\n`;

/**
 * php-wasm's memory starts at 64 MB, of which the data ends below 13 MB: started at 20 MB (and
 * grown on demand), a snapshot copies 20 MB, not 64. Memory a program grew is zeroed before the
 * next, up to the original 64 MB; past that the instance is replaced.
 */
const INITIAL_MEMORY = 20 << 20;
const REUSED_MEMORY_LIMIT = 64 << 20;

export interface PhpRuntimeOptions {
  /** php.js (the Emscripten loader of @php-wasm/web-8-1) and php.wasm, as bytes (php.wasm may be left out when `shared` has it compiled). */
  files: Record<string, ArrayBuffer>;
  /** What an earlier worker of the page compiled (its `shareable()`). */
  shared?: RuntimeShared;
  /** Told as each step of the load ends (loader.ts). */
  step?: StepDone;
}

/** The ES module php.js exports (an Emscripten build wrapped by php-wasm). */
interface PhpLoaderModule {
  init(runtime: 'WEB' | 'WORKER' | 'NODE', module: Record<string, unknown>): EmscriptenPhp;
}

interface EmscriptenStream {
  fd: number;
  path: string;
  flags: number;
  position: number;
}

interface EmscriptenPhp {
  FS: {
    mkdirTree(path: string): void;
    writeFile(path: string, data: string | Uint8Array): void;
    chdir(path: string): void;
    streams: (EmscriptenStream | null)[];
    open(path: string, flags: number): EmscriptenStream;
    dupStream(stream: EmscriptenStream, fd: number): EmscriptenStream;
    close(stream: EmscriptenStream): void;
    getStream(fd: number): EmscriptenStream | undefined;
  };
  ccall(name: string, returnType: string | null, argTypes: string[], args: unknown[], opts?: { async?: boolean }): unknown;
  onStdout?: (chunk: Uint8Array) => void;
  onStderr?: (chunk: Uint8Array) => void;
}

/** A worker's PHP paused where a program begins (see `pause`), and what each run resumes it with. */
interface Paused {
  /** The php.ini it started with (disable_functions is known only after a first run). */
  ini: string;
  machine: Machine;
  snapshot: InstanceSnapshot;
  /** How far a run may grow the memory for the instance to be put back (past that, a new one). */
  growthLimit: number;
  /** Where PHP's stack was unwound, and how to rewind it. */
  point: AsyncifyPause;
  /** The files PHP had open at the pause (test.php among them, not yet read). */
  files: EmscriptenStream[];
  /** The instance's exports for an Emscripten that takes it over paused: its constructors ran at the pause. */
  resumeExports: WebAssembly.Exports;
}

interface Streams {
  stdout: (chunk: Uint8Array) => void;
  stderr: (chunk: Uint8Array) => void;
}

export async function createPhpRuntime(options: PhpRuntimeOptions): Promise<SharingRuntime> {
  const { files } = options;
  if (!files['php.js']) throw new Error('missing php.js');
  const [loader, wasm] = await Promise.all([
    importLoader(files['php.js']),
    compiledModule(files, options.shared, 'php.wasm', (bytes) => withInitialMemory(exposeMutableGlobals(bytes), INITIAL_MEMORY / 65536)),
  ]);
  options.step?.('compile');
  const queue = createQueue();

  /** A new Emscripten (file system, ABORT, asyncify, …) around the worker's instance. */
  const startEmscripten = (target: Machine, exports: WebAssembly.Exports, streams: Streams): Promise<{ php: EmscriptenPhp; imports: ImportObject }> =>
    new Promise((resolve, reject) => {
      const text = new TextEncoder();
      let imports: ImportObject | null = null;
      const php: EmscriptenPhp = loader.init('WEB', {
        ENV: {},
        noInitialRun: true,
        locateFile: (path: string) => path,
        instantiateWasm(info: ImportObject, receive: (instance: { exports: WebAssembly.Exports }, module: WebAssembly.Module) => void) {
          imports = target.imports = info;
          target.presetGot(info);
          // Later, as instantiation would be: `init` must return before the runtime starts.
          queueMicrotask(() => {
            try {
              receive({ exports }, wasm);
            } catch (e) {
              reject(e);
            }
          });
          return {};
        },
        onRuntimeInitialized: () => resolve({ php, imports: imports! }),
        onAbort: (reason: unknown) => reject(reason instanceof Error ? reason : new Error(`PHP aborted: ${String(reason)}`)),
        // What Emscripten itself prints (not PHP's streams, which come through onStdout/onStderr).
        print: (line: string) => streams.stdout(text.encode(line + '\n')),
        printErr: (line: string) => streams.stderr(text.encode(line + '\n')),
        stdin: () => null,
        onHeaders: () => {},
        onMessage: async () => '',
      });
      php.onStdout = streams.stdout;
      php.onStderr = streams.stderr;
    });

  /** The files of a run: php.ini and the program. */
  const writeFiles = (php: EmscriptenPhp, ini: string, program: string) => {
    php.FS.mkdirTree(INI_PATH.slice(0, INI_PATH.lastIndexOf('/')));
    php.FS.writeFile(INI_PATH, ini + PAUSE_INI);
    php.FS.mkdirTree(WORK_DIR);
    php.FS.writeFile(`${WORK_DIR}/${SCRIPT}`, program);
    php.FS.chdir(WORK_DIR);
  };

  /** Runs `run_cli` to its end in `php`; resolves to the exit code. */
  const finish = async (php: EmscriptenPhp): Promise<number> => {
    try {
      const code = await php.ccall('run_cli', 'number', [], [], { async: true });
      return typeof code === 'number' ? code : 0;
    } catch (e) {
      const status = exitStatus(e);
      if (status === null) throw e;
      return status;
    }
  };

  /**
   * A new instance started as `php -c php.ini test.php` up to the pause: module start-up, php.ini
   * read, test.php opened, request start-up, and the prepend file's sleep, where asyncify unwinds
   * PHP's stack into a buffer of its own. The snapshot is taken there. `machine` must be as
   * instantiated.
   */
  const pause = async (ini: string, machine: Machine): Promise<Paused> => {
    const exports = machine.instance.exports;
    const quiet: Streams = { stdout: () => {}, stderr: () => {} };
    const { php, imports } = await startEmscripten(machine, exports, quiet);
    try {
      machine.afterSetUp(imports);
      writeFiles(php, ini, PAUSE_PROGRAM);
      for (const arg of ['php', '-c', INI_PATH, SCRIPT]) php.ccall('wasm_add_cli_arg', null, ['string'], [arg]);
      const point = new AsyncifyPause(exports, undefined, machine.asyncifyState);
      machine.onSleep = () => {
        machine.onSleep = null;
        point.unwind(exports);
      };
      const code = await finish(php);
      if (!point.stopped(exports)) throw new Error(`PHP ended (exit code ${code}) before its pause`);
      const files = php.FS.streams.filter((s): s is EmscriptenStream => !!s)
        .map((s) => ({ fd: s.fd, path: s.path, flags: s.flags, position: s.position }));
      const growthLimit = Math.max(0, REUSED_MEMORY_LIMIT - (exports.memory as WebAssembly.Memory).buffer.byteLength);
      return { ini, machine, snapshot: new InstanceSnapshot(exports), growthLimit, point, files, resumeExports: { ...exports, __wasm_call_ctors: () => {} } };
    } finally {
      machine.onSleep = null;
      endEmscripten(imports);
      machine.imports = null;
    }
  };

  /** The worker's paused PHP; replaced when it cannot be put back (see the header). */
  let paused: Paused | null = null;

  /** The pause put back for `ini`; a new instance paused again where it cannot be. */
  const putBackPause = async (ini: string): Promise<Paused> => {
    if (!paused || paused.ini !== ini || !paused.snapshot.restore(paused.machine.instance.exports, paused.growthLimit)) {
      paused?.machine.retire();
      paused = null;
      paused = await pause(ini, await createMachine(wasm));
      paused.snapshot.restore(paused.machine.instance.exports);
    }
    return paused;
  };

  /**
   * Runs the program from the pause, as `php -c php.ini test.php` would; resolves to the exit code.
   * `putBack`: how the pause is put back first (`run` may have done it ahead: AheadStep).
   */
  const runCli = async (program: string, ini: string, streams: Streams, putBack: () => Promise<unknown> = () => putBackPause(ini)): Promise<number> => {
    await putBack();
    const current = paused;
    if (!current || current.ini !== ini) throw new Error('PHP is not paused for this run');
    const { machine } = current;
    const exports = machine.instance.exports;
    let ended = false;
    try {
      const { php, imports } = await startEmscripten(machine, current.resumeExports, streams);
      try {
        writeFiles(php, ini, program);
        reopenFiles(php.FS, current.files);
        let resumed = false;
        machine.onSleep = () => {
          machine.onSleep = null;
          resumed = current.point.arrived(exports);
          if (!resumed) throw new Error('PHP slept before it was back at its pause');
        };
        current.point.rewind(exports);
        const code = await finish(php);
        if (!resumed) throw new Error('PHP did not resume at its pause');
        ended = true;
        return code;
      } finally {
        machine.onSleep = null;
        endEmscripten(imports);
      }
    } finally {
      machine.imports = null;
      // A WebAssembly error may have left the instance mid-way (asyncify, the table): a new one.
      if (!ended || !machine.tableUnchanged()) {
        machine.retire();
        if (paused === current) paused = null;
      }
    }
  };

  // A first run checks that PHP starts, and lists the functions to disable.
  const first = await createMachine(wasm);
  options.step?.('instantiate');
  const instantiated = new InstanceSnapshot(first.instance.exports);
  paused = await pause(phpIni, first);
  let listing = '';
  const decoder = new TextDecoder();
  const probeExit = await runCli(
    `<?php\necho PHP_VERSION, "\\n", implode(',', array_merge(...array_map(fn ($e) => extension_loaded($e) ? get_extension_funcs($e) ?: [] : [], ${JSON.stringify(EXTENSIONS_NOT_IN_SANDBOX)})));\n`,
    phpIni,
    { stdout: (chunk) => (listing += decoder.decode(chunk, { stream: true })), stderr: () => {} },
  );
  // Emscripten's set-up, PHP's own start-up to its pause, a probe program from there.
  options.step?.('start');
  const [version, disabled] = listing.split('\n');
  if (probeExit !== 0 || !version || !/^\d+\.\d+\.\d+/.test(version)) throw new Error(`PHP did not start (exit code ${probeExit})`);
  const ini = `${phpIni}\ndisable_functions = ${[...PROCESS_FUNCTIONS, ...(disabled ? disabled.split(',') : [])].join(',')}\n`;
  // The same instance, put back as instantiated, paused again with those functions disabled.
  if (paused?.machine !== first || !instantiated.restore(first.instance.exports, Number.MAX_SAFE_INTEGER)) throw new Error('PHP did not keep its instance through the probe program');
  paused = await pause(ini, first);
  options.step?.('snapshot');
  const putBack = new AheadStep(async () => void (await putBackPause(ini)));

  return {
    description: `php-wasm ${packageVersion('@php-wasm/web-8-1')} (PHP ${version})`,
    shareable: () => ({ modules: { 'php.wasm': wasm } }),
    run: (program) => queue(async () => {
      const stdout = new OutputCapture();
      const stderr = new OutputCapture();
      const decoders = { out: new TextDecoder(), err: new TextDecoder() };
      const streams: Streams = {
        stdout: (chunk) => stdout.writeBytes(chunk, decoders.out),
        stderr: (chunk) => stderr.writeBytes(chunk, decoders.err),
      };
      const started = performance.now();
      let exitCode: number;
      try {
        exitCode = await runCli(program, ini, streams, () => putBack.ensure());
      } catch (e) {
        if (e instanceof RunNotStarted) throw e; // no program ran: the host runs it on a new worker
        // The WebAssembly instance itself failed (the C stack overflowed, say): where php-cli would
        // die of a signal. This instance is dropped; the next run gets a new one.
        stderr.write(`benchtop: PHP stopped with a WebAssembly error (${describeCrash(e)})\n`);
        exitCode = 139;
      }
      stdout.write(decoders.out.decode());
      stderr.write(decoders.err.decode());
      const result = { exitCode, stdout: stdout.text(), stderr: stderr.text(), timedOut: false, durationMs: performance.now() - started };
      return stdout.truncated || stderr.truncated ? { ...result, truncated: true } : result;
    }),
    prepare: () => queue(() => putBack.prepare()),
  };
}

/**
 * Opens in a run's new file system the files PHP had open at the pause, at the same descriptors
 * and positions: php-wasm's stdout and stderr devices on 0–6, test.php (now the run's program,
 * not yet read), the prepend file (read).
 */
function reopenFiles(fs: EmscriptenPhp['FS'], files: Paused['files']): void {
  for (const stream of fs.streams) {
    if (stream) fs.close(stream);
  }
  for (const file of files) {
    const stream = fs.open(file.path, file.flags);
    if (stream.fd !== file.fd) {
      fs.dupStream(stream, file.fd);
      fs.close(stream);
    }
    fs.getStream(file.fd)!.position = file.position;
  }
}

/**
 * Ends a run's Emscripten: its ABORT is set (what `proc_exit` does once nothing keeps it alive), so
 * that its timers and callbacks return at once instead of calling into the next run's instance.
 */
function endEmscripten(imports: ImportObject): void {
  const env = imports.env!;
  const wasi = imports.wasi_snapshot_preview1!;
  (env._emscripten_runtime_keepalive_clear as () => void)();
  try {
    (wasi.proc_exit as (code: number) => void)(0);
  } catch (e) {
    if (exitStatus(e) === null) throw e;
  }
}

/** One line about an error thrown out of the WebAssembly instance (a RangeError, an FS ErrnoError, …). */
function describeCrash(e: unknown): string {
  if (!(e instanceof Object)) return String(e);
  const { name, message, errno } = e as { name?: unknown; message?: unknown; errno?: unknown };
  const text = typeof message === 'string' && message && message !== '[object Object]' ? `: ${message.split('\n')[0]}` : '';
  return `${typeof name === 'string' ? name : 'Error'}${typeof errno === 'number' ? ` ${errno}` : ''}${text}`;
}

/** The exit status of Emscripten's ExitStatus exception (PHP called exit), or null for other errors. */
function exitStatus(e: unknown): number | null {
  if (e && typeof e === 'object' && (e as { name?: unknown }).name === 'ExitStatus') {
    const status = (e as { status?: unknown }).status;
    if (typeof status === 'number') return status;
  }
  return null;
}

/**
 * Imports php.js from its bytes. It begins with `import dependencyFilename from './…/php_8_1.wasm'`
 * (a bundler's asset import), which is replaced: the binary comes from `instantiateWasm` instead.
 * Browsers import it from a blob: URL (what the runtime frame's policy allows); Node cannot
 * import blob: URLs, so there it comes from a data: URL.
 */
async function importLoader(bytes: ArrayBuffer): Promise<PhpLoaderModule> {
  const source = new TextDecoder().decode(bytes);
  const assetImport = /^import\s+dependencyFilename\s+from\s+['"][^'"]+['"];?/m;
  if (!assetImport.test(source)) throw new Error('php.js is not the php-wasm loader this adapter knows (no wasm asset import)');
  const patched = source.replace(assetImport, "const dependencyFilename = 'php.wasm';");
  const module = moduleUrl(patched);
  try {
    const loader = (await import(/* @vite-ignore */ module.url)) as Partial<PhpLoaderModule>;
    if (typeof loader.init !== 'function') throw new Error('php.js has no init()');
    return loader as PhpLoaderModule;
  } finally {
    module.release();
  }
}
