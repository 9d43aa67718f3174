/**
 * `npx tsx scripts/generate-page-check.ts [python,javascript,ruby,cpp]` after `npm run build`: the
 * issue #15 "Done means" check of the Generate tab in Chromium. For each language, the built app
 * generates from bench-data/gen-seeds/<language>.jsonl (10 snippets) against the tests' local mock
 * models (tests/support/gen-mock-provider.ts, 127.0.0.1; no real API), then "Evaluate this set"
 * runs the canonical solutions on the result. Prints the funnel and the Pass@1 per language.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium, openApp, readPass1, runAndWait, startAppServer } from '../src/bench/app-page';
import { startGenMock } from '../tests/support/gen-mock-provider';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
const server = await startAppServer(root);
const browser = await launchChromium();
const mock = await startGenMock();
try {
  const { page } = await openApp(browser, server.origin, { viewport: { width: 1280, height: 1000 }, logErrors: true });
  await page.getByTestId('view-generate').click();
  await page.getByTestId('provider-preset').selectOption('openai');
  await page.getByTestId('provider-base-url').fill(mock.baseUrl);
  await page.getByTestId('provider-model').fill('mock-gen');
  await Promise.all([page.waitForEvent('load'), page.getByTestId('provider-allow-origin').click()]);
  for (const language of (process.argv[2] ?? 'python,javascript,ruby').split(',')) {
    await page.getByTestId('view-generate').click();
    // The tab's code loads when it opens: the last language's Discard button is there only after that.
    await page.getByTestId('gen-snippet').waitFor();
    if (await page.getByTestId('gen-discard').count()) await page.getByTestId('gen-discard').click();
    while (await page.getByRole('button', { name: /^Remove / }).count()) await page.getByRole('button', { name: /^Remove / }).first().click();
    const text = readFileSync(`bench-data/gen-seeds/${language}.jsonl`, 'utf8');
    await page.getByTestId('gen-files').setInputFiles({ name: `${language}.jsonl`, mimeType: 'text/plain', buffer: Buffer.from(text) });
    await page.getByTestId('gen-language').selectOption(language);
    await page.getByTestId('gen-difficulty-model').fill('mock-small');
    await page.getByTestId('gen-samples').fill('2');
    const t0 = Date.now();
    await page.getByTestId('gen-start').click();
    // Progress every 30 s: a slow C++ run (clang in WebAssembly on a loaded machine) is told from a stuck one.
    const progress = setInterval(() => {
      void Promise.all([page.getByTestId('gen-status').textContent().catch(() => ''), page.getByTestId('gen-error').allTextContents()])
        .then(([status, error]) => console.log(`  ${((Date.now() - t0) / 1000).toFixed(0)} s: ${status}; ${mock.stages.length} answers${error.length ? `; error: ${error.join(' ')}` : ''}`));
    }, 30_000);
    await page.locator('[data-testid="gen-funnel"][data-state="done"]').waitFor({ timeout: 1_800_000 }).finally(() => clearInterval(progress));
    const dropped = await page.locator('[data-testid="gen-item"][data-state="dropped"]').allTextContents();
    for (const d of dropped) console.log(`  dropped: ${d.replace(/\s+/g, ' ').trim()}`);
    const counts = await Promise.all(['seeds', 'solutions', 'tests', 'problems', 'kept'].map((s) => page.getByTestId(`gen-step-${s}`).getAttribute('data-count')));
    console.log(`${language}: funnel ${counts.join(' → ')} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await page.getByTestId('gen-evaluate').click();
    await page.getByTestId('run-button').waitFor();
    await page.getByTestId('model-select').selectOption('canonical');
    await runAndWait(page, { timeout: 1_800_000 });
    console.log(`${language}: canonical ${await readPass1(page)}`);
    // Each problem the canonical solution did not pass, with its outcome and time, to tell why.
    for (const row of await page.locator('tr[data-testid="problem-row"]:not([data-outcome="PASSED"])').allTextContents()) console.log(`  not passed: ${row.replace(/\s+/g, ' ').trim()}`);
  }
} finally {
  await mock.close();
  await browser.close();
  await server.close();
}
