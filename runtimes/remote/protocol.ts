/**
 * The runner protocol (SPEC §6), compatible with the official MultiLanguageSandbox: the official
 * field names and status strings, plus benchtop's additions (all optional, prefixed by nothing the
 * official service uses) inside `response_extensions`. Shared by the runner and its client.
 */
import type { LanguageId, Outcome, RunResult, TestReport } from '../../src/contracts';

export interface SubmitRequest {
  src_uid: string;
  lang: string;
  /** A complete program; wins over func_code + main_code. */
  source_code?: string;
  /** Solution and tests, spliced by the runner. */
  func_code?: string;
  main_code?: string;
  request_extensions?: {
    /** Seconds; the runner adds the language's extra (official behaviour). */
    timeout?: number;
    /** benchtop: the exact wall time limit of each step in milliseconds (the language's extra is not added). */
    timeout_ms?: number;
  };
}

export interface ResponseExtensions {
  exit_code?: number | null;
  stdout?: string;
  stderr?: string;
  /** The run (or the compile step) hit the time limit. */
  timeout?: boolean;
  cmd?: string;
  // benchtop additions
  timeout_seconds?: number;
  compile_failed?: boolean;
  compile_timed_out?: boolean;
  compile_output?: string;
  /** Java: JUnit's counts. */
  tests?: TestReport | null;
  duration_ms?: number;
  runtime?: string;
  truncated?: boolean;
  output_limit_exceeded?: boolean;
  /** The language's toolchain is not installed on this runner. */
  unavailable?: boolean;
  [key: string]: unknown;
}

export interface SubmitResponse {
  src_uid: string;
  all_code: string;
  exec_outcome: Outcome;
  exec_cout: string;
  exec_compile_message: string;
  exec_runtime_message: string;
  response_extensions: ResponseExtensions;
}

export interface SpliceResponse {
  src_uid: string;
  all_code: string;
}

export interface RunnerLanguage {
  id: LanguageId;
  name: string;
  available: boolean;
  version: string;
  command: string;
  official_command: string;
  official_version: string;
  timeout_seconds: number;
  install?: string;
}

export interface LanguagesResponse {
  languages: RunnerLanguage[];
}

export interface HealthResponse {
  status: 'ok' | 'starting';
  mode: 'sandbox' | 'proxy';
  isolation?: string;
  upstream?: string;
  running: number;
  queued: number;
  max_concurrency: number;
  queue_limit: number;
}

/**
 * What a runner's answer says about the execution, for src/core/rules's `judgeRun` (the client
 * re-derives the outcome from the output rather than trusting the label, so that every executor
 * is judged by the same rules). An official sandbox reports no compile flags and no JUnit counts:
 * they are inferred from its `exec_outcome`.
 */
export function runResultFromResponse(language: LanguageId, response: SubmitResponse, durationMs: number): RunResult {
  const ext = response.response_extensions ?? {};
  const outcome = response.exec_outcome;
  const compileFailed = ext.compile_failed ?? outcome === 'COMPILATION_ERROR';
  const compileTimedOut = ext.compile_timed_out ?? false;
  const timedOut = (ext.timeout ?? outcome === 'TIME_LIMIT_EXCEEDED') && !compileTimedOut;
  // WRONG_ANSWER means exit 0 with an error substring (SPEC §4, corrected 2026-12-01).
  const exitCode = typeof ext.exit_code === 'number' ? ext.exit_code : outcome === 'PASSED' || outcome === 'WRONG_ANSWER' ? 0 : null;
  const result: RunResult = {
    exitCode: timedOut ? null : exitCode,
    stdout: ext.stdout ?? response.exec_cout ?? '',
    stderr: ext.stderr ?? response.exec_runtime_message ?? '',
    timedOut,
    compileFailed,
    compileTimedOut,
    durationMs: typeof ext.duration_ms === 'number' ? ext.duration_ms : durationMs,
    runtime: ext.runtime ?? 'remote sandbox',
    truncated: ext.truncated ?? false,
  };
  if (language === 'java') {
    result.testReport = ext.tests !== undefined ? ext.tests : officialJavaCounts(outcome);
  }
  return result;
}

/** An official sandbox's Java verdict as JUnit counts, so that `javaOutcome` gives the same outcome. */
function officialJavaCounts(outcome: Outcome): TestReport | null {
  if (outcome === 'PASSED') return { tests: 1, failed: 0, skipped: 0 };
  if (outcome === 'WRONG_ANSWER') return { tests: 1, failed: 1, skipped: 0 };
  return null;
}
