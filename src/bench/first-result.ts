/**
 * The bench's "what a first result costs" section (issue #16: say for each language what its first
 * result costs and why): a cold start split into the worker's start, step by step as its loader
 * named the steps (runtimes/loader.ts StepDone, timed inside the worker), and the first program.
 */
import { LANGUAGE_NAMES, type LanguageId } from '../contracts';
import type { WorkerLoad } from '../../runtimes/host/pool';

/** A cold start: from a new pool (nothing loaded) to the first program's result. */
export interface ColdStart {
  ms: number;
  /** The worker's start as its pool saw it (null: the pool reported none). */
  load: WorkerLoad | null;
}

export interface FirstResultRow {
  language: LanguageId;
  chromium: ColdStart;
  node: ColdStart;
}

/** One step of one language's cold start, for the chart (milliseconds, in order). */
export interface StartStepRow {
  language: string;
  step: string;
  ms: number;
}

/**
 * The steps the loaders name, in the order a start goes: what each means (the section's legend) and
 * its colour in the chart, alike for alike (greys: the host's part; purples: compiling and
 * instantiating WebAssembly; blue: the interpreter's start; green: the snapshot; C++'s own steps
 * in warm colours), so that fifteen steps stay apart in one legend.
 */
export const STEPS: ReadonlyArray<{ name: string; color: string; meaning: string }> = [
  { name: 'worker', color: '#8d8d8d', meaning: "from the pool starting the worker to its loader beginning: the worker's script (the runtime's JavaScript) and the init message (in Chromium through the runtime frame)" },
  { name: 'files', color: '#c9c9c9', meaning: "the runtime's files read into the worker: in Chromium from the Blobs the runtime frame hands it (the files are in Cache Storage after the first visit), under Node from node_modules" },
  { name: 'script', color: '#c5b0d5', meaning: "evaluating Pyodide's JavaScript (pyodide.asm.js)" },
  { name: 'compile', color: '#6a51a3', meaning: "WebAssembly.compile of the runtime's module (V8 compiles each function when it first runs, so this is mostly validation), or taking the module an earlier worker of the page compiled" },
  { name: 'compile LLVM, unpack the sysroot', color: '#3f007d', meaning: "clang's 75 MB of LLVM compiled (its first worker; later ones get the compiled modules) and the C++ library's headers and archives unpacked" },
  { name: 'instantiate', color: '#9e9ac8', meaning: 'a new instance: its memory and data segments' },
  { name: 'unpack R library', color: '#97bbf5', meaning: "R's library images (share, parallel) unpacked into its file system" },
  { name: 'start', color: '#4269d0', meaning: "the interpreter's own start-up, running on V8's baseline code while the optimised code is compiled in the background: CPython with Pyodide's own modules, CRuby's boot and the harness, perl as far as its first read of test.pl, PHP as far as its pause (after its module and request start-up) and a probe program from there, R's libraries and base package, a QuickJS instance with its context and Node-like environment set up and its snapshot" },
  { name: 'load every command', color: '#2a4d9c', meaning: "under Node, each of just-bash's commands once, before the runtime process shuts module loading" },
  { name: 'support objects', color: '#e45756', meaning: "the C++ exception runtime and glibc's rand() compiled, only when the prebuilt ones were built from other inputs (runtimes/cpp/support-objects.ts; a run of the bench shows no such step otherwise)" },
  { name: 'driver command lines', color: '#ff9da6', meaning: "clang's driver asked once for the compile and link command lines" },
  { name: 'precompiled header', color: '#f58518', meaning: "the precompiled header of the splice's own two lines (#include <iostream>, using namespace std;): the first compile of a new LLVM, slow because its code is still cold, and what warms it for the programs" },
  { name: 'harness', color: '#b279a2', meaning: "Python's harness (runtimes/python/harness.py) run once, with the common modules it imports before the snapshot" },
  { name: 'gc', color: '#9d755d', meaning: "Python's collection and gc.freeze before the snapshot, so that each program's closing collection walks only its own objects" },
  { name: 'snapshot', color: '#3ca951', meaning: 'the copy of the memory that every program starts from (for PHP after a second start to its pause, with the functions the probe program listed disabled)' },
  { name: 'probe program', color: '#6cc5b0', meaning: "Perl's first program, which checks the version and `$^T`" },
];
/** Colours of the two steps the bench adds itself. */
export const OTHER_COLOR = '#e4e4e4';
export const FIRST_PROGRAM_COLOR = '#f4d03f';

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–');

/** "start 2431, files 140, …": the steps of one worker's start (1 ms and more), in ms. */
function steps(load: WorkerLoad | null): string {
  if (!load) return '–';
  return load.steps.filter(([, t]) => t >= 1).map(([name, t]) => `${name} ${ms(t)}`).join(', ');
}

/** One language's cold start as the chart's rows: the start's steps (1 ms and more), then the first program. */
export function firstResultSteps(language: LanguageId, cold: ColdStart): StartStepRow[] {
  const name = LANGUAGE_NAMES[language];
  const steps = (cold.load?.steps ?? []).filter(([, ms]) => ms >= 1).map(([step, ms]) => ({ language: name, step, ms }));
  return [...steps, { language: name, step: 'first program', ms: Math.max(0, cold.ms - (cold.load?.ms ?? 0)) }];
}

/** The section's lines (Markdown). */
export function firstResultSection(rows: readonly FirstResultRow[]): string[] {
  const lines = [
    '## What a first result costs',
    '',
    "A cold start per language (a new pool, nothing loaded, the runtime's files already at hand) from the request to the first result, split into the worker's start, step by step as its loader names the steps (timed inside the worker: runtimes/loader.ts `StepDone`), and the first program (the rest: its run, on code V8 has not optimised yet). The page shows the same split in each runtime's ready line. Milliseconds; this run's machine, one sample each.",
    '',
    '![where a first result goes](bench-first.png)',
    '',
    '| language | first result Chromium | worker start | first program | the start, step by step (Chromium) | first result Node | the start, step by step (Node) |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const start = r.chromium.load?.ms ?? NaN;
    lines.push(`| ${LANGUAGE_NAMES[r.language]} | ${ms(r.chromium.ms)} | ${ms(start)} | ${ms(r.chromium.ms - start)} | ${steps(r.chromium.load)} | ${ms(r.node.ms)} | ${steps(r.node.load)} |`);
  }
  const named = new Set(rows.flatMap((r) => [...(r.chromium.load?.steps ?? []), ...(r.node.load?.steps ?? [])].map(([name]) => name)));
  lines.push('', 'The steps:', '');
  for (const { name, meaning } of STEPS) if (named.has(name)) lines.push(`- **${name}**: ${meaning}.`);
  const unexplained = [...named].filter((n) => n !== 'other' && !STEPS.some((step) => n === step.name));
  if (unexplained.length) lines.push(`- ${unexplained.map((n) => `**${n}**`).join(', ')}: named by the loader (see its source).`);
  if (named.has('other')) lines.push("- **other**: the rest of the load after the loader's last step (handing on what it compiled, the worker's lockdown).");
  return lines;
}
