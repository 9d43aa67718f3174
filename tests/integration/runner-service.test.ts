/**
 * The runner service (runner/): the official protocol and statuses, /splice_code on the official
 * regression cases, auth, CORS, the bounded queue, proxy mode, and the bundled `npm run runner`.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConformanceCases } from '../../src/core/conformance';
import { normalizeLanguage } from '../../src/contracts';
import type { HealthResponse, LanguagesResponse, SpliceResponse, SubmitResponse } from '../../runtimes/remote/protocol';
import { ConfigError, prepareExecutor } from '../../runner/runner';
import type { StartedRunner } from '../../runner/runner';
import { BASE_CONFIG, get, post, sharedExecutor, startTestRunner, submit } from '../support/runner-helpers';

const started: StartedRunner[] = [];
const start = async (...args: Parameters<typeof startTestRunner>) => {
  const runner = await startTestRunner(...args);
  started.push(runner);
  return runner;
};
afterAll(async () => {
  await Promise.all(started.map((r) => r.close()));
});

let plain: StartedRunner;
beforeAll(async () => {
  plain = await start();
});

describe('protocol', () => {
  it('GET /health and GET /languages: all 20 languages, each available with a version or naming what to install', async () => {
    const health = await get<HealthResponse>(plain.url, '/health');
    expect(health.body).toMatchObject({ status: 'ok', mode: 'sandbox', max_concurrency: 2, queue_limit: 64 });
    expect(health.body.isolation).toMatch(/^bwrap-root|^bwrap-userns/);
    const { body } = await get<LanguagesResponse>(plain.url, '/languages');
    expect(body.languages.map((l) => l.id).sort()).toHaveLength(20);
    for (const l of body.languages) {
      if (l.available) expect(l.version, l.id).not.toBe('');
      else expect(l.install, l.id).toMatch(/^unavailable: install /);
      expect(l.official_command.length).toBeGreaterThan(0);
    }
    // Languages Debian cannot provide here answer "unavailable", never crash.
    for (const id of ['julia', 'dart', 'csharp', 'swift']) {
      const l = body.languages.find((x) => x.id === id)!;
      if (!l.available) {
        const reply = await submit(plain.url, id, 'x');
        expect(reply.status).toBe(501);
        expect(reply.body.exec_outcome).toBe('INTERNAL_ERROR');
        expect(reply.body.exec_runtime_message).toBe(l.install);
      }
    }
  });

  it('POST /submit with func_code + main_code splices (all_code) and runs; with source_code all_code is empty', async () => {
    const spliced = await post(plain.url, '/submit', { src_uid: 'u1', lang: 'py', func_code: 'def f():\n    return 2', main_code: 'assert f() == 2\nprint("ok")' });
    expect(spliced.status).toBe(200);
    expect(spliced.body).toMatchObject({ src_uid: 'u1', exec_outcome: 'PASSED', exec_cout: 'ok\n', all_code: 'def f():\n    return 2\nassert f() == 2\nprint("ok")' });
    expect(spliced.body.response_extensions).toMatchObject({ exit_code: 0, stdout: 'ok\n', stderr: '', timeout: false, cmd: 'python3 test.py', timeout_seconds: 30 });
    const wrong = await post(plain.url, '/submit', { src_uid: 'u2', lang: 'python', source_code: 'assert 1 == 2' });
    // A failed assert exits 1: RUNTIME_ERROR (SPEC §4, corrected 2026-12-01: exit code before substrings).
    expect(wrong.body).toMatchObject({ src_uid: 'u2', all_code: '', exec_outcome: 'RUNTIME_ERROR' });
    expect(wrong.body.exec_runtime_message).toContain('AssertionError');
  });

  it('official timeout rule: request_extensions.timeout plus the language extra; timeout_ms is exact', async () => {
    const official = await post(plain.url, '/submit', { src_uid: 'u', lang: 'cpp', source_code: 'int main(){}', request_extensions: { timeout: 5 } });
    expect(official.body.response_extensions.timeout_seconds).toBe(8);
    const exact = await post(plain.url, '/submit', { src_uid: 'u', lang: 'cpp', source_code: 'int main(){}', request_extensions: { timeout_ms: 4500 } });
    expect(exact.body.response_extensions.timeout_seconds).toBe(4.5);
    expect(exact.body.exec_outcome).toBe('PASSED');
  });

  it('ARGUMENT_ERROR for missing fields (HTTP 200), INTERNAL_ERROR + 500 for an unknown language, SYNTAX_ERROR from the PHP pre-check', async () => {
    for (const [body, field] of [
      [{ lang: 'python', source_code: 'x' }, 'src_uid'],
      [{ src_uid: 'a', source_code: 'x' }, 'lang'],
      [{ src_uid: 'a', lang: 'python' }, 'source_code'],
      [{ src_uid: 'a', lang: 'python', func_code: 'x' }, 'source_code'],
    ] as const) {
      const reply = await post(plain.url, '/submit', body);
      expect(reply.status).toBe(200);
      expect(reply.body.exec_outcome).toBe('ARGUMENT_ERROR');
      expect(reply.body.exec_runtime_message).toContain(`Missing required field: ${field}`);
    }
    const unknown = await post(plain.url, '/submit', { src_uid: 'a', lang: 'cobol', source_code: 'x' });
    expect(unknown.status).toBe(500);
    expect(unknown.body.exec_outcome).toBe('INTERNAL_ERROR');
    const notJson = await post(plain.url, '/submit', '{broken');
    expect(notJson.status).toBe(400);
    expect(notJson.body.exec_outcome).toBe('ARGUMENT_ERROR');
    const php = await post(plain.url, '/submit', { src_uid: 'a', lang: 'php', func_code: '<?php function f() { return 1; }', main_code: '<?php assert(f() === 1);' });
    expect(php.body).toMatchObject({ exec_outcome: 'SYNTAX_ERROR', exec_runtime_message: 'Syntax error detected' });
    const splice = await post(plain.url, '/splice_code', { src_uid: 'a', lang: 'python', func_code: 'x = 1' });
    expect(splice.body).toMatchObject({ splice_outcome: 'ARGUMENT_ERROR', splice_message: 'Missing required field: main_code' });
    expect((await get(plain.url, '/nothing')).status).toBe(404);
  });

  it('POST /splice_code reproduces the official all_code of every regression case, per language', async () => {
    const dir = 'bench-data/conformance/sandbox-cases/';
    const table: Record<string, string> = {};
    let total = 0;
    let equal = 0;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
      const lang = normalizeLanguage(file.replace('.jsonl', ''))!;
      const cases = parseConformanceCases(readFileSync(dir + file, 'utf8'));
      const replies = await Promise.all(cases.map((c, i) => post<SpliceResponse>(plain.url, '/splice_code', { src_uid: String(c.task_id ?? i), lang, func_code: c.code, main_code: c.assertions })));
      const same = replies.filter((r, i) => r.status === 200 && r.body.all_code === cases[i]!.all_code).length;
      table[lang] = `${same}/${cases.length}`;
      total += cases.length;
      equal += same;
    }
    console.log('/splice_code vs official all_code:', table);
    expect(Object.keys(table)).toHaveLength(14);
    expect(equal).toBe(total);
  });
});

describe('load', () => {
  it('50 concurrent requests with MAX_CONCURRENCY=4: each completes or gets 503 + Retry-After; none is lost', async () => {
    const runner = await start({ maxConcurrency: 4, queueLimit: 8 });
    let peak = 0;
    const sampler = setInterval(() => { peak = Math.max(peak, runner.limiter.running); }, 5);
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) =>
      post(runner.url, '/submit', { src_uid: `job-${i}`, lang: 'shell', source_code: `sleep 0.3; echo ${i}` })));
    clearInterval(sampler);
    const ok = replies.filter((r) => r.status === 200);
    const busy = replies.filter((r) => r.status === 503);
    expect(ok.length + busy.length).toBe(50);
    expect(ok.length).toBeGreaterThanOrEqual(12);
    for (const r of ok) expect(r.body.exec_cout).toBe(`${r.body.src_uid.slice(4)}\n`);
    for (const r of busy) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(peak).toBeLessThanOrEqual(4);
    expect(runner.limiter.running + runner.limiter.queued).toBe(0);
    // The busy ones succeed when sent again.
    const again = await Promise.all(busy.slice(0, 6).map((r, i) => post(runner.url, '/submit', { src_uid: `retry-${i}`, lang: 'shell', source_code: 'echo again' })));
    expect(again.map((r) => r.body.exec_outcome)).toEqual(Array(again.length).fill('PASSED'));
  });

  it('a full queue answers 503 with Retry-After at once', async () => {
    const runner = await start({ maxConcurrency: 1, queueLimit: 0 });
    const first = submit(runner.url, 'shell', 'sleep 1');
    while (runner.limiter.running === 0) await new Promise((r) => setTimeout(r, 10));
    const second = await submit(runner.url, 'shell', 'echo hi');
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await first).body.exec_outcome).toBe('PASSED');
  });
});

describe('auth and CORS', () => {
  it('RUNNER_TOKEN: bearer token required everywhere except /health', async () => {
    const runner = await start({ token: 's3cret-token' });
    expect((await get(runner.url, '/health')).status).toBe(200);
    expect((await get(runner.url, '/languages')).status).toBe(401);
    expect((await get(runner.url, '/languages', { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await submit(runner.url, 'shell', 'echo hi')).status).toBe(401);
    const ok = await submit(runner.url, 'shell', 'echo hi', undefined, { authorization: 'Bearer s3cret-token' });
    expect(ok.body.exec_outcome).toBe('PASSED');
    expect((await post(runner.url, '/splice_code', { src_uid: 'a', lang: 'python', func_code: 'a', main_code: 'b' })).status).toBe(401);
  });

  it('CORS headers only for ALLOWED_ORIGINS, preflight included', async () => {
    const runner = await start({ allowedOrigins: ['http://app.example'] });
    const allowed = await get(runner.url, '/health', { origin: 'http://app.example' });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://app.example');
    const other = await get(runner.url, '/health', { origin: 'http://evil.example' });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${runner.url}/submit`, { method: 'OPTIONS', headers: { origin: 'http://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const refused = await fetch(`${runner.url}/submit`, { method: 'OPTIONS', headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    // The official service sends no CORS headers at all: without ALLOWED_ORIGINS neither do we.
    expect((await get(plain.url, '/health', { origin: 'http://app.example' })).headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('proxy mode (--upstream)', () => {
  let fakeOfficial: Server;
  let fakeUrl = '';
  beforeAll(async () => {
    // Stands in for the official image: no /languages, answers /submit.
    fakeOfficial = createServer((req, res) => {
      if (req.url === '/submit') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ src_uid: 'x', all_code: '', exec_outcome: 'PASSED', exec_cout: 'official\n', exec_compile_message: '', exec_runtime_message: '', response_extensions: {} }));
      } else res.writeHead(404).end('Not Found');
    });
    await new Promise<void>((r) => fakeOfficial.listen(0, '127.0.0.1', r));
    fakeUrl = `http://127.0.0.1:${(fakeOfficial.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => fakeOfficial.close(() => r())));

  it('forwards /submit and /splice_code to a second runner, adding auth and CORS', async () => {
    const proxy = await start({ upstream: plain.url, token: 'proxy-token', allowedOrigins: ['http://app.example'], maxConcurrency: 2, queueLimit: 4 });
    const auth = { authorization: 'Bearer proxy-token', origin: 'http://app.example' };
    expect((await get<HealthResponse>(proxy.url, '/health')).body).toMatchObject({ mode: 'proxy', upstream: plain.url });
    expect((await submit(proxy.url, 'cpp', 'int main(){}')).status).toBe(401);
    const reply = await post(proxy.url, '/submit', { src_uid: 'via-proxy', lang: 'cpp', func_code: 'int add(int a,int b){return a+b;}', main_code: '#include <cassert>\nint main(){ assert(add(1,2)==3); }' }, auth);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('access-control-allow-origin')).toBe('http://app.example');
    expect(reply.body).toMatchObject({ src_uid: 'via-proxy', exec_outcome: 'PASSED' });
    expect(reply.body.all_code).toContain('using namespace std;');
    const splice = await post<SpliceResponse>(proxy.url, '/splice_code', { src_uid: 's', lang: 'python', func_code: 'a = 1', main_code: 'assert a == 1' }, auth);
    expect(splice.body).toEqual({ src_uid: 's', all_code: 'a = 1\nassert a == 1' });
    const languages = await get<LanguagesResponse>(proxy.url, '/languages', auth);
    expect(languages.body.languages.find((l) => l.id === 'cpp')?.version).toMatch(/g\+\+/);
  });

  it('an official upstream without /languages is assumed to run everything; an unreachable upstream is a 502', async () => {
    const proxy = await start({ upstream: fakeUrl });
    const languages = await get<LanguagesResponse>(proxy.url, '/languages');
    expect(languages.body.languages.filter((l) => l.available)).toHaveLength(20);
    expect((await submit(proxy.url, 'julia', 'println(1)')).body.exec_cout).toBe('official\n');
    const dead = await start({ upstream: 'http://127.0.0.1:9' });
    const reply = await submit(dead.url, 'python', 'print(1)');
    expect(reply.status).toBe(502);
    expect((reply.body as SubmitResponse).exec_outcome).toBe('INTERNAL_ERROR');
  });
});

describe('start-up', () => {
  it('refuses to run without a sandbox unless RUNNER_ALLOW_UNSANDBOXED=1, and then says so in /health', async () => {
    await expect(prepareExecutor({ ...BASE_CONFIG, sandboxMode: 'none' })).rejects.toThrow(ConfigError);
    const prepared = await prepareExecutor({ ...BASE_CONFIG, sandboxMode: 'none', allowUnsandboxed: true });
    const runner = await start({}, prepared);
    expect((await get<HealthResponse>(runner.url, '/health')).body.isolation).toMatch(/^none: NO SANDBOX/);
    const reply = await submit(runner.url, 'python', 'import os\nprint(os.getuid())');
    expect(reply.body.exec_outcome).toBe('PASSED');
    if (process.getuid?.() === 0) expect(reply.body.exec_cout).toBe('61000\n');
  });

  it('the user-namespace mode of bubblewrap works too', async () => {
    const prepared = await prepareExecutor({ ...BASE_CONFIG, sandboxMode: 'bwrap-userns' });
    await prepared.ready;
    const runner = await start({}, prepared);
    const reply = await submit(runner.url, 'python', 'import socket\ntry:\n    socket.create_connection(("1.1.1.1", 53), timeout=2)\n    print("online")\nexcept OSError:\n    print("offline")');
    expect(reply.body).toMatchObject({ exec_outcome: 'PASSED', exec_cout: 'offline\n' });
  });

  it('npm run runner (dist-node/runner.mjs) prints where it listens and what it can run', async () => {
    const child = spawn(process.execPath, ['dist-node/runner.mjs'], { env: { ...process.env, PORT: '0', MAX_CONCURRENCY: '1' } });
    let out = '';
    child.stdout.on('data', (b: Buffer) => { out += b.toString(); });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no language list in time:\n${out}`)), 60_000);
        child.stdout.on('data', () => { if (/typescript\s/.test(out)) { clearTimeout(timer); resolve(); } });
        child.on('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
      });
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
      expect(out).toMatch(/isolation: bwrap-/);
      expect(out).toMatch(/languages \(\d+\/20 available\)/);
      expect(out).toMatch(/python\s+python3 test\.py/);
      expect((await get<HealthResponse>(url, '/health')).body.status).toBe('ok');
    } finally {
      child.kill('SIGTERM');
    }
  });
});

