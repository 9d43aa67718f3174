#!/usr/bin/env node
/**
 * `npm run screenshots`: regenerates the pictures in docs/ from the built app (dist/).
 * Serves dist/ with `vite preview` on 127.0.0.1, drives Debian's Chromium with playwright-core
 * (no browser is downloaded), replays the recorded demo answers with a 5 s time limit and writes
 *   docs/screenshot-run.png      a run in progress
 *   docs/screenshot-results.png  Pass@1, the language table and the problem list
 *   docs/screenshot-problem.png  a failing problem's detail view
 */
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { preview } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const docs = `${root}docs/`;
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

if (!existsSync(`${root}dist/index.html`)) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(1);
}
if (!existsSync(executablePath)) {
  console.error(`No Chromium at ${executablePath} (set CHROMIUM_PATH).`);
  process.exit(1);
}
mkdirSync(docs, { recursive: true });

const server = await preview({
  root,
  logLevel: 'warn',
  preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
});
const address = server.httpServer.address();
const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });

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

  // A failing problem: the first WRONG_ANSWER, scrolled to the run that failed.
  await page.getByTestId('outcome-filter-WRONG_ANSWER').click();
  await page.getByTestId('problem-row').first().click();
  const detail = page.getByTestId('problem-detail');
  await detail.waitFor();
  await detail.getByTestId('show-failing-run').click();
  await page.waitForTimeout(700);
  await page.screenshot({ path: `${docs}screenshot-problem.png` });
  console.log('wrote docs/screenshot-problem.png');
} finally {
  await browser.close();
  await server.close();
}
