/**
 * The runtime sandbox frame (sandbox.html) against the attacks of issue #12, findings 3 and 4, in
 * headless Chromium with the built app (dist/):
 *
 * - a page on another 127.0.0.1 port frames sandbox.html (without the sandbox attribute, with it,
 *   and with allow-same-origin) and tries to make it run code that writes the app's IndexedDB and
 *   Cache Storage: the frame never answers and nothing is written. Served twice: by `vite preview`
 *   (which adds the sandbox page's headers) and by a bare file server (a static host that sets no
 *   header), where only the frame's own checks stand;
 * - a runtime file served with other bytes than the build's is refused with its name, not cached;
 * - a rewritten Cache Storage entry of Pyodide is detected, dropped and downloaded again;
 * - the frame's renderer, killed mid-run (CDP Page.crash on the frame's own process), turns the
 *   running problem into RUNTIME_ERROR, and the following problems get their verdicts in a new frame.
 *
 * Needs dist/ (`npm run build`). Uses Debian's Chromium (/usr/bin/chromium or CHROMIUM_PATH).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp } from '../../src/bench/app-page';
import { appOrigin, useChromium } from '../support/e2e';

const root = fileURLToPath(new URL('../../', import.meta.url));

const py = { canonical: 'def solve():\n    return 1', demo: 'assert solve() == 1', full: 'assert solve() == 1\nassert solve() + 1 == 2' };
const js = {
  canonical: 'function solve() {\n  return 1;\n}',
  demo: "const assert = require('assert');\n\nfunction demoTesting() {\n  assert.strictEqual(solve(), 1);\n}",
  full: "const assert = require('assert');\n\nfunction fullTesting() {\n  assert.strictEqual(solve(), 1);\n  assert.strictEqual(solve() + 1, 2);\n}",
};

/** A problem whose recorded answer (`output`) is `code`. */
function record(id: string, language: 'python' | 'javascript', code: string): string {
  const t = language === 'python' ? py : js;
  return JSON.stringify({
    id, language, difficulty: 'easy', question: 'Write `solve()` returning 1.',
    canonical_solution: t.canonical, demo_test_func: t.demo, full_test_func: t.full,
    output: `\`\`\`${language}\n${code}\n\`\`\`\n`,
  });
}

/** What a worker started by an attacker would do with the app's origin: read and write its storage. */
const STORAGE_ATTACK = `(async () => {
  const done = [];
  try {
    done.push('databases: ' + (await indexedDB.databases()).map((d) => d.name).join(','));
    await new Promise((resolve, reject) => {
      const r = indexedDB.open('benchtop-pwned', 1);
      r.onupgradeneeded = () => r.result.createObjectStore('s');
      r.onsuccess = () => { r.result.close(); resolve(); };
      r.onerror = () => reject(r.error);
    });
    done.push('indexedDB written');
  } catch (e) { done.push('indexedDB refused'); }
  try {
    await (await caches.open('benchtop-pwned')).put(self.origin + '/pwned', new Response('x'));
    done.push('caches written');
  } catch (e) { done.push('caches refused'); }
  postMessage({ type: 'ready', description: 'attack ran: ' + done.join('; ') });
})();`;

/**
 * The attacker's page: frames each sandbox.html URL it is given in three ways and speaks both the
 * frame's former protocol (orders by window message) and the current one (a port), recording any
 * answer.
 */
function attackerHtml(targets: string[]): string {
  return `<!doctype html><body><script>
window.answers = [];
const attack = ${JSON.stringify(STORAGE_ATTACK)};
const orders = [
  { kind: 'code', language: 'python', code: attack },
  { kind: 'spawn', worker: 1, language: 'python' },
  { kind: 'post', worker: 1, message: { type: 'init', language: 'python', settings: {} } },
];
addEventListener('message', (e) => answers.push({ via: 'window', data: JSON.stringify(e.data) }));
for (const target of ${JSON.stringify(targets)}) {
  for (const sandbox of [null, 'allow-scripts', 'allow-scripts allow-same-origin']) {
    const f = document.createElement('iframe');
    if (sandbox !== null) f.setAttribute('sandbox', sandbox);
    f.src = target;
    f.onload = () => {
      for (const o of orders) f.contentWindow.postMessage(o, '*');
      const channel = new MessageChannel();
      channel.port1.onmessage = (e) => answers.push({ via: 'port', target, sandbox, data: JSON.stringify(e.data) });
      f.contentWindow.postMessage('benchtop-sandbox', '*', [channel.port2]);
      for (const o of orders) channel.port1.postMessage(o);
    };
    document.body.append(f);
  }
}
</script></body>`;
}

/** Right answers, and wrong ones whose outcome is RUNTIME_ERROR by SPEC §4 (non-zero exit, no error substring). */
const PY_RIGHT = 'def solve():\n    return 1';
const PY_WRONG = "def solve():\n    raise ValueError('wrong')";
const JS_RIGHT = 'function solve() {\n  return 1;\n}';
const JS_WRONG = "function solve() {\n  throw new RangeError('wrong');\n}";

/** The bare server's copy of this file is not the build's. */
const TAMPERED = '/runtimes/pyodide/pyodide.asm.wasm';
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json' };

/** sha256 of a file of the build, as served under `path` (the URL's path). */
const builtHash = (path: string) => createHash('sha256').update(readFileSync(`${root}dist${decodeURIComponent(path)}`)).digest('hex');

describe('the runtime sandbox frame serves the app alone and survives its renderer', () => {
  const chromium = useChromium();
  const origin = appOrigin();
  /** dist/sandbox.html with no header at all, as a static host serves it. */
  let bare: Server;
  let bareOrigin: string;
  let attacker: Server;
  let attackerOrigin: string;
  let browser: Browser;

  const listen = async (s: Server) => {
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    bare = createServer((req, res) => {
      const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^\/$/, '/index.html');
      const file = join(root, 'dist', path);
      if (!file.startsWith(join(root, 'dist') + '/') || !existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end();
      res.setHeader('content-type', TYPES[extname(file)] ?? 'application/octet-stream');
      // A host whose copy of Pyodide is not the build's: right size, wrong bytes.
      if (path === TAMPERED) return void res.end(Buffer.alloc(statSync(file).size, 0x61));
      res.end(readFileSync(file));
    });
    bareOrigin = await listen(bare);
    attacker = createServer((_req, res) => res.setHeader('content-type', 'text/html').end(attackerHtml([`${origin}/sandbox.html`, `${bareOrigin}/sandbox.html`])));
    attackerOrigin = await listen(attacker);
    browser = await chromium.browser();
  });

  afterAll(async () => {
    for (const s of [bare, attacker]) await new Promise<void>((resolve) => (s ? s.close(() => resolve()) : resolve()));
  });

  /** The app's storage at `at`, seen from a page of that origin. */
  async function storageAt(context: BrowserContext, at: string): Promise<{ databases: string[]; caches: string[] }> {
    const page = await context.newPage();
    await page.goto(`${at}/`);
    const found = await page.evaluate(async () => ({
      databases: (await indexedDB.databases()).map((d) => d.name ?? ''),
      caches: await caches.keys(),
    }));
    await page.close();
    return found;
  }

  it('refuses a page of another origin that frames sandbox.html: it never answers, and the app\'s storage is untouched', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${attackerOrigin}/`);
    // Six frames, each given its orders at load; a frame that obeyed answers within a second.
    await page.waitForFunction(() => document.querySelectorAll('iframe').length === 6);
    await page.waitForTimeout(4000);
    const answers = await page.evaluate(() => (window as unknown as { answers: unknown[] }).answers);
    console.log(`answers to the attacker: ${JSON.stringify(answers)}`);
    expect(answers).toEqual([]);
    // Served without headers, the frame framed without the sandbox attribute loads, with the app's origin: its script refuses.
    const unsandboxed = page.frames().filter((f) => f.url() === `${bareOrigin}/sandbox.html`);
    const refusals = await Promise.all(unsandboxed.map((f) => f.evaluate(() => [self.origin, document.documentElement.dataset.refused ?? 'running']).catch(() => null)));
    expect(refusals).toContainEqual([bareOrigin, 'not sandboxed']);
    for (const at of [origin, bareOrigin]) {
      const found = await storageAt(context, at);
      expect(found.databases, at).not.toContain('benchtop-pwned');
      expect(found.caches, at).not.toContain('benchtop-pwned');
    }
    await context.close();
  });

  it('does not let another origin frame sandbox.html where the server sends its headers (vite preview)', async () => {
    const response = await fetch(`${origin}/sandbox.html`);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).toMatch(/(^|;)\s*sandbox allow-scripts\s*(;|$)/);
  });

  /** Loads `jsonl` into the app, runs its recorded answers and returns each problem's outcome. */
  async function runSet(page: Page, jsonl: string, options: { timeLimit: number; concurrency?: number }): Promise<void> {
    await page.getByTestId('dataset-file').setInputFiles({ name: 'frame.jsonl', mimeType: 'text/plain', buffer: Buffer.from(jsonl) });
    const n = jsonl.trim().split('\n').length;
    await page.waitForFunction((count) => document.querySelector('[data-testid="dataset-count"]')?.textContent === `${count} ${count === 1 ? 'problem' : 'problems'}`, n);
    await page.getByTestId('model-select').selectOption({ label: 'Answers in the dataset (output field)' });
    await page.getByTestId('time-limit').fill(String(options.timeLimit));
    if (options.concurrency) await page.getByTestId('concurrency').fill(String(options.concurrency));
    await page.getByTestId('run-button').click();
  }

  const outcomesScript = `JSON.stringify(Object.fromEntries([...document.querySelectorAll('[data-testid="problem-row"]')].map((r) => [r.getAttribute('data-id'), r.getAttribute('data-outcome')])))`;

  it('detects a rewritten Cache Storage entry of Pyodide, drops it and downloads the file again', { timeout: 240_000 }, async () => {
    const { page, context } = await chromium.openApp();
    const set = [record('right', 'python', PY_RIGHT), record('wrong', 'python', PY_WRONG)].join('\n');
    await runSet(page, set, { timeLimit: 20 });
    await page.locator('[data-testid="progress"][data-state="done"]').waitFor({ timeout: 120_000 });
    expect(JSON.parse(await page.evaluate(outcomesScript))).toEqual({ right: 'PASSED', wrong: 'RUNTIME_ERROR' });

    // What finding 3's attacker did: rewrite every cached Python runtime file (here from the app's own origin).
    const rewritten = await page.evaluate(async () => {
      const names: string[] = [];
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          if (!new URL(request.url).pathname.includes('/runtimes/pyodide/')) continue;
          await cache.put(request, new Response(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0xde, 0xad])));
          names.push(new URL(request.url).pathname);
        }
      }
      return names;
    });
    console.log(`rewritten cache entries: ${rewritten.join(', ')}`);
    expect(rewritten.some((p) => p.endsWith('.wasm'))).toBe(true);

    await page.reload();
    await page.getByTestId('run-button').waitFor();
    await runSet(page, set, { timeLimit: 20 });
    await page.locator('[data-testid="progress"][data-state="done"]').waitFor({ timeout: 120_000 });
    expect(JSON.parse(await page.evaluate(outcomesScript))).toEqual({ right: 'PASSED', wrong: 'RUNTIME_ERROR' });
    // The cache holds the build's files again, byte for byte.
    const cached = await page.evaluate(async () => {
      const out: Array<[string, string]> = [];
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          const path = new URL(request.url).pathname;
          if (!path.includes('/runtimes/pyodide/')) continue;
          const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await (await cache.match(request))!.arrayBuffer()));
          out.push([path, [...digest].map((b) => b.toString(16).padStart(2, '0')).join('')]);
        }
      }
      return out;
    });
    expect(cached.map(([p]) => p).sort()).toEqual([...rewritten].sort());
    for (const [path, hash] of cached) expect(hash, path).toBe(builtHash(path));
    await context.close();
  });

  it("refuses a runtime file from the network that is not the build's, naming it, and does not cache it", { timeout: 180_000 }, async () => {
    const { page, context } = await openApp(browser, bareOrigin);
    await runSet(page, record('right', 'python', PY_RIGHT), { timeLimit: 20 });
    await page.locator('[data-testid="progress"][data-state="done"]').waitFor({ timeout: 120_000 });
    expect(JSON.parse(await page.evaluate(outcomesScript))).toEqual({ right: 'INFRA_ERROR' });
    await page.getByTestId('problem-row').first().click();
    expect(await page.getByTestId('problem-detail').textContent()).toMatch(/pyodide\.asm\.wasm\?v=[0-9a-f]{64} is not the file this app was built with/);
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) urls.push(new URL(r.url).pathname);
      return urls;
    });
    expect(cached).not.toContain(TAMPERED);
    await context.close();
  });

  it('turns a killed frame renderer into RUNTIME_ERROR for the running problem; the next problems get their verdicts in a new frame', { timeout: 300_000 }, async () => {
    const { page, context } = await chromium.openApp();
    // Playwright takes any crashed frame for a crashed page; after the kill, the page is read over its own CDP session.
    const cdp = await context.newCDPSession(page);
    const read = async (expression: string) => (await cdp.send('Runtime.evaluate', { expression, returnByValue: true })).result.value as string;
    const set = [
      // Its demo run passes; its full run loops (the second call of solve()) until the renderer dies.
      record('crashed', 'python', 'calls = [0]\ndef solve():\n    calls[0] += 1\n    while calls[0] == 2:\n        pass\n    return 1'),
      record('right-after', 'python', PY_RIGHT),
      record('wrong-after', 'python', PY_WRONG),
      record('js-right-after', 'javascript', JS_RIGHT),
      record('js-wrong-after', 'javascript', JS_WRONG),
    ].join('\n');
    // One problem at a time, so that only the first is running when the renderer dies. The limit
    // is far above the time crash detection needs: a crash seen as a timeout would fail the test.
    await runSet(page, set, { timeLimit: 30, concurrency: 1 });
    // Once the Python worker is ready it runs the demo run (milliseconds) and takes the full run.
    // (A pool told of only ten runs keeps one worker: runtimes/host/pool.ts, workersWanted.)
    await page.getByTestId('runtime-status').locator('li', { hasText: 'Python' }).filter({ hasText: / ready, loaded in / }).waitFor({ timeout: 120_000 });
    await page.waitForTimeout(2000);
    expect(await page.locator('[data-testid="problem-row"][data-id="crashed"]').getAttribute('data-outcome')).toBe('RUNNING');
    const frame = page.frames().find((f) => f.url().endsWith('/sandbox.html'));
    expect(frame, 'the runtime sandbox frame').toBeTruthy();
    const killedAt = Date.now();
    void (await context.newCDPSession(frame!)).send('Page.crash').catch(() => undefined);

    const deadline = Date.now() + 240_000;
    while ((await read(`document.querySelector('[data-testid="progress"]')?.dataset.state ?? ''`)) !== 'done') {
      if (Date.now() > deadline) throw new Error(`the run did not finish after the crash: ${await read(outcomesScript)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const outcomes = JSON.parse(await read(outcomesScript));
    console.log(`outcomes after the crash (${((Date.now() - killedAt) / 1000).toFixed(1)} s): ${JSON.stringify(outcomes)}`);
    expect(outcomes).toEqual({ crashed: 'RUNTIME_ERROR', 'right-after': 'PASSED', 'wrong-after': 'RUNTIME_ERROR', 'js-right-after': 'PASSED', 'js-wrong-after': 'RUNTIME_ERROR' });
    // The crash is what ended it, and the detail says so.
    await read(`document.querySelector('[data-testid="problem-row"][data-id="crashed"]').click()`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await read(`document.querySelector('[data-testid="problem-detail"]')?.textContent ?? ''`)).toContain('the runtime sandbox frame stopped answering');
    // A new frame took over; the dead one is gone.
    expect(Number(await read(`String(document.querySelectorAll('iframe[data-testid="runtime-sandbox"]').length)`))).toBe(1);
    await context.close();
  });
});
