/**
 * The in-page runtimes, one entry per language: what the user is told while it loads, and the
 * files its worker needs (name handed to the adapter → path inside node_modules). Plain data,
 * read by the page (downloads, sizes), by vite.config.ts (which serves and copies the files as
 * `runtimes/<path inside node_modules>`) and by the Node worker (which reads them from node_modules).
 *
 * To add a language:
 *   1. an entry here, with the agreement measured against the official verdicts (`fidelity`), and
 *      its differential corpus measured (`npm run conformance -- --differential --languages X`
 *      writes ./differential-figures.json, read below as DIFFERENTIAL);
 *   2. `runtimes/<language>/loader.ts`, its RuntimeLoader (../loader.ts), used by the page's worker
 *      and by Node's, and `runtimes/<language>/worker.ts`, the page's worker script (see python/).
 * WORKER_LANGUAGES (languages.ts), the page's worker scripts (browser.ts) and Node's loaders
 * (node-loaders.ts) follow this table.
 */
import type { LanguageId } from '../../src/contracts';
import MEASURED from './differential-figures.json' with { type: 'json' };

export interface CatalogEntry {
  /** Shown while the runtime loads: what it is and its download, ending "(…, about N MB)". */
  what: string;
  /** Files handed to the runtime in its init message: name → path inside node_modules. */
  files: Readonly<Record<string, string>>;
  /**
   * Under Node the runtime finds its own files in node_modules (Pyodide); otherwise the
   * Node worker reads `files` and hands them over, exactly as the page does.
   */
  nodeLoadsItself?: boolean;
  /**
   * How often this runtime's verdicts agree with the official toolchain's, as measured (the
   * command is in docs/fidelity.md). Routing's `auto` uses the runtime only when the agreement
   * reaches the bar for how it was measured (FIDELITY_BAR); else it prefers a remote runner.
   */
  fidelity: { agreement: number; against: FidelityMeasure };
}

/**
 * What an agreement figure was measured against: the official sandbox's own regression cases
 * (SPEC §6 asks for 95%), or the real toolchain on the demo set and the recorded answers, a
 * smaller sample where one disagreement in a hundred is already a warning (99%).
 */
export type FidelityMeasure = 'official conformance cases' | 'real toolchain on the demo set';
export const FIDELITY_BAR: Readonly<Record<FidelityMeasure, number>> = {
  'official conformance cases': 0.95,
  'real toolchain on the demo set': 0.99,
};

/** Whether `auto` routing may use the in-page runtime of `language` (its agreement is high enough). */
export function trustedInPage(language: LanguageId): boolean {
  const fidelity = CATALOG[language]?.fidelity;
  return !!fidelity && fidelity.agreement >= FIDELITY_BAR[fidelity.against];
}

/** One language's agreement with its native toolchain on the whole differential corpus. */
export interface DifferentialFigures {
  /** Programs in the corpus when measured; the CI test checks this against the stored corpus. */
  programs: number;
  /** Programs whose exit status (zero or not) agrees with the native one. */
  exit: number;
  /** Programs whose stdout is byte for byte the native one. */
  stdout: number;
  /** When and with what it was measured. */
  measured: string;
  runtime: string;
}

/**
 * The differential corpus's agreement per in-page runtime (bench-data/differential/), written by
 * `npm run conformance -- --differential` itself (src/cli/differential.ts) into
 * differential-figures.json; never edited by hand.
 */
export const DIFFERENTIAL: Readonly<Partial<Record<LanguageId, DifferentialFigures>>> = MEASURED as Record<string, DifferentialFigures>;

/** Issue 13's bar on real programs written by others: 97% of exit statuses, 95% of outputs. */
export const DIFFERENTIAL_BAR = { exit: 0.97, stdout: 0.95 } as const;

/**
 * Whether the in-page runtime of `language` falls short of DIFFERENTIAL_BAR on the corpus: `auto`
 * then sends the language to a runner when one offers it (runtimes/remote/routing.ts), and keeps
 * it in the page otherwise (measured, and still the only way to run it there).
 */
export function shortOnCorpus(language: LanguageId): boolean {
  const f = DIFFERENTIAL[language];
  return !!f && belowDifferentialBar(f);
}

export function belowDifferentialBar(f: Pick<DifferentialFigures, 'programs' | 'exit' | 'stdout'>): boolean {
  return f.exit < DIFFERENTIAL_BAR.exit * f.programs || f.stdout < DIFFERENTIAL_BAR.stdout * f.programs;
}

export const CATALOG: Readonly<Partial<Record<LanguageId, CatalogEntry>>> = {
  python: {
    what: 'Pyodide 0.25 (CPython 3.11 in WebAssembly, about 17 MB)',
    files: {
      'pyodide.asm.js': 'pyodide/pyodide.asm.js',
      'pyodide.asm.wasm': 'pyodide/pyodide.asm.wasm',
      // Pyodide's zip with each module compiled (scripts/build-python-stdlib.mjs): no import compiles source.
      'python_stdlib.zip': 'pyodide/python_stdlib.compiled.zip',
      'pyodide-lock.json': 'pyodide/pyodide-lock.json',
    },
    nodeLoadsItself: true,
    fidelity: { agreement: 1, against: 'real toolchain on the demo set' },
  },
  javascript: {
    what: 'QuickJS (about 1 MB)',
    files: { 'quickjs.wasm': '@jitl/quickjs-ng-wasmfile-release-sync/dist/emscripten-module.wasm' },
    fidelity: { agreement: 1, against: 'real toolchain on the demo set' },
  },
  typescript: {
    what: 'QuickJS and the sucrase TypeScript transpiler (about 1.5 MB)',
    files: { 'quickjs.wasm': '@jitl/quickjs-ng-wasmfile-release-sync/dist/emscripten-module.wasm' },
    fidelity: { agreement: 1, against: 'official conformance cases' },
  },
  php: {
    what: 'PHP 8.1 (php-wasm, about 18 MB)',
    files: {
      'php.js': '@php-wasm/web-8-1/asyncify/php_8_1.js',
      'php.wasm': '@php-wasm/web-8-1/asyncify/8_1_34/php_8_1.wasm',
    },
    // 50/50 official PHP cases (tests/integration/runtime-php.test.ts).
    fidelity: { agreement: 1, against: 'official conformance cases' },
  },
  ruby: {
    what: 'CRuby 3.4 (ruby.wasm, about 30 MB)',
    files: { 'ruby+stdlib.wasm': '@ruby/3.4-wasm-wasi/dist/ruby+stdlib.wasm' },
    // 50/50 official Ruby cases (tests/integration/runtime-ruby.test.ts).
    fidelity: { agreement: 1, against: 'official conformance cases' },
  },
  r: {
    what: 'R 4.6 (webR 0.6, about 22 MB)',
    files: {
      'R.js': 'webr/dist/R.js',
      'R.wasm': 'webr/dist/R.wasm',
      'libRblas.so': 'webr/dist/libRblas.so',
      'libRlapack.so': 'webr/dist/libRlapack.so',
      'share.data.gz': 'webr/dist/vfs/usr/lib/R/share.data.gz',
      'share.js.metadata': 'webr/dist/vfs/usr/lib/R/share.js.metadata',
      'parallel.data.gz': 'webr/dist/vfs/usr/lib/R/library/parallel.data.gz',
      'parallel.js.metadata': 'webr/dist/vfs/usr/lib/R/library/parallel.js.metadata',
    },
    // Official R cases (tests/integration/runtime-r.test.ts; differences in docs/fidelity.md).
    fidelity: { agreement: 1, against: 'official conformance cases' },
  },
  perl: {
    what: 'Perl 5.42 (zeroperl, about 25 MB)',
    files: { 'zeroperl.wasm': '@6over3/zeroperl-ts/dist/esm/zeroperl.wasm' },
    // Pass/fail and the outcome label on the 50 official cases, 50/50 each since SPEC §4's order
    // was corrected (exit code before substrings) on 2026-12-01 (`npm run conformance`).
    fidelity: { agreement: 1, against: 'official conformance cases' },
  },
  shell: {
    what: 'Bash (just-bash, bash re-implemented in TypeScript, about 1.3 MB)',
    files: {},
    // 20/20 runs of the demo set (canonical and recorded answers) agree with the real bash, and
    // 125/130 everyday idioms (tests/integration/runtime-shell.test.ts); differences: docs/fidelity.md.
    fidelity: { agreement: 1, against: 'real toolchain on the demo set' },
  },
  cpp: {
    what: 'Clang 22 and libc++ compiling to WebAssembly (@yowasp/clang, about 105 MB)',
    files: {
      'bundle.js': '@yowasp/clang/gen/bundle.js',
      'llvm.core.wasm': '@yowasp/clang/gen/llvm.core.wasm',
      'llvm.core2.wasm': '@yowasp/clang/gen/llvm.core2.wasm',
      'llvm.core3.wasm': '@yowasp/clang/gen/llvm.core3.wasm',
      'llvm.core4.wasm': '@yowasp/clang/gen/llvm.core4.wasm',
      'llvm-resources.tar': '@yowasp/clang/gen/llvm-resources.tar',
    },
    // 20/20 verdicts as g++ 12 on the demo set's canonical solutions and recorded answers
    // (crosscheck.test.ts), 19/19 on the canonical and 9 extra programs (tests/integration/runtime-cpp.test.ts),
    // 9/9 programs that need 64-bit long (versions-cpp.test.ts). Programs whose verdict may depend
    // on 32-bit pointers are declined, not judged (runtimes/cpp/lp64.ts): 0 of the demo set's 20,
    // 6/6 of versions-cpp.test.ts's pointer-width programs. Differences: docs/fidelity.md.
    fidelity: { agreement: 1, against: 'real toolchain on the demo set' },
  },
};

/**
 * Where a runtime file is served on the app's own origin, relative to the app's base URL: its
 * node_modules path, so a file two languages share (QuickJS) is downloaded and cached once.
 */
export function runtimeFilePath(packagePath: string): string {
  return `runtimes/${packagePath}`;
}
