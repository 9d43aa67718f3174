/**
 * Sandbox mode's two POST routes (SPEC §6): /submit runs a program here and answers with the
 * official fields, /splice_code splices func_code into main_code. Both are pure request → [status,
 * body] functions; routing and HTTP live in server.ts and http.ts.
 */
import { normalizeLanguage, type LanguageId, type Outcome } from '../src/contracts';
import { judgeRun, languageRule, precheckProgram, spliceProgram } from '../src/core/rules';
import type { ResponseExtensions, SubmitRequest, SubmitResponse } from '../runtimes/remote/protocol';
import { UnavailableError, type ToolchainRunner, type RunReport } from './execute';
import { QueueFullError, type Limiter } from './limiter';
import { SandboxError } from './sandbox';

export interface SubmitContext {
  executor: ToolchainRunner;
  /** Resolves when the executor has probed its languages. */
  ready?: Promise<void>;
  limiter: Limiter;
  /** Upper bound of a requested time limit, ms. */
  maxTimeoutMs: number;
  log: (line: string) => void;
}

const srcUidOf = (body: SubmitRequest): string =>
  typeof body.src_uid === 'string' || typeof body.src_uid === 'number' ? String(body.src_uid) : '';

/** Official timeout rule: the requested seconds plus the language's extra; benchtop's timeout_ms is exact. */
export function timeoutFor(language: LanguageId, body: SubmitRequest, maxTimeoutMs: number): number {
  const rule = languageRule(language);
  const ext = body.request_extensions ?? {};
  let ms = rule.timeoutSeconds * 1000;
  if (typeof ext.timeout_ms === 'number' && ext.timeout_ms > 0) ms = ext.timeout_ms;
  else if (ext.timeout !== undefined && Number.isFinite(Number(ext.timeout)) && Number(ext.timeout) > 0) {
    ms = (Number(ext.timeout) + rule.timeoutSeconds - 30) * 1000;
  }
  return Math.min(maxTimeoutMs, Math.max(1000, Math.round(ms)));
}

export async function submit(ctx: SubmitContext, body: SubmitRequest, signal: AbortSignal): Promise<[number, SubmitResponse]> {
  const srcUid = srcUidOf(body);
  const answer = (outcome: Outcome, fields: Partial<SubmitResponse> = {}): SubmitResponse => ({
    src_uid: srcUid, all_code: '', exec_outcome: outcome, exec_cout: '', exec_compile_message: '', exec_runtime_message: '',
    response_extensions: {}, ...fields,
  });
  for (const field of ['src_uid', 'lang'] as const) {
    if (!body[field]) return [200, answer('ARGUMENT_ERROR', { exec_runtime_message: `Missing required field: ${field}` })];
  }
  const language = normalizeLanguage(String(body.lang));
  if (!language) return [500, answer('INTERNAL_ERROR', { exec_runtime_message: `Unsupported language: ${String(body.lang)}` })];
  let program: string;
  let allCode = '';
  if (typeof body.source_code === 'string' && body.source_code) program = body.source_code;
  else if (typeof body.func_code === 'string' && body.func_code && typeof body.main_code === 'string' && body.main_code) {
    program = allCode = spliceProgram(language, body.func_code, body.main_code);
  } else {
    return [200, answer('ARGUMENT_ERROR', { exec_runtime_message: 'Missing required field: source_code (or func_code and main_code)' })];
  }
  const early = precheckProgram(language, program);
  if (early) return [200, answer(early, { all_code: allCode, exec_runtime_message: 'Syntax error detected' })];

  const { executor } = ctx;
  await ctx.ready;
  const info = executor.describe(language);
  if (!info?.available) {
    return [501, answer('INTERNAL_ERROR', {
      all_code: allCode,
      exec_runtime_message: info?.install ?? `unavailable: ${language}`,
      response_extensions: { unavailable: true },
    })];
  }
  const timeoutMs = timeoutFor(language, body, ctx.maxTimeoutMs);
  let report: RunReport;
  try {
    report = await ctx.limiter.run((slot) => executor.run(language, program, timeoutMs, slot, signal), signal);
  } catch (e) {
    if (e instanceof QueueFullError) throw e;
    if (e instanceof UnavailableError) {
      return [501, answer('INTERNAL_ERROR', { all_code: allCode, exec_runtime_message: e.message, response_extensions: { unavailable: true } })];
    }
    if (e instanceof SandboxError || e instanceof Error) {
      ctx.log(`error: ${language} ${srcUid}: ${e.message}`);
      return [500, answer('INTERNAL_ERROR', { all_code: allCode, exec_runtime_message: e.message })];
    }
    throw e;
  }
  const outcome = judgeRun(language, report);
  const compileStage = report.compileFailed || report.compileTimedOut;
  return [200, answer(outcome, {
    all_code: allCode,
    exec_cout: report.stdout,
    exec_compile_message: outcome !== 'PASSED' && compileStage ? report.compileOutput : '',
    exec_runtime_message: outcome !== 'PASSED' && !compileStage ? report.stderr : '',
    response_extensions: extensionsFor(language, report, timeoutMs),
  })];
}

/** benchtop's extra fields: the run as the sandbox saw it. */
function extensionsFor(language: LanguageId, report: RunReport, timeoutMs: number): ResponseExtensions {
  const extensions: ResponseExtensions = {
    exit_code: report.exitCode,
    stdout: report.stdout,
    stderr: report.stderr,
    timeout: report.timedOut || Boolean(report.compileTimedOut),
    cmd: report.command,
    timeout_seconds: timeoutMs / 1000,
    compile_failed: Boolean(report.compileFailed),
    compile_timed_out: Boolean(report.compileTimedOut),
    compile_output: report.compileOutput,
    duration_ms: Math.round(report.durationMs),
    runtime: report.runtime,
    truncated: report.truncated,
    output_limit_exceeded: report.outputLimitExceeded,
  };
  if (language === 'java') extensions.tests = report.testReport ?? null;
  return extensions;
}

export function splice(body: SubmitRequest): [number, object] {
  const srcUid = srcUidOf(body);
  for (const field of ['src_uid', 'lang', 'func_code', 'main_code'] as const) {
    if (!body[field]) return [200, { src_uid: srcUid, splice_outcome: 'ARGUMENT_ERROR', splice_message: `Missing required field: ${field}` }];
  }
  const language = normalizeLanguage(String(body.lang));
  if (!language) return [500, { splice_outcome: 'INTERNAL_ERROR', splice_message: `Unsupported language: ${String(body.lang)}` }];
  return [200, { src_uid: srcUid, all_code: spliceProgram(language, String(body.func_code), String(body.main_code)) }];
}
