/**
 * The walls' configuration, checked without a browser: the runtime sandbox page's policy and the
 * hash of its script, the page's own policy, the connect-src settings, the worker pool's distrust
 * of its workers' messages, and the output cap. (The walls themselves are tried in Chromium by
 * tests/e2e/hostile.test.ts and under Node by hostile-node.test.ts.)
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createPoolExecutor, type WorkerHandle } from '../../runtimes/host/pool';
import type { HostMessage, WorkerMessage } from '../../runtimes/host/protocol';
import { sandboxHtml } from '../../runtimes/host/sandbox-page';
import { OUTPUT_LIMIT, OutputCapture } from '../../runtimes/host/output';
import { connectPolicy, normalizeOrigin } from '../../src/app/lib/csp';

const directives = (policy: string) =>
  Object.fromEntries(policy.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...values]) => [name!, values]));

describe('the runtime sandbox page', () => {
  const { html, policy } = sandboxHtml();
  const d = directives(policy);

  it('allows no connection, no other script, no eval, no plugin, no base or form target', () => {
    expect(d['default-src']).toEqual(["'none'"]);
    expect(d['connect-src']).toEqual(["'none'"]);
    expect(d['worker-src']).toEqual(['blob:']);
    expect(d['script-src']).toEqual([expect.stringMatching(/^'sha256-[A-Za-z0-9+/]+=*'$/), 'blob:', "'wasm-unsafe-eval'"]);
    expect(policy).not.toMatch(/'unsafe-eval'|unsafe-inline|'self'|https?:|\*/);
    expect(d['base-uri']).toEqual(["'none'"]);
    expect(d['form-action']).toEqual(["'none'"]);
  });

  it("lets exactly its own inline script run (the hash is the script's)", () => {
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    const hash = `'sha256-${createHash('sha256').update(scripts[0]!, 'utf8').digest('base64')}'`;
    expect(d['script-src']![0]).toBe(hash);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${policy}">`);
    // The policy is the first thing in <head> after the charset: nothing loads before it.
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<script>'));
  });

  it('is what the build serves', () => {
    if (!existsSync('dist/sandbox.html')) return; // built by `npm run build`, which CI runs first
    expect(readFileSync('dist/sandbox.html', 'utf8')).toBe(html);
  });

  it("is loaded with sandbox=\"allow-scripts\" only (an opaque origin), and page and frame talk over a port handed over once", () => {
    const source = readFileSync('runtimes/host/sandbox.ts', 'utf8');
    expect(source).toContain("element.setAttribute('sandbox', 'allow-scripts');");
    expect([...source.matchAll(/'(allow-[a-z-]+)'/g)].map((m) => m[1])).toEqual(['allow-scripts']);
    expect(source).not.toMatch(/addEventListener\('message'/);
    // The frame's refusals are tried in Chromium by tests/e2e/frame.test.ts.
    const frame = readFileSync('runtimes/host/sandbox-frame.js', 'utf8');
    expect(frame).toContain("self.origin !== 'null'");
    expect(frame).toContain('event.source !== parent || event.origin !== appOrigin');
    // A port from the page reaches a worker only with its init (the worker's direct channel for
    // runs and results); the frame posts nothing else with a transfer list to a worker.
    expect([...frame.matchAll(/worker\.postMessage\(([^;]*)\);/g)].map((m) => m[1])).toEqual(['message, direct ? [direct] : []']);
    expect(frame).toContain("const direct = message && message.type === 'init' && ports && ports[0];");
  });
});

describe("the page's own policy", () => {
  const index = readFileSync('index.html', 'utf8');
  const policy = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(index)![1]!;
  const d = directives(policy);

  it('restricts scripts, frames, workers, images and plugins to its origin, and leaves connect-src to the startup policy', () => {
    expect(d['script-src']).toEqual(["'self'"]);
    expect(d['frame-src']).toEqual(["'self'"]);
    expect(d['worker-src']).toEqual(["'self'"]);
    expect(d['object-src']).toEqual(["'none'"]);
    expect(d['base-uri']).toEqual(["'none'"]);
    expect(d['form-action']).toEqual(["'none'"]);
    expect(d['img-src']).toEqual(["'self'", 'data:']);
    // No default-src and no connect-src: they would cap what the startup policy may allow.
    expect(d['default-src']).toBeUndefined();
    expect(d['connect-src']).toBeUndefined();
  });

  it('builds connect-src from the allowed origins only: https, or http on this machine', () => {
    expect(connectPolicy([])).toBe("connect-src 'self'");
    expect(connectPolicy(['https://api.example.com', 'http://127.0.0.1:8080'])).toBe("connect-src 'self' https://api.example.com http://127.0.0.1:8080");
    expect(normalizeOrigin('https://huggingface.co/datasets/x/resolve/main/a.jsonl')).toBe('https://huggingface.co');
    expect(normalizeOrigin(' http://localhost:11434/v1 ')).toBe('http://localhost:11434');
    for (const bad of ['http://example.com', 'ftp://example.com', 'javascript:alert(1)', 'data:text/plain,x', '*', 'https://*.example.com', "https://a.com 'unsafe-inline'", 'https://user:pw@example.com', 'not a url', '']) {
      expect(normalizeOrigin(bad), bad).toBeNull();
    }
  });
});

/** A scripted worker for the pool: it answers as told. */
function fakeWorker(script: (message: HostMessage, reply: (m: WorkerMessage) => void) => void) {
  const spawned: Array<{ terminated: boolean }> = [];
  const spawn = (): WorkerHandle => {
    const state = { terminated: false };
    spawned.push(state);
    let handler: (m: WorkerMessage) => void = () => {};
    return {
      post: (message) => queueMicrotask(() => !state.terminated && script(message, (m) => !state.terminated && handler(m))),
      onMessage: (h) => (handler = h),
      onExit: () => {},
      terminate: () => (state.terminated = true),
    };
  };
  return { spawn, spawned };
}

const ok = { exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 1 };

describe("the worker pool's distrust of its workers", () => {
  it('replaces a worker that sends a result for a run it was not given, and the run still gets its own', async () => {
    let forged = false;
    const { spawn, spawned } = fakeWorker((m, reply) => {
      if (m.type === 'init') return reply({ type: 'ready', description: 'fake' });
      if (m.type !== 'run') return;
      if (!forged) {
        forged = true;
        reply({ type: 'result', id: m.id + 1000, result: { ...ok, stdout: 'forged' } });
        return;
      }
      reply({ type: 'result', id: m.id, result: { ...ok, stdout: 'real' } });
    });
    const executor = createPoolExecutor({ spawn, languages: ['python'], size: 1, graceMs: 50 });
    const first = await executor.run({ language: 'python', program: 'x', timeoutMs: 300 });
    // The forging worker was dropped; its run ended as a crash, never with the forged output.
    expect(first.stdout).not.toContain('forged');
    expect(first.exitCode).toBe(1);
    expect(spawned[0]!.terminated).toBe(true);
    const second = await executor.run({ language: 'python', program: 'x', timeoutMs: 300 });
    expect(second.stdout).toBe('real');
    await executor.dispose();
  });

  it("ignores a loaded worker's second 'ready' or 'failed' (the language is not marked broken)", async () => {
    let runs = 0;
    const { spawn } = fakeWorker((m, reply) => {
      if (m.type === 'init') return reply({ type: 'ready', description: 'fake' });
      if (m.type === 'run' && runs++ === 0) return reply({ type: 'failed', error: 'forged load failure' });
      if (m.type === 'run') reply({ type: 'result', id: m.id, result: ok });
    });
    const executor = createPoolExecutor({ spawn, languages: ['python'], size: 1, graceMs: 50 });
    await executor.run({ language: 'python', program: 'x', timeoutMs: 300 });
    await expect(executor.run({ language: 'python', program: 'x', timeoutMs: 300 })).resolves.toMatchObject({ exitCode: 0 });
    await executor.dispose();
  });

  it('caps what a worker reports, whatever it sends', async () => {
    const { spawn } = fakeWorker((m, reply) => {
      if (m.type === 'init') return reply({ type: 'ready', description: 'fake' });
      if (m.type === 'run') reply({ type: 'result', id: m.id, result: { ...ok, stdout: 'y'.repeat(3 * OUTPUT_LIMIT), exitCode: 'zero' as unknown as number } });
    });
    const executor = createPoolExecutor({ spawn, languages: ['python'], size: 1 });
    const r = await executor.run({ language: 'python', program: 'x', timeoutMs: 300 });
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBeLessThan(OUTPUT_LIMIT + 400);
    expect(r.exitCode).toBeNull();
    await executor.dispose();
  });
});

describe('the output capture', () => {
  it('keeps the first characters up to the limit and marks the cut with what was dropped', () => {
    const c = new OutputCapture(10);
    c.write('12345');
    c.write('67890abc');
    c.drop(100);
    expect(c.full).toBe(true);
    expect(c.truncated).toBe(true);
    expect(c.text()).toBe('1234567890\n[… truncated: 103 more characters]');
    const bytes = new OutputCapture(4);
    const decoder = new TextDecoder();
    bytes.writeBytes(new TextEncoder().encode('ab'), decoder);
    bytes.writeBytes(new TextEncoder().encode('cdef'), decoder);
    bytes.writeBytes(new Uint8Array(1000), decoder);
    expect(bytes.text()).toBe('abcd\n[… truncated: 1002 more bytes]');
    expect(new OutputCapture(10).text()).toBe('');
  });
});
