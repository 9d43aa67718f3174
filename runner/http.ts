/**
 * The runner's HTTP plumbing, apart from its routes: reading a bounded body, bearer auth, CORS
 * headers, writing JSON, and turning a thrown error into the response the official sandbox gives.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { QueueFullError } from './limiter';

const BODY_LIMIT = 8 * 1024 * 1024;

/** An error that is answered with its own status and body. */
export class HttpError extends Error {
  constructor(readonly status: number, message: string, readonly body?: object) {
    super(message);
  }
}

/** The CORS headers for a listed origin ('*' lists all); none for any other. */
export function corsHeaders(req: IncomingMessage, origins: ReadonlySet<string>): Record<string, string> {
  const origin = req.headers.origin;
  if (!origin || !(origins.has(origin) || origins.has('*'))) return {};
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': 'retry-after' };
}

/** Whether the request carries the bearer token (compared in constant time); no token: everyone. */
export function authorized(req: IncomingMessage, token: string | undefined): boolean {
  if (!token) return true;
  const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!.trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function sendJson(res: ServerResponse, status: number, body: object | string, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', vary: 'Origin', ...headers });
  res.end(text);
}

/** Answers a CORS preflight: allowed for listed origins, 403 for the rest. */
export function sendPreflight(res: ServerResponse, cors: Record<string, string>): void {
  if (!Object.keys(cors).length) return void res.writeHead(403, { vary: 'Origin' }).end();
  res.writeHead(204, {
    ...cors, vary: 'Origin', 'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': 'authorization, content-type', 'access-control-max-age': '600',
  });
  res.end();
}

/** A full queue is 503 + Retry-After, an HttpError its own status, anything else 500 (and logged). */
export function sendFailure(res: ServerResponse, e: unknown, cors: Record<string, string>, log: (line: string) => void): void {
  if (res.headersSent) return void res.destroy();
  if (e instanceof QueueFullError) {
    return sendJson(res, 503, { exec_outcome: 'INTERNAL_ERROR', exec_runtime_message: `${e.message}; retry after ${e.retryAfterSeconds} s` }, { ...cors, 'retry-after': String(e.retryAfterSeconds) });
  }
  if (e instanceof HttpError) return sendJson(res, e.status, e.body ?? { error: e.message }, cors);
  log(`error: ${(e as Error).stack ?? String(e)}`);
  sendJson(res, 500, { exec_outcome: 'INTERNAL_ERROR', exec_runtime_message: (e as Error).message }, cors);
}

/** The request body; past BODY_LIMIT the rest is read but not kept, and the request refused with 413. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
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
