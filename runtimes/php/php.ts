/**
 * PHP runtime: PHP 8.1 compiled to WebAssembly by php-wasm (WordPress Playground), the build of
 * `@php-wasm/web-8-1` (its asyncify variant: JSPI is missing from Node 20 and older browsers).
 * The same code runs in the page's sandboxed worker and in Node's worker threads: both hand in the
 * Emscripten loader (php.js) and the binary (php.wasm) as bytes, so nothing is fetched.
 *
 * Every run gets a fresh WebAssembly instance of the once-compiled module, with its own memory and
 * file system, and runs PHP's own CLI SAPI (`php test.php`), which exits when the script ends: no
 * state can pass from one program to the next. @php-wasm/universal's PHP class is not used: its
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
import type { LanguageRuntime } from '../../src/contracts';
import phpIni from './php.ini?raw';

/** The files the host hands in: name → bytes (runtimes/host/catalog.ts maps them to node_modules). */
export const PHP_FILES = ['php.js', 'php.wasm'] as const;

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

export interface PhpRuntimeOptions {
  /** php.js (the Emscripten loader of @php-wasm/web-8-1) and php.wasm, as bytes. */
  files: Record<string, ArrayBuffer>;
}

/** The ES module php.js exports (an Emscripten build wrapped by php-wasm). */
interface PhpLoaderModule {
  init(runtime: 'WEB' | 'WORKER' | 'NODE', module: Record<string, unknown>): EmscriptenPhp;
}

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

export async function createPhpRuntime(options: PhpRuntimeOptions): Promise<LanguageRuntime> {
  const { files } = options;
  for (const name of PHP_FILES) if (!files[name]) throw new Error(`missing ${name}`);
  const [loader, wasm] = await Promise.all([importLoader(files['php.js']!), WebAssembly.compile(files['php.wasm']!)]);

  /** A fresh PHP: a new instance of the compiled module, its own memory and file system. */
  const instantiate = (streams: Streams): Promise<EmscriptenPhp> =>
    new Promise((resolve, reject) => {
      const text = new TextEncoder();
      const php: EmscriptenPhp = loader.init('WEB', {
        ENV: {},
        noInitialRun: true,
        locateFile: (path: string) => path,
        instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
          WebAssembly.instantiate(wasm, imports).then((instance) => receive(instance, wasm), reject);
          return {};
        },
        onRuntimeInitialized: () => resolve(php),
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

  /** Runs `php -c php.ini test.php` in a fresh PHP; resolves to the exit code. */
  const runCli = async (program: string, ini: string, streams: Streams): Promise<number> => {
    const php = await instantiate(streams);
    php.FS.mkdirTree(INI_PATH.slice(0, INI_PATH.lastIndexOf('/')));
    php.FS.writeFile(INI_PATH, ini);
    php.FS.mkdirTree(WORK_DIR);
    php.FS.writeFile(`${WORK_DIR}/${SCRIPT}`, program);
    php.FS.chdir(WORK_DIR);
    for (const arg of ['php', '-c', INI_PATH, SCRIPT]) php.ccall('wasm_add_cli_arg', null, ['string'], [arg]);
    try {
      const code = await php.ccall('run_cli', 'number', [], [], { async: true });
      return typeof code === 'number' ? code : 0;
    } catch (e) {
      const status = exitStatus(e);
      if (status === null) throw e;
      return status;
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
  const [version, disabled] = listing.split('\n');
  if (probeExit !== 0 || !version || !/^\d+\.\d+\.\d+/.test(version)) throw new Error(`PHP did not start (exit code ${probeExit})`);
  const ini = `${phpIni}\ndisable_functions = ${[...PROCESS_FUNCTIONS, ...(disabled ? disabled.split(',') : [])].join(',')}\n`;

  return {
    description: `php-wasm ${packageVersion('@php-wasm/web-8-1')} (PHP ${version})`,
    async run(program) {
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
        // die of a signal. This instance is dropped; the next run gets a new one anyway.
        stderr.write(`benchtop: PHP stopped with a WebAssembly error (${describeCrash(e)})\n`);
        exitCode = 139;
      }
      stdout.write(decoders.out.decode());
      stderr.write(decoders.err.decode());
      const result = { exitCode, stdout: stdout.text(), stderr: stderr.text(), timedOut: false, durationMs: performance.now() - started };
      return stdout.truncated || stderr.truncated ? { ...result, truncated: true } : result;
    },
  };
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
