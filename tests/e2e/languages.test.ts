/**
 * Every in-page language end to end in headless Chromium: the built app runs one demo problem of
 * each language in runtimes/host/catalog.ts with its canonical solution, inside the sandbox frame,
 * and must pass it (C++: app.test.ts's replay, which loads clang anyway). The runtime's download
 * is reported in MB while it loads, and a second visit takes every runtime file from the browser's
 * cache instead of downloading it again.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOG } from '../../runtimes/host/catalog';
import { WORKER_LANGUAGES } from '../../runtimes/host/languages';
import { visitApp } from '../../src/bench/app-page';
import { LANGUAGE_NAMES, type LanguageId } from '../../src/contracts';
import { appOrigin, recordRuntimeStatus, runtimeStatusTexts, useChromium } from '../support/e2e';

describe('every in-page language in Chromium', () => {
  const chromium = useChromium();
  let page: Page;
  const origin = appOrigin();
  const requests: string[] = [];

  const statusLog = () => runtimeStatusTexts(page);

  /** Runs the first demo problem of `language` with its canonical solution; returns the Pass@1 line. */
  async function runOne(language: LanguageId): Promise<string> {
    await page.getByTestId('model-select').selectOption({ label: 'Canonical solutions (self-check)' });
    await page.getByRole('button', { name: 'none' }).click();
    await page.getByTestId(`filter-language-${language}`).check();
    await page.getByTestId('filter-limit').fill('1');
    expect(await page.getByTestId('selected-count').textContent()).toContain('1');
    // The last run's bar stays "done" until the new run is stored and shown: wait for the new one.
    const previous = (await page.getByTestId('progress').count()) ? await page.getByTestId('progress').getAttribute('data-run') : null;
    await page.getByTestId('run-button').click();
    await page.locator(`[data-testid="progress"][data-state="done"]${previous ? `:not([data-run="${previous}"])` : ''}`).waitFor({ timeout: 300_000 });
    return (await page.getByTestId('pass1').textContent()) ?? '';
  }

  beforeAll(async () => {
    ({ page } = await chromium.openApp({ requests }));
    await recordRuntimeStatus(page, { from: 'now' });
  });

  // C++ is left to tests/e2e/app.test.ts, which loads clang in the page anyway and checks the same
  // status texts: here it cost a clang load (about 35 s of CI) for one problem.
  for (const language of WORKER_LANGUAGES.filter((l) => l !== 'cpp')) {
    it(`${language}: a demo problem passes in the page, with its download reported in MB`, { timeout: 420_000 }, async () => {
      const before = (await statusLog()).length;
      expect(await runOne(language)).toBe('Pass@1: 100.0% (1/1)');
      // The result names the runtime that produced it.
      await page.getByTestId('problem-row').first().click();
      const run = (await page.getByTestId('run-demo').textContent()) ?? '';
      expect(run).toMatch(/Runtime\s*\S+/);
      expect(run).not.toContain('Runtime—');
      await page.getByTestId('detail-close').click();
      // Only this language's part of the status line, from this run on.
      const log = (await statusLog()).slice(before).map((text) => text.split(LANGUAGE_NAMES[language]).slice(1).join(LANGUAGE_NAMES[language])).join('\n');
      // The first language to use a file downloads it (QuickJS's is shared by JavaScript and TypeScript).
      const sharedWithEarlier = WORKER_LANGUAGES.slice(0, WORKER_LANGUAGES.indexOf(language))
        .some((l) => Object.values(CATALOG[l]!.files).some((f) => Object.values(CATALOG[language]!.files).includes(f)));
      const hasFiles = Object.keys(CATALOG[language]!.files).length > 0;
      if (hasFiles && !sharedWithEarlier) expect(log).toMatch(/downloading runtime files: [\d.]+( of [\d.]+)? MB/);
      if (!hasFiles) expect(log).not.toMatch(/downloading runtime files/);
      expect(log).toMatch(/loading .*MB\)…/);
      // The ready line says what the worker's start cost, step by step (runtimes/host/pool.ts describeLoad).
      expect(log).toMatch(/ ready, loaded in \d+\.\d s \(worker \d+\.\d s/);
      // Every request went to the app's own origin.
      expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('blob:') && !url.startsWith('data:'))).toEqual([]);
    });
  }

  it('a second visit downloads no runtime file again', { timeout: 300_000 }, async () => {
    requests.length = 0;
    // From the visit's first moment: with Pyodide cached, the page starts Python as the demo set
    // loads (runtimes.svelte.ts warmAhead), which may report its files before visitApp returns.
    await recordRuntimeStatus(page, { from: 'each visit' });
    await visitApp(page, origin);
    const language = WORKER_LANGUAGES[0]!;
    expect(await runOne(language)).toBe('Pass@1: 100.0% (1/1)');
    expect(requests.filter((url) => url.includes('/runtimes/'))).toEqual([]);
    expect((await statusLog()).join('\n')).toMatch(/MB from this browser's cache/);
  });
});
