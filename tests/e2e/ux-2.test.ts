/**
 * The page as a demanding user meets it (issue #17, items 4, 5, 8 and 10), in the built app in
 * headless Chromium: a runaway program does not hold up its language and its wait is not shown as
 * the others' run time; the runtime download is stated before Run and shown as it goes; a reload
 * mid-run puts the run's dataset back and asks for the key in the resume banner; problems have
 * titles, search and sort, and the Runs table shows the model whole. Needs `dist/` (`npm run build`).
 */
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CATALOG } from '../../runtimes/host/catalog';
import { problemTitle } from '../../src/core/title';
import { formatBytes } from '../../src/app/lib/format';
import { loadDataset, runAndWait, selectLanguages, visitApp } from '../../src/bench/app-page';
import { appOrigin, useChromium } from '../support/e2e';
import { startMockProvider, type MockProvider } from '../support/mock-provider';

const root = fileURLToPath(new URL('../../', import.meta.url));
type DemoRecord = Record<string, unknown> & { language: string; question: string };
const demo = readFileSync(`${root}bench-data/demo.jsonl`, 'utf8').trim().split('\n').map((l) => {
  const { output: _o, ...plain } = JSON.parse(l) as DemoRecord;
  return plain as DemoRecord;
});
const jsonl = (records: object[]) => Buffer.from(records.map((r) => JSON.stringify(r) + '\n').join(''));
const KEY = `sk-ux2-e2e-${Math.random().toString(36).slice(2)}`;
const LONG_MODEL = 'mock-coder-2026-12-01-instruct-with-a-very-long-name-q8_0';

describe('the page for a demanding user (2)', () => {
  const chromium = useChromium();
  const origin = appOrigin();
  let mock: MockProvider;

  beforeAll(async () => {
    mock = await startMockProvider({ apiKey: KEY });
  });
  afterAll(() => mock?.close());

  const text = async (page: Page, testId: string) => (await page.getByTestId(testId).first().textContent())!.replace(/\s+/g, ' ').trim();

  it('(5) says what Run will download, shows each runtime\'s percent while it downloads, and "cached" on the next visit', { timeout: 240_000 }, async () => {
    const pageErrors: string[] = [];
    const { page, context } = await chromium.openApp({ viewport: { width: 1440, height: 900 }, pageErrors });
    try {
      // JavaScript: the smallest runtime (QuickJS), so the test spends its time on the download.
      await selectLanguages(page, ['javascript']);
      await page.getByTestId('filter-limit').fill('2');
      // The figure comes from the files the build serves, as they are on disk.
      const jsBytes = Object.values(CATALOG.javascript!.files).reduce((n, path) => n + statSync(`${root}node_modules/${path}`).size, 0);
      const plan = page.getByTestId('download-plan');
      await plan.waitFor();
      expect(Number(await plan.getAttribute('data-bytes'))).toBe(jsBytes);
      expect(await text(page, 'download-plan')).toBe(`Runtimes to download first: ${formatBytes(jsBytes)} (JavaScript ${formatBytes(jsBytes)}).`);

      // A slow line (about 4 s for QuickJS), so the download is seen as it goes.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: 128 * 1024, uploadThroughput: -1 });
      await page.evaluate(() => {
        const w = window as unknown as { percents: number[]; etaHeld: boolean };
        const seen: number[] = (w.percents = []);
        w.etaHeld = false;
        const timer = setInterval(() => {
          const bar = document.querySelector('[data-testid="runtime-download"][data-language="javascript"]');
          const p = bar ? Number(bar.getAttribute('data-percent')) : NaN;
          if (!Number.isNaN(p) && seen[seen.length - 1] !== p) seen.push(p);
          // While it downloads, the run's ETA waits for the download instead of counting it as pace.
          if (bar && document.querySelector('[data-testid="progress"]')?.textContent?.includes('ETA after the download')) w.etaHeld = true;
          if (document.querySelector('[data-testid="progress"][data-state="done"]')) clearInterval(timer);
        }, 40);
      });
      await page.getByTestId('model-select').selectOption({ label: 'Canonical solutions (self-check)' });
      await runAndWait(page, { timeout: 180_000 });
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      const percents = await page.evaluate(() => (window as unknown as { percents: number[] }).percents);
      console.log(`JavaScript runtime download, percents seen: ${percents.join(', ')}`);
      expect(percents.length).toBeGreaterThanOrEqual(3);
      expect(percents.some((p) => p > 0 && p < 100)).toBe(true);
      for (let i = 1; i < percents.length; i++) expect(percents[i]).toBeGreaterThan(percents[i - 1]!);
      expect(await text(page, 'pass1')).toBe('Pass@1: 100.0% (2/2)');
      expect(await page.evaluate(() => (window as unknown as { etaHeld: boolean }).etaHeld)).toBe(true);
      // The elapsed time says how much of it was the download (at 128 KB/s, more than 3 s).
      expect(await text(page, 'progress')).toMatch(/elapsed \(runtime downloads [3-9]\.\d s\)|elapsed \(runtime downloads \d\d\.\d s\)/);

      // A second visit (same browser, so the same Cache Storage): nothing to download.
      const again = await context.newPage();
      await visitApp(again, origin);
      await selectLanguages(again, ['javascript']);
      await again.getByTestId('download-plan').filter({ hasText: 'cached' }).waitFor();
      expect(await again.getByTestId('download-plan').getAttribute('data-bytes')).toBe('0');
      expect(await text(again, 'download-plan')).toBe(`Runtimes cached in this browser (${formatBytes(jsBytes)}): JavaScript. Nothing to download.`);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('(4) a runaway program does not hold up its language, and quick problems show their own run time', { timeout: 240_000 }, async () => {
    const pageErrors: string[] = [];
    const { page, context } = await chromium.openApp({ viewport: { width: 1440, height: 900 }, pageErrors });
    try {
      const runaway = { question: '# Runaway\nLoops forever.', canonical_solution: 'function f() { for (;;) {} }', demo_test_func: 'f();', full_test_func: 'f();', language: 'javascript', difficulty: 'easy' };
      const quick = demo.filter((p) => p.language === 'javascript').slice(0, 4);
      await loadDataset(page, 'runaway.jsonl', jsonl([runaway, ...quick]));
      await page.getByTestId('dataset-count').filter({ hasText: '5 problems' }).waitFor();
      await page.getByTestId('model-select').selectOption({ label: 'Canonical solutions (self-check)' });
      // Not the official 30 s: the runaway runs to the limit twice (demo and full tests, side by
      // side), so the limit is most of this test's time. The quick problems passed 8.6–9.5 s after
      // Run in CI (worker start included), so 20 s keeps them done well before the runaway ends.
      const LIMIT_S = 20;
      await page.getByTestId('time-limit').fill(String(LIMIT_S));
      await page.getByTestId('concurrency').fill('5');
      const started = Date.now();
      await page.getByTestId('run-button').click();
      const rows = page.locator('[data-testid="problem-row"]');
      const runawayRow = rows.filter({ hasText: 'Runaway' });
      // Every quick problem has passed while the runaway still runs (it runs to its limit): read at
      // one moment in the page, when the quick ones are done or the runaway is over.
      const moment = await page.waitForFunction(() => {
        const rows = [...document.querySelectorAll('[data-testid="problem-row"]')];
        const runaway = rows.find((r) => r.textContent?.includes('Runaway'))?.getAttribute('data-outcome');
        const passed = rows.filter((r) => r.getAttribute('data-outcome') === 'PASSED').length;
        return passed === 4 || (runaway !== 'RUNNING' && runaway !== 'QUEUED') ? { passed, runaway } : null;
      }, undefined, { timeout: 120_000, polling: 100 });
      const quickDone = Date.now() - started;
      expect(await moment.jsonValue()).toEqual({ passed: 4, runaway: 'RUNNING' });
      // While a run goes on, the page animates only what the compositor moves by itself (transform,
      // opacity): an animated background or width repaints the page every frame, on the cores the
      // runtimes need (ProgressBar.svelte).
      const animated = await page.evaluate(() => document.getAnimations().map((a) => ({
        name: a instanceof CSSAnimation ? a.animationName : a instanceof CSSTransition ? `transition of ${a.transitionProperty}` : 'script',
        properties: [...new Set((a.effect as KeyframeEffect).getKeyframes().flatMap((k) => Object.keys(k)))].filter((p) => !['offset', 'computedOffset', 'easing', 'composite'].includes(p)),
      })));
      expect(animated.map((a) => a.name)).toContainEqual(expect.stringContaining('stripes'));
      for (const a of animated) expect(a.properties.filter((p) => p !== 'transform' && p !== 'opacity'), a.name).toEqual([]);
      await page.locator('[data-testid="progress"][data-state="done"]').waitFor({ timeout: 120_000 });
      console.log(`runaway: the 4 quick problems passed ${(quickDone / 1000).toFixed(1)} s after Run, the runaway ended after ${((Date.now() - started) / 1000).toFixed(1)} s`);
      expect(await runawayRow.getAttribute('data-outcome')).toBe('TIME_LIMIT_EXCEEDED');
      // The quick problems' shown time is their run, not the wait behind the runaway.
      for (const row of await rows.filter({ hasNotText: 'Runaway' }).all()) {
        const time = row.getByTestId('problem-time');
        expect(Number(await time.getAttribute('data-run-ms'))).toBeLessThan(3000);
        const waitMs = Number(await time.getAttribute('data-wait-ms'));
        if (waitMs >= 500) expect(await time.textContent()).toMatch(/\(\+\d+(\.\d)? s wait\)$/);
      }
      // Both of the runaway's programs ran to the limit.
      expect(Number(await runawayRow.getByTestId('problem-time').getAttribute('data-run-ms'))).toBeGreaterThanOrEqual(2 * LIMIT_S * 1000 - 500);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('(10) problems have titles, a search and sortable columns', { timeout: 240_000 }, async () => {
    const pageErrors: string[] = [];
    const { page, context } = await chromium.openApp({ viewport: { width: 1440, height: 900 }, pageErrors });
    try {
      const js = demo.filter((p) => p.language === 'javascript').slice(0, 5);
      const broken = { ...js[0]!, question: '# Broken Adder\nAdd two numbers.', canonical_solution: 'function add(a, b) { return a - b; }', demo_test_func: 'if (add(1, 2) !== 3) throw new Error("wrong");', full_test_func: 'if (add(2, 2) !== 4) throw new Error("wrong");' };
      const records = [...js, broken];
      await loadDataset(page, 'titles.jsonl', jsonl(records));
      await page.getByTestId('dataset-count').filter({ hasText: '6 problems' }).waitFor();
      await page.getByTestId('model-select').selectOption({ label: 'Canonical solutions (self-check)' });
      await runAndWait(page, { timeout: 180_000 });
      const titles = () => page.getByTestId('problem-title').allTextContents();
      expect(await titles()).toEqual(records.map((r) => problemTitle(r.question)));
      expect((await titles())[0]).toBe('Convert Identifiers to snake_case');

      // Search narrows the rows, by title (any case) or by id.
      await page.getByTestId('problem-search').fill('ROMAN');
      expect(await titles()).toEqual(['Roman Numerals to Integers']);
      const id = (await page.getByTestId('problem-row').first().getAttribute('data-id'))!;
      await page.getByTestId('problem-search').fill(id.slice(0, 8));
      expect(await page.getByTestId('problem-row').first().getAttribute('data-id')).toBe(id);
      await page.getByTestId('problem-search').fill('');
      expect(await page.getByTestId('problem-row').count()).toBe(6);

      // Sort by title, both ways; by outcome; by run time.
      await page.getByTestId('sort-title').click();
      const byTitle = [...records.map((r) => problemTitle(r.question))].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
      expect(await titles()).toEqual(byTitle);
      expect(await page.locator('th[aria-sort="ascending"]').textContent()).toContain('Title');
      await page.getByTestId('sort-title').click();
      expect(await titles()).toEqual([...byTitle].reverse());
      await page.getByTestId('sort-outcome').click();
      const outcomes = await page.getByTestId('problem-row').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-outcome')));
      expect(outcomes).toEqual(['PASSED', 'PASSED', 'PASSED', 'PASSED', 'PASSED', 'RUNTIME_ERROR']);
      await page.getByTestId('sort-time').click();
      const times = (await page.getByTestId('problem-time').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-run-ms')))));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('(8, 10) after a reload mid-run the panel shows the run\'s dataset, the banner takes the key, and Continue finishes; Runs shows the model whole', { timeout: 300_000 }, async () => {
    const pageErrors: string[] = [];
    const { page, context } = await chromium.openApp({ viewport: { width: 1440, height: 900 }, pageErrors });
    try {
      const records = [...demo.filter((p) => p.language === 'javascript'), ...demo.filter((p) => p.language === 'typescript').slice(0, 4)];
      await loadDataset(page, 'interrupted.jsonl', jsonl(records));
      await page.getByTestId('dataset-count').filter({ hasText: `${records.length} problems` }).waitFor();
      await page.getByTestId('model-select').selectOption('provider');
      await page.getByTestId('provider-preset').selectOption('openai');
      await page.getByTestId('provider-base-url').fill(mock.baseUrl('openai'));
      await page.getByTestId('provider-model').fill(LONG_MODEL);
      // Allowing the mock's origin reloads the page: the file is loaded again after it.
      await Promise.all([page.waitForEvent('load'), page.getByTestId('provider-allow-origin').click()]);
      await page.getByTestId('provider-settings').waitFor();
      await loadDataset(page, 'interrupted.jsonl', jsonl(records));
      await page.getByTestId('dataset-count').filter({ hasText: `${records.length} problems` }).waitFor();
      await page.getByTestId('provider-key').fill(KEY);
      await page.getByTestId('concurrency').fill('2');
      // One recorded JavaScript answer loops forever: 5 s instead of the official limit (the
      // others take well under a second in QuickJS), as in tests/e2e/providers.test.ts.
      await page.getByTestId('time-limit').fill('5');
      mock.reset();
      mock.inject({ problem: '*', fault: { kind: 'slow', delayMs: 600 }, times: Infinity });
      await page.getByTestId('run-button').click();
      await page.waitForFunction(() => Number(document.querySelector('[data-testid="progress"][data-state="running"]')?.getAttribute('data-done') ?? 0) >= 3, undefined, { timeout: 120_000, polling: 50 });
      await page.reload();
      await page.getByTestId('run-button').waitFor();

      // The panel holds the interrupted run's dataset, not the demo set; the banner asks for the key.
      const offer = page.getByTestId('resume-offer');
      await offer.waitFor();
      await page.getByTestId('dataset-name').filter({ hasText: 'interrupted.jsonl' }).waitFor({ timeout: 10_000 });
      expect(await text(page, 'run-dataset')).toBe('interrupted.jsonl');
      const key = offer.getByTestId('resume-key');
      expect(await key.isVisible()).toBe(true);
      expect(await offer.textContent()).toContain('API key for OpenAI');
      expect(await offer.getByTestId('resume-continue').isDisabled()).toBe(true);
      // The answers this browser stored before the reload: Continue must not ask for them again.
      const runId = (await offer.getAttribute('data-run'))!;
      const answered = await page.evaluate(async (id) => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const r = indexedDB.open('benchtop');
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(r.error);
        });
        const all = await new Promise<Array<{ runId: string; problemId: string }>>((resolve, reject) => {
          const r = db.transaction('answers').objectStore('answers').getAll();
          r.onsuccess = () => resolve(r.result as Array<{ runId: string; problemId: string }>);
          r.onerror = () => reject(r.error);
        });
        db.close();
        return all.filter((a) => a.runId === id).map((a) => a.problemId);
      }, runId);
      const before = new Map(answered.map((id) => [id, mock.countFor(id)]));

      await key.fill(KEY);
      await runAndWait(page, { start: () => offer.getByTestId('resume-continue').click(), timeout: 180_000 });
      expect(await page.getByTestId('progress').getAttribute('data-done')).toBe(String(records.length));
      expect(await page.getByTestId('run-error').count()).toBe(0);
      // Answered before the reload: not asked again.
      for (const [id, count] of before) expect(mock.countFor(id), id).toBe(count);
      expect(answered.length).toBeGreaterThanOrEqual(3);
      expect(answered.length).toBeLessThan(records.length);

      // The Runs table: the model first, whole.
      await page.getByTestId('view-runs').click();
      const model = page.getByTestId('run-model').first();
      await model.waitFor();
      expect(await model.textContent()).toContain(LONG_MODEL);
      // Not cut: every line of the name lies inside the cell, which is the first after the tick box.
      const shown = await model.evaluate((td) => {
        const range = document.createRange();
        range.selectNodeContents(td);
        const cell = (td as HTMLTableCellElement).getBoundingClientRect();
        const inside = [...range.getClientRects()].every((r) => r.left >= cell.left - 0.5 && r.right <= cell.right + 0.5);
        return { inside, cellIndex: (td as HTMLTableCellElement).cellIndex, overflow: getComputedStyle(td).textOverflow };
      });
      expect(shown).toEqual({ inside: true, cellIndex: 1, overflow: 'clip' });
      expect(await page.locator('[data-testid="run-list"] thead th').nth(1).textContent()).toBe('Model');
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
