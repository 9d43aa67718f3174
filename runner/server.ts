/**
 * The runner's HTTP service (SPEC §6): POST /submit and /splice_code with the official field names
 * and statuses, GET /health, GET /metrics (Prometheus) and GET /languages; bearer auth, CORS for listed origins, a bounded
 * queue (503 + Retry-After when full). In proxy mode /submit and /splice_code go to an upstream
 * sandbox (e.g. the official image) and this service only adds auth, CORS and the queue.
 * This file holds the routes; http.ts the plumbing, submit.ts sandbox mode, upstream.ts proxy mode.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HealthResponse, LanguagesResponse, SubmitRequest } from '../runtimes/remote/protocol';
import type { ToolchainRunner } from './execute';
import { acceptedHosts, guardRequest } from './guard';
import { authorized, corsHeaders, readBody, sendFailure, sendJson, sendPreflight } from './http';
import { Limiter } from './limiter';
import { splice, submit, type SubmitContext } from './submit';
import { Upstream } from './upstream';

export interface RunnerOptions {
  /** Sandbox mode: runs programs here. */
  executor?: ToolchainRunner;
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

export interface RunnerServer {
  server: Server;
  limiter: Limiter;
  listen(port: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

/** GET /metrics: the run slots and the queue as Prometheus gauges. */
function metrics(h: HealthResponse): string {
  const gauge = (name: string, help: string, value: number) => `# HELP ${name} ${help}\n# TYPE ${name} gauge\n${name} ${value}\n`;
  return gauge('benchtop_runner_queued', 'Programs waiting for a run slot.', h.queued)
    + gauge('benchtop_runner_running', 'Programs running now.', h.running)
    + gauge('benchtop_runner_max_concurrency', 'Run slots (MAX_CONCURRENCY).', h.max_concurrency)
    + gauge('benchtop_runner_ready', '1 once every toolchain is probed.', h.status === 'ok' ? 1 : 0);
}

export function createRunnerServer(options: RunnerOptions): RunnerServer {
  if (!options.executor === !options.upstream) throw new Error('a runner needs exactly one of executor and upstream');
  const limiter = new Limiter(options.maxConcurrency, options.queueLimit);
  const log = options.log ?? (() => {});
  const origins = new Set(options.allowedOrigins ?? []);
  let hosts = acceptedHosts('127.0.0.1', options.allowedHosts);
  const maxTimeoutMs = (options.maxTimeoutSeconds ?? 120) * 1000;
  const upstream = options.upstream ? new Upstream(options.upstream.replace(/\/+$/, ''), options.upstreamToken, maxTimeoutMs) : undefined;
  const sandbox: SubmitContext | undefined = options.executor && { executor: options.executor, ready: options.ready, limiter, maxTimeoutMs, log };
  let ready = !options.ready;
  options.ready?.then(() => { ready = true; }, () => {});

  const health = (): HealthResponse => ({
    status: ready ? 'ok' : 'starting',
    mode: upstream ? 'proxy' : 'sandbox',
    ...(upstream ? { upstream: upstream.base } : { isolation: options.isolation }),
    running: limiter.running,
    queued: limiter.queued,
    max_concurrency: limiter.concurrency,
    queue_limit: limiter.queueLimit,
  });

  const languages = async (): Promise<LanguagesResponse> => {
    if (upstream) return upstream.languages();
    await options.ready;
    return { languages: sandbox!.executor.languages() };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const cors = corsHeaders(req, origins);
    const send = (status: number, body: object | string, headers: Record<string, string> = {}) => sendJson(res, status, body, { ...cors, ...headers });
    const path = new URL(req.url ?? '/', 'http://runner').pathname;
    const refusal = guardRequest(req, path, hosts, origins);
    if (refusal) return send(refusal.status, { error: refusal.error });
    if (req.method === 'OPTIONS') return sendPreflight(res, cors);
    if (req.method === 'GET' && path === '/health') return send(200, health());
    if (req.method === 'GET' && path === '/metrics') {
      // Prometheus text format, public like /health: the queue length an autoscaler can follow.
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', ...cors });
      return void res.end(metrics(health()));
    }
    if (!authorized(req, options.token)) return send(401, { error: 'unauthorized: send Authorization: Bearer <token>' }, { 'www-authenticate': 'Bearer' });
    if (req.method === 'GET' && path === '/languages') return send(200, await languages());
    if (req.method !== 'POST' || (path !== '/submit' && path !== '/splice_code')) return send(404, { error: `no route ${req.method} ${path}` });

    const raw = await readBody(req);
    const cancelled = new AbortController();
    res.on('close', () => { if (!res.writableFinished) cancelled.abort(); });
    if (upstream) {
      // only runs take a queue slot; splicing is cheap
      const relay = path === '/submit'
        ? await limiter.run(() => upstream.forward(path, raw, cancelled.signal), cancelled.signal)
        : await upstream.forward(path, raw, cancelled.signal);
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
    const [status, answer] = await submit(sandbox!, body, cancelled.signal);
    log(`${answer.src_uid} ${String(body.lang)} → ${answer.exec_outcome} (${Math.round(performance.now() - started)} ms)`);
    return send(status, answer);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => sendFailure(res, e, corsHeaders(req, origins), log));
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
