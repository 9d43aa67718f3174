/**
 * The one runtime interface (DESIGN.md): a runtime gets a complete, already spliced program and
 * a time limit, and reports what happened. It never decides pass or fail (src/core/rules does).
 */
import type { LanguageId } from '../src/core/languages';
import type { ExecutionReport } from '../src/core/rules';

export interface RunRequest {
  language: LanguageId;
  program: string;
  timeoutMs: number;
}

export interface RunResult extends ExecutionReport {
  durationMs: number;
  /** Which runtime produced this result, e.g. "pyodide 314.0.7 (CPython 3.14.2)". */
  runtime: string;
  /** A stream was cut at the capture limit. */
  truncated?: boolean;
}

/** Executes programs for one or more languages (a worker pool, native processes, a remote runner). */
export interface Executor {
  /** Languages this executor can run. */
  languages(): readonly LanguageId[];
  run(request: RunRequest): Promise<RunResult>;
  dispose(): Promise<void>;
}

/** An engine for one language inside one worker: loaded once, runs programs one at a time. */
export interface LanguageRuntime {
  /** Name and version, recorded in every result. */
  readonly description: string;
  run(program: string, timeoutMs: number): Promise<Omit<RunResult, 'runtime'>>;
}

/** The executor could not run the program for a reason that is not the program's fault. */
export class InfrastructureError extends Error {}

/** Keeps at most `limit` characters of a stream, marking the cut. */
export const OUTPUT_LIMIT = 1 << 20;
export function capOutput(text: string, limit = OUTPUT_LIMIT): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  return { text: text.slice(0, limit) + `\n[… truncated: ${text.length - limit} more characters]`, truncated: true };
}
