/**
 * How a new R is started as `Rscript test.r` starts it: its command line, environment, site
 * profile, C stack and file system, and what it reports about itself once started.
 */
import type { EmscriptenFS, RModule } from './emscripten';

/** Where the program lives (Rscript runs test.r from the current directory). */
export const HOME = '/home/user';
export const PROGRAM = 'test.r';
/** The command line Rscript gives R (`Rscript test.r` execs `R --no-echo --no-restore --file=test.r`). */
export const ARGV = ['/usr/lib/R/bin/exec/R', '--no-echo', '--no-restore', `--file=${PROGRAM}`];

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
export const C_STACK_LIMIT = Math.floor(C_STACK_SIZE * 0.9);

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
export const SITE_PROFILE = 'options(expressions = 20000, mc.cores = 1L)\n';

/** Before R's C code runs: its environment and working directory. */
export function prepareSession(R: RModule): void {
  Object.assign(R.ENV, ENV);
  R.FS.mkdirTree(HOME);
  R.FS.chdir(HOME);
}

/** The side modules of R's packages and modules (library/<package>/libs/*.so, modules/*.so). */
export function sideModules(FS: EmscriptenFS): string[] {
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

/** R's version, from its base package. */
export function readRVersion(FS: EmscriptenFS): string {
  return /^Version: *(.+)$/m.exec(FS.readFile('/usr/lib/R/library/base/DESCRIPTION', { encoding: 'utf8' }))?.[1]?.trim() ?? '?';
}

/**
 * Moves the C stack of a new R (nothing on it yet) to an 8 MB block of its heap. webR links R
 * with a 1 MB stack placed just below R's static data, which deep recursion overwrites silently.
 * Returns the top of the new stack.
 */
export function useLargeStack(R: RModule): number {
  const bottom = R._malloc(C_STACK_SIZE + 16);
  const top = (bottom + C_STACK_SIZE) & ~15;
  R._emscripten_stack_set_limits(top, bottom);
  R.__emscripten_stack_restore(top);
  return top;
}

/** R's session temporary directory (/tmp/RtmpXXXXXX), which it removes with system() at exit. */
export function readTempDir(FS: EmscriptenFS): string {
  const dirs = FS.readdir('/tmp').filter((name) => name.startsWith('Rtmp'));
  return dirs.length === 1 ? `/tmp/${dirs[0]}` : '';
}
