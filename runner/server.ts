/**
 * The runner's HTTP service (SPEC §6): POST /submit and /splice_code with the official field names
 * and statuses, GET /health and GET /languages; bearer auth, CORS for listed origins, a bounded
 * queue (503 + Retry-After when full). In proxy mode /submit and /splice_code go to an upstream
 * sandbox (e.g. the official image) and this service only adds auth, CORS and the queue.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { LANGUAGE_IDS, LANGUAGE_NAMES, normalizeLanguage, type LanguageId, type Outcome } from '../src/contracts';
import { judgeRun, languageRule, precheckProgram, spliceProgram } from '../src/core/rules';
import type { HealthResponse, LanguagesResponse, ResponseExtensions, SubmitRequest, SubmitResponse } from '../runtimes/remote/protocol';
import { UnavailableError, type LanguageExecutor, type RunReport } from './execute';
import { acceptedHosts, guardRequest } from './guard';
import { Limiter, QueueFullError } from './limiter';
import { SandboxError } from './sandbox';
import { TOOLCHAINS } from './toolchains';

export interface RunnerOptions {
  /** Sandbox mode: runs programs here. */
  executor?: LanguageExecutor;
  /** Resolves when the executor has probed its languages. */
  ready?: Promise<void>;
  /** Proxy mode: forwards /submit and /splice_code to this base URL. */
  upstream?: string;
  /** Bearer token sent to the upstream. */
  upstreamToken?: string;
  isolation?: string;
  /** Bearer token clients must send (none: no auth). */
  token?: string;
  /** Origins allowed by CORS (and allowed to send requests at all); '*' allows any. */
  allowedOrigins?: readonly string[];
  /** Host names accepted besides loopback and the listen address (DNS rebinding); '*' accepts any. */
  allowedHosts?: readonly string[];
  maxConcurrency: number;
  queueLimit: number;
  /** Upper bound of a requested time limit, seconds. */
  maxTimeoutSeconds?: number;
  /** One line per request and per error. */
  log?: (line: string) => void;
}

const BODY_LIMIT = 8 * 1024 * 1024;

class HttpError extends Error {
  constructor(readonly status: number, message: string, readonly body?: object) {
    super(message);
  }
}

export interface RunnerServer {
  server: Server;
  limiter: Limiter;
  listen(port: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

export function createRunnerServer(options: RunnerOptions): RunnerServer {
  if (!options.executor === !options.upstream) throw new Error('a runner needs exactly one of executor and upstream');
  const limiter = new Limiter(options.maxConcurrency, options.queueLimit);
  const log = options.log ?? (() => {});
  const origins = new Set(options.allowedOrigins ?? []);
  let hosts = acceptedHosts('127.0.0.1', options.allowedHosts);
  const maxTimeoutMs = (options.maxTimeoutSeconds ?? 120) * 1000;
  const upstream = options.upstream?.replace(/\/+$/, '');
  let ready = !options.ready;
  options.ready?.then(() => { ready = true; }, () => {});

  const corsHeaders = (req: IncomingMessage): Record<string, string> => {
    const origin = req.headers.origin;
    if (!origin || !(origins.has(origin) || origins.has('*'))) return {};
    return { 'access-control-allow-origin': origin, 'access-control-expose-headers': 'retry-after' };
  };

  const authorized = (req: IncomingMessage): boolean => {
    if (!options.token) return true;
    const header = req.headers.authorization ?? '';
    const m = /^Bearer\s+(.+)$/i.exec(header);
    if (!m) return false;
    const given = Buffer.from(m[1]!.trim());
    const expected = Buffer.from(options.token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  const health = (): HealthResponse => ({
    status: ready ? 'ok' : 'starting',
    mode: upstream ? 'proxy' : 'sandbox',
    ...(upstream ? { upstream } : { isolation: options.isolation }),
    running: limiter.running,
    queued: limiter.queued,
    max_concurrency: limiter.concurrency,
    queue_limit: limiter.queueLimit,
  });

  const languages = async (): Promise<LanguagesResponse> => {
    if (options.executor) {
      await options.ready;
      return { languages: options.executor.languages() };
    }
    // An upstream benchtop runner knows its languages; the official sandbox has no such endpoint.
    try {
      const r = await fetch(`${upstream}/languages`, { headers: upstreamHeaders(), signal: AbortSignal.timeout(10_000) });
      if (r.ok) return (await r.json()) as LanguagesResponse;
    } catch { /* fall through */ }
    return {
      languages: LANGUAGE_IDS.map((id) => ({
        id, name: LANGUAGE_NAMES[id], available: true, version: 'unknown (upstream sandbox)', command: TOOLCHAINS[id].command,
        official_command: languageRule(id).officialCommand, official_version: TOOLCHAINS[id].official, timeout_seconds: languageRule(id).timeoutSeconds,
      })),
    };
  };

  const upstreamHeaders = (): Record<string, string> => ({
    'content-type': 'application/json',
    ...(options.upstreamToken ? { authorization: `Bearer ${options.upstreamToken}` } : {}),
  });

  /** Official timeout rule: the requested seconds plus the language's extra; benchtop's timeout_ms is exact. */
  const timeoutFor = (language: LanguageId, body: SubmitRequest): number => {
    const rule = languageRule(language);
    const ext = body.request_extensions ?? {};
    let ms = rule.timeoutSeconds * 1000;
    if (typeof ext.timeout_ms === 'number' && ext.timeout_ms > 0) ms = ext.timeout_ms;
    else if (ext.timeout !== undefined && Number.isFinite(Number(ext.timeout)) && Number(ext.timeout) > 0) {
      ms = (Number(ext.timeout) + rule.timeoutSeconds - 30) * 1000;
    }
    return Math.min(maxTimeoutMs, Math.max(1000, Math.round(ms)));
  };

  const submit = async (body: SubmitRequest, signal: AbortSignal): Promise<[number, SubmitResponse]> => {
    const srcUid = typeof body.src_uid === 'string' || typeof body.src_uid === 'number' ? String(body.src_uid) : '';
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

    const executor = options.executor!;
    await options.ready;
    const info = executor.describe(language);
    if (!info?.available) {
      return [501, answer('INTERNAL_ERROR', {
        all_code: allCode,
        exec_runtime_message: info?.install ?? `unavailable: ${language}`,
        response_extensions: { unavailable: true },
      })];
    }
    const timeoutMs = timeoutFor(language, body);
    let report: RunReport;
    try {
      report = await limiter.run((slot) => executor.run(language, program, timeoutMs, slot, signal), signal);
    } catch (e) {
      if (e instanceof QueueFullError) throw e;
      if (e instanceof UnavailableError) {
        return [501, answer('INTERNAL_ERROR', { all_code: allCode, exec_runtime_message: e.message, response_extensions: { unavailable: true } })];
      }
      if (e instanceof SandboxError || e instanceof Error) {
        log(`error: ${language} ${srcUid}: ${e.message}`);
        return [500, answer('INTERNAL_ERROR', { all_code: allCode, exec_runtime_message: e.message })];
      }
      throw e;
    }
    const outcome = judgeRun(language, report);
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
    const compileStage = report.compileFailed || report.compileTimedOut;
    return [200, answer(outcome, {
      all_code: allCode,
      exec_cout: report.stdout,
      exec_compile_message: outcome !== 'PASSED' && compileStage ? report.compileOutput : '',
      exec_runtime_message: outcome !== 'PASSED' && !compileStage ? report.stderr : '',
      response_extensions: extensions,
    })];
  };

  const splice = (body: SubmitRequest): [number, object] => {
    const srcUid = typeof body.src_uid === 'string' || typeof body.src_uid === 'number' ? String(body.src_uid) : '';
    for (const field of ['src_uid', 'lang', 'func_code', 'main_code'] as const) {
      if (!body[field]) return [200, { src_uid: srcUid, splice_outcome: 'ARGUMENT_ERROR', splice_message: `Missing required field: ${field}` }];
    }
    const language = normalizeLanguage(String(body.lang));
    if (!language) return [500, { splice_outcome: 'INTERNAL_ERROR', splice_message: `Unsupported language: ${String(body.lang)}` }];
    return [200, { src_uid: srcUid, all_code: spliceProgram(language, String(body.func_code), String(body.main_code)) }];
  };

  const forward = async (path: string, raw: Buffer, signal: AbortSignal): Promise<{ status: number; body: string; retryAfter: string | null }> => {
    let response: Response;
    try {
      response = await fetch(`${upstream}${path}`, { method: 'POST', body: new Uint8Array(raw), headers: upstreamHeaders(), signal: AbortSignal.any([signal, AbortSignal.timeout(maxTimeoutMs * 2 + 60_000)]) });
    } catch (e) {
      throw new HttpError(502, `upstream ${upstream} unreachable: ${(e as Error).message}`, { exec_outcome: 'INTERNAL_ERROR', exec_runtime_message: `upstream unreachable: ${(e as Error).message}` });
    }
    return { status: response.status, body: await response.text(), retryAfter: response.headers.get('retry-after') };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const cors = corsHeaders(req);
    const send = (status: number, body: object | string, headers: Record<string, string> = {}) => {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', vary: 'Origin', ...cors, ...headers });
      res.end(text);
    };
    const path = new URL(req.url ?? '/', 'http://runner').pathname;
    const refusal = guardRequest(req, path, hosts, origins);
    if (refusal) return send(refusal.status, { error: refusal.error });
    if (req.method === 'OPTIONS') {
      if (!Object.keys(cors).length) return void res.writeHead(403, { vary: 'Origin' }).end();
      res.writeHead(204, {
        ...cors, vary: 'Origin', 'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': 'authorization, content-type', 'access-control-max-age': '600',
      });
      return void res.end();
    }
    if (req.method === 'GET' && path === '/health') return send(200, health());
    if (!authorized(req)) return send(401, { error: 'unauthorized: send Authorization: Bearer <token>' }, { 'www-authenticate': 'Bearer' });
    if (req.method === 'GET' && path === '/languages') return send(200, await languages());
    if (req.method !== 'POST' || (path !== '/submit' && path !== '/splice_code')) return send(404, { error: `no route ${req.method} ${path}` });

    const raw = await readBody(req);
    const cancelled = new AbortController();
    res.on('close', () => { if (!res.writableFinished) cancelled.abort(); });
    if (upstream) {
      const relay = path === '/submit'
        ? await limiter.run(() => forward(path, raw, cancelled.signal), cancelled.signal)
        : await forward(path, raw, cancelled.signal);
      return send(relay.status, relay.body, relay.retryAfter ? { 'retry-after': relay.retryAfter } : {});
    }
    let body: SubmitRequest;
    try {
      body = JSON.parse(raw.toString('utf8')) as SubmitRequest;
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('not a JSON object');
    } catch (e) {
      const message = `request body is not a JSON object: ${(e as Error).message}`;
      return send(400, path === '/submit' ? { exec_outcome: 'ARGUMENT_ERROR', exec_runtime_message: message } : { splice_outcome: 'ARGUMENT_ERROR', splice_message: message });
    }
    if (path === '/splice_code') {
      const [status, answer] = splice(body);
      return send(status, answer);
    }
    const started = performance.now();
    const [status, answer] = await submit(body, cancelled.signal);
    log(`${answer.src_uid} ${String(body.lang)} → ${answer.exec_outcome} (${Math.round(performance.now() - started)} ms)`);
    return send(status, answer);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (res.headersSent) return void res.destroy();
      const headers = { 'content-type': 'application/json; charset=utf-8', vary: 'Origin', ...corsHeaders(req) };
      if (e instanceof QueueFullError) {
        res.writeHead(503, { ...headers, 'retry-after': String(e.retryAfterSeconds) });
        return void res.end(JSON.stringify({ exec_outcome: 'INTERNAL_ERROR', exec_runtime_message: `${e.message}; retry after ${e.retryAfterSeconds} s` }));
      }
      if (e instanceof HttpError) {
        res.writeHead(e.status, headers);
        return void res.end(JSON.stringify(e.body ?? { error: e.message }));
      }
      log(`error: ${(e as Error).stack ?? String(e)}`);
      res.writeHead(500, headers);
      res.end(JSON.stringify({ exec_outcome: 'INTERNAL_ERROR', exec_runtime_message: (e as Error).message }));
    });
  });
  // Long runs: never let Node's default timeouts cut a request that is waiting for its program.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;

  return {
    server,
    limiter,
    listen: (port, host = '127.0.0.1') => new Promise((resolve, reject) => {
      hosts = acceptedHosts(host, options.allowedHosts);
      server.once('error', reject);
      server.listen(port, host, () => {
        const { address, port: actual } = server.address() as AddressInfo;
        resolve(`http://${address.includes(':') ? `[${address}]` : address}:${actual}`);
      });
    }),
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (b: Buffer) => {
      size += b.length;
      if (size <= BODY_LIMIT) chunks.push(b);
    });
    req.on('end', () => {
      if (size <= BODY_LIMIT) return resolve(Buffer.concat(chunks));
      reject(new HttpError(413, 'request body too large', { exec_outcome: 'ARGUMENT_ERROR', exec_runtime_message: `request body larger than ${BODY_LIMIT} bytes` }));
    });
    req.on('error', reject);
  });
}
