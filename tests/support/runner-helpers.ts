/** Shared by the runner tests: start runners in-process on 127.0.0.1, and talk to them. */
import { prepareExecutor, startRunner, type PreparedExecutor, type RunnerConfig, type StartedRunner } from '../../runner/runner';
import type { SubmitRequest, SubmitResponse } from '../../runtimes/remote/protocol';

export const BASE_CONFIG: RunnerConfig = {
  port: 0,
  host: '127.0.0.1',
  allowedOrigins: [],
  maxConcurrency: 2,
  queueLimit: 64,
  maxTimeoutSeconds: 120,
  allowUnsandboxed: false,
  uidBase: 61000,
};

let shared: Promise<PreparedExecutor> | undefined;
/** One isolation self-test and toolchain probe per test file. */
export function sharedExecutor(): Promise<PreparedExecutor> {
  shared ??= prepareExecutor(BASE_CONFIG).then(async (p) => (await p.ready, p));
  return shared;
}

export async function startTestRunner(config: Partial<RunnerConfig> = {}, prepared?: PreparedExecutor): Promise<StartedRunner> {
  const full = { ...BASE_CONFIG, ...config };
  return startRunner(full, full.upstream ? {} : { prepared: prepared ?? await sharedExecutor() });
}

export interface Reply<T> {
  status: number;
  headers: Headers;
  body: T;
}

export async function post<T = SubmitResponse>(url: string, path: string, body: SubmitRequest | object | string, headers: Record<string, string> = {}): Promise<Reply<T>> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T };
}

export async function get<T = unknown>(url: string, path: string, headers: Record<string, string> = {}): Promise<Reply<T>> {
  const response = await fetch(`${url}${path}`, { headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T };
}

/** Runs a complete program; `timeoutMs` is the exact limit of each step. */
export function submit(url: string, lang: string, source: string, timeoutMs?: number, headers?: Record<string, string>) {
  return post(url, '/submit', {
    src_uid: `t-${Math.random().toString(36).slice(2)}`,
    lang,
    source_code: source,
    ...(timeoutMs ? { request_extensions: { timeout_ms: timeoutMs } } : {}),
  }, headers);
}
