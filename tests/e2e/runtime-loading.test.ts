/**
 * How the page loads runtimes (issue #16), in headless Chromium with the built app (dist/):
 *
 * - runtime files are fetched, hash-checked and cached off the page's main thread (its
 *   runtime-files worker, runtimes/host/runtime-files-worker.ts): the main thread's own fetch is
 *   never asked for one, yet the files arrive, are cached, and the program passes;
 * - a first visit starts no runtime and downloads nothing before Run;
 * - a returning visit whose dataset has Python problems, with Pyodide cached, starts Python as the
 *   page loads (src/app/state/runtimes.svelte.ts warmAhead): ready before Run, nothing downloaded.
 *
 * Needs dist/ (`npm run build`). Uses Debian's Chromium (/usr/bin/chromium or CHROMIUM_PATH).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chooseSource, runAndWait, selectLanguages, visitApp } from '../../src/bench/app-page';
import { appOrigin, useChromium } from '../support/e2e';

/** In the app's top-level page only: every URL its main thread passes to fetch(). */
function recordMainThreadFetches(): void {
  if (window.top !== window) return;
  const seen: string[] = [];
  (window as unknown as { mainFetches: string[] }).mainFetches = seen;
  const real = window.fetch.bind(window);
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(String(input instanceof Request ? input.url : input));
    return real(input, init);
  };
}

const mainFetches = (page: Page) => page.evaluate(() => (window as unknown as { mainFetches: string[] }).mainFetches);
const pythonStatus = (page: Page) => page.evaluate(() => [...document.querySelectorAll('[data-testid="runtime-status"] li')].map((li) => li.textContent ?? '').find((t) => t.includes('Python')) ?? '');
const cachedPyodide = (page: Page) => page.evaluate(async () => {
  const paths: string[] = [];
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) if (request.url.includes('/runtimes/pyodide/')) paths.push(new URL(request.url).pathname);
  }
  return paths.sort();
});

async function runOnePython(page: Page): Promise<string> {
  await chooseSource(page, { value: 'canonical' });
  await selectLanguages(page, ['python']);
  await page.getByTestId('filter-limit').fill('1');
  await runAndWait(page, { timeout: 240_000 });
  return (await page.getByTestId('pass1').textContent()) ?? '';
}

describe('loading runtimes in the page', () => {
  const chromium = useChromium();

  it('fetches runtime files off the main thread; a returning visit with Pyodide cached starts Python before Run', { timeout: 420_000 }, async () => {
    const requests: string[] = [];
    const { page, context } = await chromium.openApp({ requests });
    // Registered before the visit below (addInitScript is asynchronous: openApp's own visit may not get it).
    await page.addInitScript(recordMainThreadFetches);
    await visitApp(page, appOrigin());
    expect(await mainFetches(page)).toBeDefined();
    // First visit: nothing is cached, so nothing starts and nothing is downloaded until Run.
    await page.waitForTimeout(3000);
    expect(requests.filter((url) => url.includes('/runtimes/'))).toEqual([]);
    expect(await page.getByTestId('runtime-sandbox').count()).toBe(0);

    expect(await runOnePython(page)).toContain('(1/1)');
    // The files came (they are in Cache Storage, checked against the build when read back) but
    // never through the main thread's fetch: the runtime-files worker fetched them.
    expect(await cachedPyodide(page)).toEqual([
      '/runtimes/pyodide/pyodide-lock.json', '/runtimes/pyodide/pyodide.asm.js', '/runtimes/pyodide/pyodide.asm.wasm', '/runtimes/pyodide/python_stdlib.compiled.zip',
    ]);
    expect((await mainFetches(page)).filter((url) => url.includes('/runtimes/'))).toEqual([]);

    // Returning: the demo set has Python problems and Pyodide is cached, so Python loads without a click.
    requests.length = 0;
    await visitApp(page, appOrigin());
    await expect.poll(() => pythonStatus(page), { timeout: 180_000, interval: 200 }).toMatch(/Pyodide .* ready/);
    expect(requests.filter((url) => url.includes('/runtimes/'))).toEqual([]);
    expect(await runOnePython(page)).toContain('(1/1)');
    expect(requests.filter((url) => url.includes('/runtimes/'))).toEqual([]);
    await context.close();
  });
});
