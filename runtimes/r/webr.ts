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
 *
 * The parts: R.js made a factory (rjs.ts), webR's file-system images (images.ts), how R is started
 * as Rscript (session.ts), one R and its snapshot (instance.ts) with the file system's checks
 * (filesystem.ts), the output devices (byte-sink.ts), the Emscripten module's shape (emscripten.ts).
 */
import { packageVersion } from '../package-versions';
import { createQueue } from '../queue';
import { AheadStep } from '../host/ahead';
import { OutputCapture } from '../host/output';
import { compiledModule } from '../host/shared-module';
import type { RuntimeShared, SharingRuntime, StepDone } from '../loader';
import type { RunResult } from '../../src/contracts';
import { exitStatus } from './emscripten';
import { IMAGES, unpackImage } from './images';
import { createInstance, restore, type RBuild } from './instance';
import { loadFactory, wrapRJs } from './rjs';
import { HOME, PROGRAM, readRVersion } from './session';

/** The files the host hands in (name → bytes), all from node_modules/webr/dist. */
export const R_FILES = [
  'R.js', 'R.wasm', 'libRblas.so', 'libRlapack.so',
  'share.data.gz', 'share.js.metadata', 'parallel.data.gz', 'parallel.js.metadata',
] as const;

export interface RRuntimeOptions {
  /** R_FILES; R.wasm may be left out when `shared` has its compiled module. */
  files: Record<string, ArrayBuffer>;
  /** What an earlier worker of the page compiled (its `shareable()`). */
  shared?: RuntimeShared;
  /** Told as each step of the load ends (loader.ts). */
  step?: StepDone;
}

export async function createRRuntime(options: RRuntimeOptions): Promise<SharingRuntime> {
  const build = await prepareBuild(options.files, options.shared, options.step);
  let instance = await createInstance(build);
  const description = `webR ${packageVersion('webr')} (R ${readRVersion(instance.R.FS)})`;
  // R's own start-up (its libraries, the base package) and the snapshot every run starts from.
  options.step?.('start');
  /** What the last run left: nothing (the R is as its snapshot), an R to put back, or a broken one. */
  let left: 'clean' | 'used' | 'broken' = 'clean';
  // The same R, put back, or a new one (done ahead when the host asks: serve.ts).
  const putBack = new AheadStep(async () => {
    if (left === 'clean') return;
    let reusable = false;
    try {
      reusable = left === 'used' && restore(instance);
    } catch {
      reusable = false;
    }
    if (!reusable) instance = await createInstance(build);
    left = 'clean';
  });

  /** Runs one program in the waiting R. */
  async function execute(program: string): Promise<Omit<RunResult, 'runtime'>> {
    await putBack.ensure();
    left = 'broken'; // until R has exited as a process does
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
    if (exited) left = 'used';
    const result = { exitCode, stdout: stdout.text(), stderr: stderr.text(), timedOut: false, durationMs };
    return stdout.truncated || stderr.truncated ? { ...result, truncated: true } : result;
  }

  const queue = createQueue();
  return {
    description,
    run: (program) => queue(() => execute(program)),
    prepare: () => queue(() => putBack.prepare()),
    shareable: () => ({ modules: { 'R.wasm': build.wasm } }),
  };
}

/** What every R of this worker is made from: the compiled R.wasm and R.js, the unpacked images. */
async function prepareBuild(files: Record<string, ArrayBuffer>, shared: RuntimeShared | undefined, step?: StepDone): Promise<RBuild> {
  for (const name of R_FILES) if (name !== 'R.wasm' && !files[name]) throw new Error(`missing ${name}`);
  const wasm = await compiledModule(files, shared, 'R.wasm');
  step?.('compile');
  const images = await Promise.all(IMAGES.map((image) => unpackImage(image.mount, files[image.data]!, files[image.listing]!)));
  step?.('unpack R library');
  const factory = await loadFactory(wrapRJs(new TextDecoder().decode(files['R.js']), wasm));
  const compiled = new Map<string, WebAssembly.Module>();
  return {
    wasm, factory, images,
    compile(binary, name) {
      if (binary instanceof WebAssembly.Module) return binary;
      let module = compiled.get(name);
      if (!module) compiled.set(name, (module = new WebAssembly.Module(binary as Uint8Array<ArrayBuffer>)));
      return module;
    },
    fileBytes(url) {
      const body = files[url.slice(url.lastIndexOf('/') + 1)];
      if (!body) throw new Error(`benchtop: R asked for ${url}, which is not among its files`);
      return new Uint8Array(body);
    },
  };
}
