/**
 * Issue #12 finding 7: a runner without RUNNER_TOKEN must not run code for a web page on another
 * site. A page can send a cross-site `text/plain` POST without a CORS preflight, and DNS rebinding
 * lets it reach 127.0.0.1 under its own host name; both must be refused before anything runs.
 * Each case runs a real program through the sandbox when it is let through, so a refusal that
 * came too late would show as a run.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnvironment, type StartedRunner } from '../../runner/runner';
import { startTestRunner } from '../support/runner-helpers';

/** A raw request, so that Host, Origin and Content-Type are exactly what an attacker's page sends. */
function send(url: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: body === undefined ? 'GET' : 'POST', headers, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// A program whose run is visible in the answer: the marker is in its stdout.
const program = JSON.stringify({ src_uid: 'guard', lang: 'shell', source_code: 'echo ran-$((6*7))' });

let runner: StartedRunner;
let open: StartedRunner;
let host = '';
beforeAll(async () => {
  runner = await startTestRunner({ allowedOrigins: ['http://app.example'] });
  open = await startTestRunner({ allowedHosts: ['runner.internal'] });
  host = new URL(runner.url).host;
});
afterAll(async () => {
  await Promise.all([runner?.close(), open?.close()]);
});

describe('runner request guard (no token)', () => {
  it('a same-machine JSON request runs (the control case)', async () => {
    const ok = await send(runner.url, '/submit', { host, 'content-type': 'application/json' }, program);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text)).toMatchObject({ exec_outcome: 'PASSED', exec_cout: 'ran-42\n' });
  }, 60_000);

  it('refuses a cross-site text/plain POST (no preflight needed) with 415, and runs nothing', async () => {
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const r = await send(runner.url, '/submit', { host, origin: 'http://evil.example', 'content-type': type }, program);
      // Origin is checked first (403); without an Origin the content type alone refuses it (415).
      expect(r.status, type).toBe(403);
      const bare = await send(runner.url, '/submit', { host, 'content-type': type }, program);
      expect(bare.status, type).toBe(415);
      expect(r.text + bare.text).not.toContain('ran-42');
    }
    const none = await send(runner.url, '/submit', { host }, program);
    expect(none.status).toBe(415);
    expect((await send(runner.url, '/splice_code', { host, 'content-type': 'text/plain' }, '{}')).status).toBe(415);
  });

  it('refuses a JSON POST from an Origin that is not listed, and takes one that is', async () => {
    const evil = await send(runner.url, '/submit', { host, origin: 'http://evil.example', 'content-type': 'application/json' }, program);
    expect(evil.status).toBe(403);
    expect(evil.text).not.toContain('ran-42');
    // A page on another port of the same machine is another origin.
    expect((await send(runner.url, '/submit', { host, origin: 'http://127.0.0.1:1', 'content-type': 'application/json' }, program)).status).toBe(403);
    expect((await send(runner.url, '/languages', { host, origin: 'http://evil.example' })).status).toBe(403);
    const app = await send(runner.url, '/submit', { host, origin: 'http://app.example', 'content-type': 'application/json' }, program);
    expect(app.status).toBe(200);
    expect(app.text).toContain('ran-42');
  }, 60_000);

  it('refuses a Host it does not serve (DNS rebinding), whatever the route', async () => {
    for (const evilHost of [`evil.example:${new URL(runner.url).port}`, 'evil.example', '127.0.0.1.evil.example', '']) {
      const r = await send(runner.url, '/submit', { host: evilHost, 'content-type': 'application/json' }, program);
      expect(r.status, evilHost).toBe(403);
      expect(r.text).not.toContain('ran-42');
      expect((await send(runner.url, '/languages', { host: evilHost })).status, evilHost).toBe(403);
    }
    // Loopback names are always served.
    for (const name of [`localhost:${new URL(runner.url).port}`, 'LOCALHOST', '[::1]:80', '127.0.0.1']) {
      expect((await send(runner.url, '/languages', { host: name })).status, name).toBe(200);
    }
    // RUNNER_ALLOWED_HOSTS adds names.
    const openHost = new URL(open.url).host;
    expect((await send(open.url, '/languages', { host: 'runner.internal:8080' })).status).toBe(200);
    expect((await send(open.url, '/languages', { host: 'other.internal' })).status).toBe(403);
    expect((await send(open.url, '/languages', { host: openHost })).status).toBe(200);
  });

  it('listens on 127.0.0.1 unless told otherwise; RUNNER_ALLOWED_HOSTS is read from the environment', () => {
    expect(configFromEnvironment({}, []).host).toBe('127.0.0.1');
    expect(configFromEnvironment({ HOST: '0.0.0.0' }, []).host).toBe('0.0.0.0');
    expect(configFromEnvironment({}, ['--host', '::']).host).toBe('::');
    expect(configFromEnvironment({ RUNNER_ALLOWED_HOSTS: 'a.example, b.example' }, []).allowedHosts).toEqual(['a.example', 'b.example']);
  });
});
