/**
 * The differential corpus (bench-data/differential/): real programs written by others (Rosetta
 * Code), each stored with what the native toolchain did with it. Comparing an in-page runtime's
 * result with the stored native one measures the runtime's fidelity on code nobody here wrote.
 */
import type { ExecutionReport, Executor, LanguageId } from '../contracts';
import { officialTimeoutMs } from './rules';

export type StderrClass = 'empty' | 'nonempty';

export interface DifferentialRecord {
  language: LanguageId;
  /** Rosetta Code task name. */
  task: string;
  /** Path of the program in the source repository (see bench-data/differential/README.md). */
  path: string;
  program: string;
  native: { exitCode: number | null; stdout: string; stderr: StderrClass; runtime: string };
}

export interface DifferentialOutcome {
  record: DifferentialRecord;
  /** Zero versus non-zero (a timeout counts as non-zero). */
  exitAgrees: boolean;
  stdoutExact: boolean;
  /** Equal once trailing whitespace is dropped from every line and from the end. */
  stdoutTrimmed: boolean;
  stderrAgrees: boolean;
  /** Why it differs, when a cause can be read off the result; null when everything agrees. */
  cause: string | null;
}

export interface DifferentialSummary {
  language: LanguageId;
  programs: number;
  exitAgreement: number;
  stdoutExact: number;
  stdoutTrimmed: number;
  stderrClass: number;
  disagreements: DifferentialOutcome[];
  runtime: string;
}

export function parseDifferential(text: string): DifferentialRecord[] {
  return text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as DifferentialRecord);
}

export const stderrClass = (stderr: string): StderrClass => (stderr.trim() ? 'nonempty' : 'empty');

export function trimTrailing(text: string): string {
  return text.split('\n').map((l) => l.replace(/\s+$/, '')).join('\n').replace(/\s+$/, '');
}

const zero = (code: number | null | undefined) => code === 0;

// Ordered: the first matching pattern names the cause. Each reads the in-page runtime's stderr.
const STDERR_CAUSES: [RegExp, string][] = [
  [/test programs may not load modules/, 'the runtime could not load one of its own modules'],
  [/ModuleNotFoundError|No module named|Cannot find module|cannot load such file|Can't locate \S+\.pm|there is no package called|Failed to resolve module|could not resolve/i, 'missing module'],
  [/RecursionError|maximum recursion depth|stack level too deep|Maximum call stack|call stack exhausted|stack overflow|Deep recursion|C stack usage|infinite recursion/i, 'recursion limit'],
  [/out of memory|MemoryError|Allowed memory size|cannot allocate|memory access out of bounds/i, 'memory limit'],
  [/fatal error: .*file not found|error: .*(no member|was not declared|no matching function|undeclared identifier|unknown type name)/i, 'compile error (headers or library)'],
  [/\berror\b.*\bgenerated\b|\d+ errors? generated/i, 'compile error'],
  [/undefined method|undefined function|is not defined|is not a function|NameError|Undefined subroutine|could not find function|not supported|unsupported|not implemented|command not found/i, 'missing function or command'],
  [/SyntaxError|syntax error|parse error/i, 'syntax not accepted'],
];

const NUMBER = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g;

/** Outputs that differ only in how numbers are written (float digits, exponent form). */
function differsOnlyInNumbers(a: string, b: string): boolean {
  if (a.replace(NUMBER, '#') !== b.replace(NUMBER, '#')) return false;
  const x = a.match(NUMBER) ?? [];
  const y = b.match(NUMBER) ?? [];
  return x.length === y.length && x.every((v, i) => {
    const p = Number(v);
    const q = Number(y[i]);
    return p === q || Math.abs(p - q) <= 1e-6 * Math.max(1, Math.abs(p), Math.abs(q));
  });
}

export function classifyDifference(record: DifferentialRecord, got: ExecutionReport): string {
  if (got.timedOut) return 'timeout';
  // stderr names the cause even when the program went on to exit 0 with the wrong output.
  for (const [re, cause] of STDERR_CAUSES) if ((!zero(got.exitCode) || record.native.stderr === 'empty') && re.test(got.stderr)) return cause;
  if (!zero(got.exitCode)) return `exit ${got.exitCode}: ${firstErrorLine(got.stderr)}`;
  const want = trimTrailing(record.native.stdout);
  const have = trimTrailing(got.stdout);
  if (want === have) return 'trailing whitespace';
  if (want.replace(/\s+/g, '') === have.replace(/\s+/g, '')) return 'spacing or line breaks (e.g. how arrays are printed)';
  if (differsOnlyInNumbers(want, have)) return 'number formatting';
  if (want.split('\n').sort().join('\n') === have.split('\n').sort().join('\n')) return 'line order (hash or sort order)';
  if (have.length < want.length && want.startsWith(have)) return 'output cut short';
  return `output differs at line ${firstDifferentLine(want, have)}`;
}

function firstErrorLine(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  const line = lines.find((l) => /error|exception|fatal|abort/i.test(l)) ?? lines.at(-1) ?? '(no stderr)';
  return line.length > 100 ? `${line.slice(0, 100)}…` : line;
}

function firstDifferentLine(a: string, b: string): number {
  const x = a.split('\n');
  const y = b.split('\n');
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  return i + 1;
}

export function compareDifferential(record: DifferentialRecord, got: ExecutionReport): DifferentialOutcome {
  const exitAgrees = !got.timedOut && zero(got.exitCode) === zero(record.native.exitCode);
  const stdoutExact = got.stdout === record.native.stdout;
  const stdoutTrimmed = stdoutExact || trimTrailing(got.stdout) === trimTrailing(record.native.stdout);
  const stderrAgrees = stderrClass(got.stderr) === record.native.stderr;
  const cause = exitAgrees && stdoutExact ? null : classifyDifference(record, got);
  return { record, exitAgrees, stdoutExact, stdoutTrimmed, stderrAgrees, cause };
}

export function summarizeDifferential(language: LanguageId, outcomes: DifferentialOutcome[], runtime: string): DifferentialSummary {
  const share = (f: (o: DifferentialOutcome) => boolean) => (outcomes.length ? outcomes.filter(f).length / outcomes.length : 0);
  return {
    language,
    programs: outcomes.length,
    exitAgreement: share((o) => o.exitAgrees),
    stdoutExact: share((o) => o.stdoutExact),
    stdoutTrimmed: share((o) => o.stdoutTrimmed),
    stderrClass: share((o) => o.stderrAgrees),
    disagreements: outcomes.filter((o) => o.cause !== null),
    runtime,
  };
}

/** A reproducible draw of `n` items (mulberry32 + Fisher–Yates), the same on every machine. */
export function seededSample<T>(items: readonly T[], n: number, seed: number): T[] {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

/**
 * CI's draw: the records sorted by program length and cut into `n` strata of equal size, one
 * seeded pick from each, so a small sample spans short and long programs alike.
 */
export function stratifiedSample(records: readonly DifferentialRecord[], n: number, seed: number): DifferentialRecord[] {
  if (n >= records.length) return [...records];
  const sorted = [...records].sort((a, b) => a.program.length - b.program.length || a.path.localeCompare(b.path));
  return Array.from({ length: n }, (_, i) => {
    const stratum = sorted.slice(Math.floor((i * sorted.length) / n), Math.floor(((i + 1) * sorted.length) / n));
    return seededSample(stratum, 1, seed + i)[0]!;
  });
}

/** Runs one language's records through an executor (in parallel up to its pool) and compares. */
export async function runDifferential(
  language: LanguageId,
  records: readonly DifferentialRecord[],
  executor: Executor,
  onResult?: (outcome: DifferentialOutcome) => void,
): Promise<DifferentialSummary> {
  let runtime = '';
  const outcomes = await Promise.all(records.map(async (record) => {
    // The official time limit, as in an evaluation (natively each program finished within 5 s).
    const result = await executor.run({ language, program: record.program, timeoutMs: officialTimeoutMs(language) });
    runtime ||= result.runtime;
    // A declined program (routed to the runner in `auto`) is not a disagreement of the runtime's
    // output, but here it counts against agreement: the page cannot judge it.
    const outcome = result.declined
      ? { record, exitAgrees: false, stdoutExact: false, stdoutTrimmed: false, stderrAgrees: false, cause: `declined: ${result.declined}` }
      : compareDifferential(record, result);
    onResult?.(outcome);
    return outcome;
  }));
  return summarizeDifferential(language, outcomes, runtime);
}
