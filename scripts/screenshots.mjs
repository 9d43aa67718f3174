#!/usr/bin/env node
/**
 * `npm run screenshots`: regenerates the pictures in docs/ from the built app (dist/).
 * Serves dist/ with `vite preview` on 127.0.0.1, drives Debian's Chromium with playwright-core
 * (no browser is downloaded), replays the recorded demo answers with a 5 s time limit and writes
 *   docs/screenshot-run.png      a run in progress
 *   docs/screenshot-results.png  Pass@1, the language table and the problem list
 *   docs/screenshot-problem.png  a failing problem's detail view
 *   docs/screenshot-provider.png the model provider settings and a provider run's live counters,
 *                                against the local mock server of the tests (no real API is called)
 *   docs/screenshot-runs.png     the run list and the comparison of two runs per language
 *   docs/screenshot-metrics.png  a run with several samples and turns (the recorded multi-sample demo
 *                                answers, n = 4, 3 turns): pass@k and Pass@1 after each turn, per
 *                                language, difficulty and outcome
 *   docs/screenshot-charts.png   that run's charts (per language with the overall line, difficulty,
 *                                refinement curve, pass@k curve)
 *   docs/screenshot-leaderboard.png  the leaderboard of the runs stored in that browser
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.mjs';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { preview } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const docs = `${root}docs/`;

if (!existsSync(`${root}dist/index.html`)) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(1);
}
if (!existsSync(CHROMIUM_PATH)) {
  console.error(`No Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH).`);
  process.exit(1);
}
mkdirSync(docs, { recursive: true });

process.chdir(root);

/** The tests' mock model server (TypeScript), bundled for Node on the fly. */
async function startMock(apiKey) {
  const dir = mkdtempSync(join(tmpdir(), 'benchtop-mock-'));
  const file = join(dir, 'mock-provider.mjs');
  await build({ entryPoints: [`${root}tests/support/mock-provider.ts`], outfile: file, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error' });
  const { startMockProvider } = await import(pathToFileURL(file).href);
  rmSync(dir, { recursive: true, force: true });
  return startMockProvider({ apiKey });
}

/** Ticks exactly these languages in the dataset panel. */
async function selectLanguages(page, wanted) {
  for (const box of await page.locator('[data-testid^="filter-language-"]').all()) {
    const language = (await box.getAttribute('data-testid')).slice('filter-language-'.length);
    if ((await box.isChecked()) !== wanted.includes(language)) await box.click();
  }
}

/** Clicks and waits until the evaluation it starts has ended. */
async function evaluate(page, action) {
  const before = await page.evaluate(() => Number(document.querySelector('main')?.getAttribute('data-session') ?? 0));
  await action();
  await page.waitForFunction((b) => {
    const p = document.querySelector('[data-testid="progress"]');
    return !!p && Number(p.getAttribute('data-session')) > b && p.getAttribute('data-state') === 'done';
  }, before, { timeout: 240_000, polling: 100 });
}

const server = await preview({
  root,
  logLevel: 'warn',
  preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
});
const address = server.httpServer.address();
const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });

try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  await page.goto(`${origin}/`);
  await page.getByTestId('run-button').waitFor();

  await page.getByTestId('model-select').selectOption({ label: 'Recorded demo answers' });
  await page.getByTestId('time-limit').fill('5');
  await page.getByTestId('run-button').click();

  // Mid-run: some problems done, the rest still going.
  await page.waitForFunction(() => {
    const p = document.querySelector('[data-testid="progress"]');
    return p && p.getAttribute('data-state') === 'running' && Number(p.getAttribute('data-done')) >= 9;
  }, null, { timeout: 180_000, polling: 100 });
  await page.screenshot({ path: `${docs}screenshot-run.png` });
  console.log('wrote docs/screenshot-run.png');

  await page.locator('[data-testid="progress"][data-state="done"]').waitFor({ timeout: 240_000 });
  console.log(`page: ${await page.getByTestId('pass1').textContent()}`);
  await page.mouse.move(0, 0);
  await page.evaluate(() => {
    const controls = document.querySelector('[data-testid="run-controls"]');
    if (controls) window.scrollTo(0, controls.getBoundingClientRect().top + window.scrollY - 16);
  });
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${docs}screenshot-results.png` });
  console.log('wrote docs/screenshot-results.png');

  // A failing problem: the first RUNTIME_ERROR (a failed assert, SPEC §4), scrolled to the run that failed.
  await page.getByTestId('outcome-filter-RUNTIME_ERROR').click();
  await page.getByTestId('problem-row').first().click();
  const detail = page.getByTestId('problem-detail');
  await detail.waitFor();
  await detail.getByTestId('show-failing-run').click();
  await page.waitForTimeout(700);
  await page.screenshot({ path: `${docs}screenshot-problem.png` });
  console.log('wrote docs/screenshot-problem.png');
  await page.keyboard.press('Escape');

  // The model provider: settings, then a run with live counters (the mock answers slowly).
  const KEY = 'sk-demo-0123456789abcdef';
  const mock = await startMock(KEY);
  try {
    mock.inject({ problem: '*', fault: { kind: 'slow', delayMs: 1500 }, times: Infinity });
    const tall = await browser.newPage({ viewport: { width: 1440, height: 1400 }, deviceScaleFactor: 1 });
    tall.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await tall.goto(`${origin}/`);
    await tall.getByTestId('run-button').waitFor();
    // A self-check run of the same languages, to compare with.
    await selectLanguages(tall, ['javascript', 'typescript']);
    await tall.getByTestId('time-limit').fill('5');
    await evaluate(tall, () => tall.getByTestId('run-button').click());

    await tall.getByTestId('model-select').selectOption('provider');
    await tall.getByTestId('provider-preset').selectOption('vllm');
    await tall.getByTestId('provider-base-url').fill(mock.baseUrl('openai'));
    await Promise.all([tall.waitForEvent('load'), tall.getByTestId('provider-allow-origin').click()]);
    await tall.getByTestId('provider-settings').waitFor();
    await tall.getByTestId('provider-key').fill(KEY);
    await tall.getByTestId('provider-list-models').click();
    await tall.getByTestId('provider-models-listed').waitFor();
    await tall.getByTestId('provider-model').fill('mock-coder');
    await tall.getByTestId('provider-price-in').fill('0.15');
    await tall.getByTestId('provider-price-out').fill('0.60');
    await selectLanguages(tall, ['javascript', 'typescript']);
    await tall.getByTestId('time-limit').fill('5');
    await tall.getByTestId('run-button').click();
    await tall.waitForFunction(() => {
      const p = document.querySelector('[data-testid="progress"]');
      return p && p.getAttribute('data-state') === 'running' && Number(p.getAttribute('data-done')) >= 6;
    }, null, { timeout: 120_000, polling: 100 });
    await tall.mouse.move(0, 0);
    // Filling the form scrolled the page: show it from the top.
    await tall.evaluate(() => window.scrollTo(0, 0));
    await tall.waitForTimeout(200);
    await tall.screenshot({ path: `${docs}screenshot-provider.png` });
    console.log('wrote docs/screenshot-provider.png');
    await tall.locator('[data-testid="progress"][data-state="done"]').waitFor({ timeout: 240_000 });
    console.log(`provider run: ${await tall.getByTestId('pass1').textContent()}`);

    // The run list, and the provider run compared with the self-check.
    await tall.getByTestId('view-runs').click();
    const rows = tall.getByTestId('run-row');
    await rows.nth(0).getByTestId('run-pick').check();
    await rows.nth(1).getByTestId('run-pick').check();
    await tall.getByTestId('compare-runs').click();
    await tall.getByTestId('run-compare').waitFor();
    await tall.setViewportSize({ width: 1440, height: 900 });
    await tall.waitForTimeout(300);
    await tall.screenshot({ path: `${docs}screenshot-runs.png` });
    console.log('wrote docs/screenshot-runs.png');

    // Several samples and turns: the recorded multi-sample demo answers, n = 4, 3 turns.
    await tall.getByTestId('view-evaluate').click();
    await tall.getByTestId('model-select').selectOption('demo-answers-multi');
    await selectLanguages(tall, ['python', 'javascript', 'typescript']);
    await tall.getByTestId('samples').fill('4');
    await tall.getByTestId('turns').fill('3');
    await tall.getByTestId('time-limit').fill('5');
    await tall.getByTestId('concurrency').fill('3');
    await evaluate(tall, () => tall.getByTestId('run-button').click());
    console.log(`multi-sample run: ${(await tall.getByTestId('metric-line').allTextContents()).join(' | ')} | ${await tall.getByTestId('pass1').textContent()}`);
    await tall.mouse.move(0, 0);
    await tall.evaluate(() => {
      const summary = document.querySelector('[data-testid="summary"]');
      if (summary) window.scrollTo(0, summary.getBoundingClientRect().top + window.scrollY - 16);
    });
    await tall.waitForTimeout(300);
    await tall.screenshot({ path: `${docs}screenshot-metrics.png` });
    console.log('wrote docs/screenshot-metrics.png');
    const charts = tall.getByTestId('charts');
    await charts.locator('svg.drawn').first().waitFor();
    await charts.scrollIntoViewIfNeeded();
    await tall.waitForTimeout(300);
    await charts.screenshot({ path: `${docs}screenshot-charts.png` });
    console.log('wrote docs/screenshot-charts.png');

    await tall.getByTestId('view-leaderboard').click();
    await tall.getByTestId('board-table').waitFor();
    await tall.waitForTimeout(300);
    // The page's header and the board, without the empty page below.
    const board = await tall.getByTestId('leaderboard').boundingBox();
    await tall.screenshot({ path: `${docs}screenshot-leaderboard.png`, clip: { x: 0, y: 0, width: 1440, height: Math.ceil(board.y + board.height + 24) } });
    console.log('wrote docs/screenshot-leaderboard.png');
  } finally {
    await mock.close();
  }
} finally {
  await browser.close();
  await server.close();
}
