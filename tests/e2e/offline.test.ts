/**
 * Offline after the first visit (issue #17): the built app on a preview server of its own, visited
 * once (a self-check of Python, JavaScript and TypeScript fetches their runtimes); then the server
 * is stopped and the browser cut off from the network, the page reloaded, and the same self-check
 * runs to the end from the service worker's cache (src/offline/service-worker.ts) and the runtime
 * file cache, every problem PASSED. Needs `dist/` (`npm run build`); Debian's Chromium.
 */
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseSource, runAndWait, selectLanguages, startAppServer, type AppServer } from '../../src/bench/app-page';
import { useChromium } from '../support/e2e';

const LANGUAGES = ['python', 'javascript', 'typescript'];
/** The demo set has 8 problems in each of these: the canonical solutions all pass (SPEC §4). */
const PROBLEMS = 24;

describe('offline after the first visit', () => {
  const chromium = useChromium();
  let server: AppServer | undefined;
  afterAll(async () => server?.close());

  /** Outcomes of the problem rows of the run shown. */
  const outcomes = (page: Page) => page.getByTestId('problem-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-outcome')));

  it('reloads and runs the self-check with the server stopped and the network cut', { timeout: 600_000 }, async () => {
    // A server of this file's own, so that it can be stopped (the shared one serves other files).
    server = await startAppServer(fileURLToPath(new URL('../../', import.meta.url)));
    const browser = await chromium.browser();
    const context: BrowserContext = await browser.newContext();
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${server.origin}/`);
    await page.getByTestId('run-button').waitFor();

    // First visit: the worker installs (every shell file cached) and takes the page over.
    const cached = await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      for (let i = 0; i < 100 && !navigator.serviceWorker.controller; i++) await new Promise((r) => setTimeout(r, 100));
      const names = await caches.keys();
      const shell = names.find((n) => n.startsWith('benchtop-shell-'));
      return { controlled: !!navigator.serviceWorker.controller, shell: shell ? (await (await caches.open(shell)).keys()).map((r) => new URL(r.url).pathname) : [] };
    });
    expect(cached.controlled).toBe(true);
    expect(cached.shell).toContain('/index.html');
    expect(cached.shell.some((p) => /^\/assets\/main-[\w-]+\.js$/.test(p))).toBe(true);
    expect(cached.shell.some((p) => /^\/assets\/python-[\w-]+\.js$/.test(p))).toBe(true);
    expect(cached.shell.some((p) => /^\/assets\/demo-[\w-]+\.jsonl$/.test(p))).toBe(true);
    expect(cached.shell).toContain('/sandbox.html');

    await chooseSource(page, { value: 'canonical' });
    await selectLanguages(page, LANGUAGES);
    await runAndWait(page, { timeout: 300_000 });
    expect(await outcomes(page)).toEqual(Array(PROBLEMS).fill('PASSED'));

    // The network gone: the server stopped, and the browser offline as well.
    await server.close();
    server = undefined;
    await context.setOffline(true);
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    await page.reload();
    await page.getByTestId('run-button').waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);

    await chooseSource(page, { value: 'canonical' });
    await selectLanguages(page, LANGUAGES);
    await runAndWait(page, { timeout: 300_000 });
    expect(await outcomes(page)).toEqual(Array(PROBLEMS).fill('PASSED'));
    expect(await page.getByTestId('pass1').textContent()).toContain(`(${PROBLEMS}/${PROBLEMS})`);
    expect(failed).toEqual([]);
    // The frame came from the worker, without the attribute, sandboxed by the worker's header:
    // still an opaque origin (docs/security.md, wall 1).
    const frame = page.frames().find((f) => new URL(f.url()).pathname === '/sandbox.html');
    expect(frame).toBeDefined();
    expect(await frame!.evaluate(() => self.origin)).toBe('null');
    expect(await page.getByTestId('runtime-sandbox').first().getAttribute('sandbox')).toBeNull();
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
