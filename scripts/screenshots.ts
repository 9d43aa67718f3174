/**
 * `npm run screenshots` (`npx tsx scripts/screenshots.ts` after a build): regenerates the pictures
 * in docs/ from the built app (dist/), served and driven in Debian's Chromium the way the e2e tests
 * do it (src/bench/app-page.ts). Replays the recorded demo answers with a 5 s time limit and writes
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
 *   docs/screenshot-generate.png the Generate tab's funnel: Python seeds (good ones and the tests'
 *                                bad ones) through the generator against the tests' local mock
 *                                models (tests/support/gen-mock-provider.ts), the kept ones
 *                                translated to JavaScript (stage 6), one drop opened
 * `--only generate` writes that last one alone.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { chooseSource, launchChromium, openApp, progress, readPass1, runAndWait, selectLanguages, startAppServer } from '../src/bench/app-page';
import { startGenMock } from '../tests/support/gen-mock-provider';
import { startMockProvider } from '../tests/support/mock-provider';

const root = fileURLToPath(new URL('..', import.meta.url));
const docs = `${root}docs/`;
mkdirSync(docs, { recursive: true });
process.chdir(root);

/** Waits until the run under way has `done` problems finished. */
async function doneAtLeast(page: Page, done: number, timeout: number): Promise<void> {
  await page.waitForFunction((n) => {
    const p = document.querySelector('[data-testid="progress"]');
    return p?.getAttribute('data-state') === 'running' && Number(p.getAttribute('data-done')) >= n;
  }, done, { timeout, polling: 100 });
}

/**
 * Writes docs/<name>.png of the page's viewport (or of one element); with `top` (a test id), first
 * scrolled so that this element stands 16 px below the top, the mouse out of the way.
 */
async function shot(target: Page | Locator, name: string, top?: string): Promise<void> {
  if (top && 'mouse' in target) {
    const page = target;
    await page.mouse.move(0, 0);
    await page.evaluate((id) => {
      const element = document.querySelector(`[data-testid="${id}"]`);
      if (element) window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 16);
    }, top);
    await page.waitForTimeout(300);
  }
  await target.screenshot({ path: `${docs}${name}.png` });
  console.log(`wrote docs/${name}.png`);
}

/** The Generate tab after a job of good and bad seeds, a dropped seed's exchanges open. */
async function generateShot(origin: string): Promise<void> {
  const mock = await startGenMock();
  try {
    const { page } = await openApp(browser, origin, { viewport: { width: 1440, height: 1500 }, deviceScaleFactor: 1, logErrors: true });
    await page.getByTestId('view-generate').click();
    await page.getByTestId('provider-preset').selectOption('openai');
    await page.getByTestId('provider-base-url').fill(mock.baseUrl);
    await page.getByTestId('provider-model').fill('mock-gen');
    await Promise.all([page.waitForEvent('load'), page.getByTestId('provider-allow-origin').click()]);
    await page.getByTestId('view-generate').click();
    const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);
    // The good seeds whose JavaScript translation the mock scripts (compress's fails its tests), and the bad ones.
    const good = lines('bench-data/gen-seeds/python.jsonl').filter((l) => /"def (gcd|digit_sum|compress)\(/.test(l));
    const seeds = [...good, ...lines('tests/fixtures/gen/bad-python.jsonl')].join('\n') + '\n';
    await page.getByTestId('gen-files').setInputFiles({ name: 'seeds.jsonl', mimeType: 'text/plain', buffer: Buffer.from(seeds) });
    await page.getByTestId('gen-difficulty-model').fill('mock-small');
    await page.getByTestId('gen-samples').fill('2');
    await page.getByTestId('gen-drop-solved').check();
    await page.getByTestId('gen-translate-javascript').check();
    await page.getByTestId('provider-price-in').fill('0.15');
    await page.getByTestId('provider-price-out').fill('0.60');
    await page.getByTestId('gen-start').click();
    await page.locator('[data-testid="gen-funnel"][data-state="done"]').waitFor({ timeout: 300_000 });
    await page.locator('[data-testid="gen-item"][data-state="dropped"] summary').first().click();
    console.log(`generate: ${await page.getByTestId('gen-status').textContent()}, kept ${await page.getByTestId('gen-step-kept').getAttribute('data-count')} of ${await page.getByTestId('gen-step-seeds').getAttribute('data-count')}`);
    await shot(page, 'screenshot-generate', 'gen-funnel');
  } finally {
    await mock.close();
  }
}

const onlyGenerate = process.argv.includes('--only') && process.argv.includes('generate');
const server = await startAppServer(root);
const { origin } = server;
const browser = await launchChromium();

try {
  if (!onlyGenerate) {
    const { page } = await openApp(browser, origin, { viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1, logErrors: true });

    await chooseSource(page, 'Recorded demo answers');
    await page.getByTestId('time-limit').fill('5');
    await page.getByTestId('run-button').click();

    // Mid-run: some problems done, the rest still going.
    await doneAtLeast(page, 9, 180_000);
    await shot(page, 'screenshot-run');

    await progress(page, 'done').waitFor({ timeout: 240_000 });
    console.log(`page: ${await readPass1(page)}`);
    await shot(page, 'screenshot-results', 'run-controls');
    // The same results on a phone, 390 px wide: nothing scrolls sideways (tests/e2e/a11y.test.ts).
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'screenshot-phone', 'run-controls');
    await page.setViewportSize({ width: 1440, height: 900 });

    // A failing problem: the first RUNTIME_ERROR (a failed assert, SPEC §4), scrolled to the run that failed.
    await page.getByTestId('outcome-filter-RUNTIME_ERROR').click();
    await page.getByTestId('problem-row').first().click();
    const detail = page.getByTestId('problem-detail');
    await detail.waitFor();
    await detail.getByTestId('show-failing-run').click();
    await page.waitForTimeout(700);
    await shot(page, 'screenshot-problem');
    await page.keyboard.press('Escape');

    // The model provider: settings, then a run with live counters (the mock answers slowly).
    const KEY = 'sk-demo-0123456789abcdef';
    const mock = await startMockProvider({ apiKey: KEY });
    try {
      mock.inject({ problem: '*', fault: { kind: 'slow', delayMs: 1500 }, times: Infinity });
      const { page: tall } = await openApp(browser, origin, { viewport: { width: 1440, height: 1400 }, deviceScaleFactor: 1, logErrors: true });
      // A self-check run of the same languages, to compare with.
      await selectLanguages(tall, ['javascript', 'typescript']);
      await tall.getByTestId('time-limit').fill('5');
      await runAndWait(tall);

      await chooseSource(tall, { value: 'provider' });
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
      await doneAtLeast(tall, 6, 120_000);
      await tall.mouse.move(0, 0);
      // Filling the form scrolled the page: show it from the top.
      await tall.evaluate(() => window.scrollTo(0, 0));
      await tall.waitForTimeout(200);
      await shot(tall, 'screenshot-provider');
      await progress(tall, 'done').waitFor({ timeout: 240_000 });
      console.log(`provider run: ${await readPass1(tall)}`);

      // The run list, and the provider run compared with the self-check.
      await tall.getByTestId('view-runs').click();
      const rows = tall.getByTestId('run-row');
      await rows.nth(0).getByTestId('run-pick').check();
      await rows.nth(1).getByTestId('run-pick').check();
      await tall.getByTestId('compare-runs').click();
      await tall.getByTestId('run-compare').waitFor();
      await tall.setViewportSize({ width: 1440, height: 900 });
      await tall.waitForTimeout(300);
      await shot(tall, 'screenshot-runs');

      // Several samples and turns: the recorded multi-sample demo answers, n = 4, 3 turns.
      await tall.getByTestId('view-evaluate').click();
      await chooseSource(tall, { value: 'demo-answers-multi' });
      await selectLanguages(tall, ['python', 'javascript', 'typescript']);
      await tall.getByTestId('samples').fill('4');
      await tall.getByTestId('turns').fill('3');
      await tall.getByTestId('time-limit').fill('5');
      await tall.getByTestId('concurrency').fill('3');
      await runAndWait(tall);
      console.log(`multi-sample run: ${(await tall.getByTestId('metric-line').allTextContents()).join(' | ')} | ${await readPass1(tall)}`);
      await shot(tall, 'screenshot-metrics', 'summary');
      const charts = tall.getByTestId('charts');
      await charts.locator('svg.drawn').first().waitFor();
      await charts.scrollIntoViewIfNeeded();
      await tall.waitForTimeout(300);
      await shot(charts, 'screenshot-charts');

      await tall.getByTestId('view-leaderboard').click();
      await tall.getByTestId('board-table').waitFor();
      await tall.waitForTimeout(300);
      // The page's header and the board, without the empty page below.
      const board = (await tall.getByTestId('leaderboard').boundingBox())!;
      await tall.screenshot({ path: `${docs}screenshot-leaderboard.png`, clip: { x: 0, y: 0, width: 1440, height: Math.ceil(board.y + board.height + 24) } });
      console.log('wrote docs/screenshot-leaderboard.png');
    } finally {
      await mock.close();
    }
  }
  await generateShot(origin);
} finally {
  await browser.close();
  await server.close();
}
