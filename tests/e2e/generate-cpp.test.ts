/**
 * C++ in the Generate tab (Chromium, built app, the local mock models of
 * tests/support/gen-mock-provider.ts): two C++ seeds of bench-data/gen-seeds/cpp.jsonl go through
 * the funnel with the page's clang in WebAssembly (outputs run twice, tests spliced as SPEC §5
 * says, mutants compiled and run), every stage keeps both, and "Evaluate this set" passes both
 * canonical solutions against their own tests (100%).
 *
 * Needs `dist/` (npm test builds it). Uses Debian's Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readPass1, runAndWait } from '../../src/bench/app-page';
import { useChromium } from '../support/e2e';
import { openGenerateTab, seedCodes, pasteSeeds } from '../support/gen-page';
import { startGenMock, type GenMock } from '../support/gen-mock-provider';

// Two small seeds: a loop over a string, and a loop with an early return (mutants of both compile).
const SEEDS = seedCodes('cpp').filter((code) => /\b(countVowels|isPrime)\(/.test(code));
const TIMEOUT = 240_000;

describe('C++ in the Generate tab', () => {
  const chromium = useChromium();
  let mock: GenMock;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    mock = await startGenMock();
    page = await openGenerateTab(chromium, mock, { acceptDownloads: true, pageErrors });
  });

  afterAll(() => mock?.close());

  it('generates two C++ problems in the page, and the set evaluates at 100% with the canonical solutions', { timeout: 420_000 }, async () => {
    expect(SEEDS).toHaveLength(2);
    await page.getByTestId('view-generate').click();
    await pasteSeeds(page, SEEDS);
    await page.getByTestId('gen-language').selectOption('cpp');
    await page.getByTestId('gen-concurrency').fill('2');
    await page.getByTestId('provider-key').fill('sk-cpp-e2e');
    await page.getByTestId('gen-start').click();
    await page.locator('[data-testid="gen-funnel"]:not([data-state="running"]):not([data-state="interrupted"])').waitFor({ timeout: TIMEOUT });
    expect(await page.getByTestId('gen-error').allTextContents()).toEqual([]);
    // No drop (a failure shows its stage and reason here).
    expect(await page.getByTestId('gen-item-reason').allTextContents()).toEqual([]);
    const counts = await Promise.all(['seeds', 'solutions', 'tests', 'problems', 'kept'].map((s) => page.getByTestId(`gen-step-${s}`).getAttribute('data-count')));
    expect(counts).toEqual(['2', '2', '2', '2', '2']);
    expect(mock.stages).not.toContain('error');
    // Each seed's outputs were observed by running it (twice), then its tests and a mutant ran.
    const first = page.getByTestId('gen-item').first();
    await first.locator('summary').click();
    // The entries render after <details> reports its toggle (a task later): poll, as generate.test.ts does.
    await expect.poll(() => first.locator('[data-testid="gen-entry"][data-kind="run"]').count()).toBeGreaterThanOrEqual(4);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('gen-download-jsonl').click()]);
    const records = readFileSync((await download.path())!, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => r.language)).toEqual(['cpp', 'cpp']);
    expect(records.every((r) => /^caught at [1-4] of [1-4]$/.test(String(r.mutation_check)))).toBe(true);

    await page.getByTestId('gen-evaluate').click();
    await page.getByTestId('run-button').waitFor();
    await expect.poll(() => page.getByTestId('selected-count').textContent()).toContain('2 of 2');
    await page.getByTestId('model-select').selectOption('canonical');
    await runAndWait(page, { timeout: TIMEOUT });
    expect(await readPass1(page)).toBe('Pass@1: 100.0% (2/2)');
    expect(pageErrors).toEqual([]);
  });
});
