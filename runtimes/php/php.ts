/**
 * PHP runtime: PHP 8.1 compiled to WebAssembly by php-wasm (WordPress Playground), the build of
 * `@php-wasm/web-8-1` (its asyncify variant: JSPI is missing from Node 20 and older browsers).
 * The same code runs in the page's sandboxed worker and in Node's worker threads: both hand in the
 * Emscripten loader (php.js) and the binary (php.wasm) as bytes, so nothing is fetched.
 *
 * Every run starts from a new process's state and runs PHP's own CLI SAPI (`php test.php`), which
 * exits when the script ends. Instantiating php-wasm (67,781 data segments) was most of a run, so
 * one instance per worker is put back to its state right after instantiation before each run
 * (memory and every mutable global, asyncify's included: runtimes/host/wasm-snapshot.ts), and
 * Emscripten's JavaScript (its file system, ABORT, exit status, asyncify and stdio state, timers)
 * is made new: each run calls the loader's `init` again and hands it that instance, whose imports
 * forward to the run's own Emscripten. After the run that Emscripten is ended (its ABORT set), so a
 * timer it left cannot reach the next run, and the forwarding refuses calls between runs. The
 * instance is replaced when its memory grew past 64 MB, its function table changed, or the run
 * ended in a WebAssembly error. @php-wasm/universal's PHP class is not used: its
 * php.ini (errors displayed on stdout, an auto_prepend_file) and request machinery are what we
 * would have to undo; the loader's `init` with a few Emscripten options is all we need.
 *
 * What the program sees is Ubuntu 22.04's php8.1-cli as the official sandbox configures it
 * (php.ini beside this file): errors logged to stderr as "PHP Fatal error:  …", exit code 255
 * after a fatal error, `exit(n)` → n, stack traces without arguments. Functions of extensions that
 * php-wasm has and the sandbox lacks (mbstring, bcmath, gd, curl, …) are disabled, so calling them
 * fails as it does there ("Call to undefined function mb_strlen()").
 */
import { packageVersion } from '../package-versions';
import { OutputCapture } from '../host/output';
import { moduleUrl } from '../host/module-url';
import { exposeMutableGlobals, InstanceSnapshot, withInitialMemory } from '../host/wasm-snapshot';
import { createQueue } from '../queue';
import { compiledModule } from '../host/shared-module';
import type { RuntimeShared, SharingRuntime, StepDone } from '../loader';
import phpIni from './php.ini?raw';

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
 * php-wasm's memory starts at 64 MB, of which the data ends below 13 MB: started at 20 MB (and
 * grown on demand), a snapshot copies 20 MB, not 64. Memory a program grew is zeroed before the
 * next, up to the original 64 MB; past that the instance is replaced.
 */
const INITIAL_MEMORY = 20 << 20;
const REUSED_MEMORY_LIMIT = 64 << 20;

/** The only non-function imports php-wasm has: asyncify's state and the GOT slot of `exit`. */
const GLOBAL_IMPORTS = ['env.__asyncify_state', 'env.__asyncify_data', 'GOT.func.exit'];

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

type ImportObject = Record<string, Record<string, unknown>>;

interface EmscriptenPhp {
  FS: {
    mkdirTree(path: string): void;
    writeFile(path: string, data: string | Uint8Array): void;
    chdir(path: string): void;
  };
  ccall(name: string, returnType: string | null, argTypes: string[], args: unknown[], opts?: { async?: boolean }): unknown;
  onStdout?: (chunk: Uint8Array) => void;
  onStderr?: (chunk: Uint8Array) => void;
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

  /** The worker's instance; replaced when it cannot be put back (see the header). */
  let machine: Machine | null = null;
  let snapshot: InstanceSnapshot | null = null;

  /** A new Emscripten (file system, ABORT, asyncify, …) around the worker's instance. */
  const startEmscripten = (target: Machine, streams: Streams): Promise<{ php: EmscriptenPhp; imports: ImportObject }> =>
    new Promise((resolve, reject) => {
      const text = new TextEncoder();
      let imports: ImportObject | null = null;
      const php: EmscriptenPhp = loader.init('WEB', {
        ENV: {},
        noInitialRun: true,
        locateFile: (path: string) => path,
        instantiateWasm(info: ImportObject, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
          imports = target.imports = info;
          target.presetGot(info);
          // Later, as instantiation would be: `init` must return before the runtime starts.
          queueMicrotask(() => {
            try {
              receive(target.instance, wasm);
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

  /** Runs `php -c php.ini test.php` from a new process's state; resolves to the exit code. */
  const runCli = async (program: string, ini: string, streams: Streams): Promise<number> => {
    if (!machine || !snapshot!.restore(machine.instance.exports, REUSED_MEMORY_LIMIT - INITIAL_MEMORY)) {
      machine?.retire();
      machine = await createMachine(wasm);
      snapshot ??= new InstanceSnapshot(machine.instance.exports);
    }
    const current = machine;
    let ended = false;
    try {
      const { php, imports } = await startEmscripten(current, streams);
      current.afterSetUp(imports);
      php.FS.mkdirTree(INI_PATH.slice(0, INI_PATH.lastIndexOf('/')));
      php.FS.writeFile(INI_PATH, ini);
      php.FS.mkdirTree(WORK_DIR);
      php.FS.writeFile(`${WORK_DIR}/${SCRIPT}`, program);
      php.FS.chdir(WORK_DIR);
      for (const arg of ['php', '-c', INI_PATH, SCRIPT]) php.ccall('wasm_add_cli_arg', null, ['string'], [arg]);
      try {
        const code = await php.ccall('run_cli', 'number', [], [], { async: true });
        ended = true;
        return typeof code === 'number' ? code : 0;
      } catch (e) {
        const status = exitStatus(e);
        if (status === null) throw e;
        ended = true;
        return status;
      } finally {
        endEmscripten(imports);
      }
    } finally {
      current.imports = null;
      // A WebAssembly error may have left the instance mid-way (asyncify, the table): a new one.
      if (!ended || !current.tableUnchanged()) {
        current.retire();
        if (machine === current) machine = null;
      }
    }
  };

  // A first run checks that PHP starts, and lists the functions to disable.
  let listing = '';
  const decoder = new TextDecoder();
  const probeExit = await runCli(
    `<?php\necho PHP_VERSION, "\\n", implode(',', array_merge(...array_map(fn ($e) => extension_loaded($e) ? get_extension_funcs($e) ?: [] : [], ${JSON.stringify(EXTENSIONS_NOT_IN_SANDBOX)})));\n`,
    phpIni,
    { stdout: (chunk) => (listing += decoder.decode(chunk, { stream: true })), stderr: () => {} },
  );
  // The instance, its snapshot, Emscripten's set-up and PHP's own start-up, on a probe program.
  options.step?.('start');
  const [version, disabled] = listing.split('\n');
  if (probeExit !== 0 || !version || !/^\d+\.\d+\.\d+/.test(version)) throw new Error(`PHP did not start (exit code ${probeExit})`);
  const ini = `${phpIni}\ndisable_functions = ${[...PROCESS_FUNCTIONS, ...(disabled ? disabled.split(',') : [])].join(',')}\n`;

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
        exitCode = await runCli(program, ini, streams);
      } catch (e) {
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
  };
}

/** One php-wasm instance and what it must be checked against. */
interface Machine {
  instance: WebAssembly.Instance;
  /** The Emscripten of the run in progress (its import object), which the instance calls; null between runs. */
  imports: ImportObject | null;
  /**
   * Gives a new Emscripten the table slots of the instance's functions (its GOT), as its first set-up
   * found them: otherwise each set-up reads all 12,000 table slots again to find them.
   */
  presetGot(imports: ImportObject): void;
  /**
   * After the first set-up: throws if it put anything but the instance's own functions in the
   * table, and keeps the GOT for `presetGot`.
   */
  afterSetUp(imports: ImportObject): void;
  /** False if the table grew since the first set-up (a function added at run time). */
  tableUnchanged(): boolean;
  /** Refuses every call from the instance from now on (a timer of an ended run, say). */
  retire(): void;
}

/**
 * A new instance whose imports forward to the Emscripten of the run in progress, so that each
 * run's new Emscripten can take it over. Its imported globals are its own (asyncify's are in the
 * snapshot); the GOT slot of `exit`, which Emscripten would fill with its own function, points to
 * a function that forwards too.
 */
async function createMachine(module: WebAssembly.Module): Promise<Machine> {
  let retired = false;
  const forwarding: ImportObject = {};
  const machine: Machine = {
    instance: null as unknown as WebAssembly.Instance,
    imports: null,
    presetGot: (imports) => {
      const got = imports['GOT.func'] as Record<string, WebAssembly.Global>;
      for (const [name, slot] of functionSlots ?? []) got[name]!.value = slot;
    },
    afterSetUp,
    tableUnchanged: () => table.length === setUpLength,
    retire: () => {
      retired = true;
      machine.imports = null;
    },
  };
  for (const entry of WebAssembly.Module.imports(module)) {
    const space = (forwarding[entry.module] ??= {});
    if (entry.kind === 'function') {
      space[entry.name] = (...args: unknown[]) => {
        const target = machine.imports?.[entry.module]?.[entry.name];
        if (retired || typeof target !== 'function') throw new Error(`php-wasm called ${entry.name} outside a run`);
        return (target as (...a: unknown[]) => unknown)(...args);
      };
    } else if (entry.kind === 'global' && GLOBAL_IMPORTS.includes(`${entry.module}.${entry.name}`)) {
      space[entry.name] = new WebAssembly.Global({ value: 'i32', mutable: true }, 0);
    } else {
      throw new Error(`php.wasm imports ${entry.kind} ${entry.module}.${entry.name}, which this adapter does not forward`);
    }
  }
  const instance = await WebAssembly.instantiate(module, forwarding as WebAssembly.Imports);
  machine.instance = instance;
  const exported = instance.exports.__indirect_function_table;
  if (!(exported instanceof WebAssembly.Table)) throw new Error('php.wasm exports no function table');
  const table: WebAssembly.Table = exported;
  const exitSlot = table.grow(1, forwardingFunction(forwarding.env!.exit as (status: number) => void));
  (forwarding['GOT.func']!.exit as WebAssembly.Global).value = exitSlot;
  const instantiatedLength = table.length;
  let setUpLength = -1;
  let functionSlots: [string, number][] | null = null;

  function afterSetUp(imports: ImportObject): void {
    if (functionSlots) return;
    // Emscripten's set-up adds the instance's exported functions to the table; a function of its
    // own there would be called by later runs, through an ended Emscripten.
    setUpLength = table.length;
    const own = new Set(Object.values(instance.exports));
    for (let i = instantiatedLength; i < setUpLength; i++) {
      if (!own.has(table.get(i))) throw new Error(`php-wasm's set-up put a function of its own in table slot ${i}`);
    }
    // Reading a GOT entry makes one (at -1) if the set-up made none (its internal symbols): skipped.
    const got = imports['GOT.func'] as Record<string, WebAssembly.Global>;
    functionSlots = Object.entries(instance.exports)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]): [string, number] => [name, got[name]!.value as number])
      .filter(([, slot]) => slot !== -1);
  }
  return machine;
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

/**
 * A WebAssembly function (a table can hold only those) that calls `target` with one i32: the
 * module `(type (func (param i32))) (import "h" "f" (func (type 0))) (export "f" (func 0))`.
 */
function forwardingFunction(target: (value: number) => void): WebAssembly.ExportValue {
  const bytes = new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x05, 0x01, 0x60, 0x01, 0x7f, 0x00,
    0x02, 0x07, 0x01, 0x01, 0x68, 0x01, 0x66, 0x00, 0x00,
    0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00,
  ]);
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), { h: { f: target } }).exports.f!;
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
