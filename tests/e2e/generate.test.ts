/**
 * The Generate tab in Chromium (built app, dist/) against a real local model server that speaks
 * the OpenAI wire format (tests/support/gen-mock-provider.ts, another origin): two pasted Python
 * seeds go through the funnel with the page's own runtimes (Pyodide), the result opens in the
 * Evaluate tab, where a canonical self-check passes 100% (SPEC §5: each canonical solution passes
 * its own tests). A reload mid-way continues from IndexedDB and asks the model nothing twice.
 *
 * Needs `dist/` (npm test builds it). Uses Debian's Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 */
import { AxeBuilder } from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPass1, runAndWait, visitApp } from '../../src/bench/app-page';
import { useChromium, appOrigin } from '../support/e2e';
import { openGenerateTab, readStoredGen, seedCodes, pasteSeeds, discardShownJob } from '../support/gen-page';
import { startGenMock, type GenMock } from '../support/gen-mock-provider';

/** Two seeds of the fixture set; clamp's first tests are wrong and are sent back once (the mock's script). */
const SEEDS = seedCodes('python').slice(0, 2);
const GEN_TIMEOUT = 240_000;
const KEY = `sk-gen-e2e-${Math.random().toString(36).slice(2)}-secret`;

describe('the Generate tab in Chromium', () => {
  const chromium = useChromium();
  let mock: GenMock;
  let page: Page;
  const pageErrors: string[] = [];

  /** Waits until the job shown stops running; it must have ended done, without an error. */
  async function funnelDone(): Promise<void> {
    // Not "interrupted" either: right after Continue the job may not have started running yet.
    await page.locator('[data-testid="gen-funnel"]:not([data-state="running"]):not([data-state="interrupted"])').waitFor({ timeout: GEN_TIMEOUT });
    expect(await page.getByTestId('gen-error').allTextContents()).toEqual([]);
    expect(await page.getByTestId('gen-funnel').getAttribute('data-state')).toBe('done');
  }
  const step = async (id: string) => Number(await page.getByTestId(`gen-step-${id}`).getAttribute('data-count'));

  /** Every job and journal entry the tab stored (IndexedDB `benchtop-generate`), as one JSON text. */
  const storedText = async () => {
    const { jobs, entries } = await readStoredGen(page);
    return JSON.stringify([jobs, entries]);
  };

  async function setUp(): Promise<void> {
    await page.getByTestId('view-generate').click();
    // The seed list outlives a job: start from an empty one.
    while (await page.getByRole('button', { name: /^Remove / }).count()) await page.getByRole('button', { name: /^Remove / }).first().click();
    await pasteSeeds(page, SEEDS);
    await page.getByTestId('gen-language').selectOption('python');
    await page.getByTestId('gen-concurrency').fill('1');
    await page.getByTestId('gen-difficulty-model').fill('mock-small');
    await page.getByTestId('gen-samples').fill('2');
  }

  beforeAll(async () => {
    mock = await startGenMock();
    // The provider: the Model panel's form, shown in the tab; allowing the mock's origin reloads the page.
    page = await openGenerateTab(chromium, mock, { acceptDownloads: true, pageErrors });
  });

  afterAll(() => mock?.close());

  it('generates from two pasted seeds, shows the funnel, and the set evaluates at 100% with the canonical solutions', { timeout: 420_000 }, async () => {
    await setUp();
    // A JSONL dropped on the tab adds its records as seeds; a Ruby record is not used for Python.
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File(['{"language":"ruby","code":"def one\\n  1\\nend\\n"}\n'], 'more.jsonl'));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await expect.poll(() => page.getByTestId('gen-seed-count').textContent()).toContain('2 of 3 seeds are used for Python');
    // A key typed into the form goes to the provider only: never into the job, its journal or the manifest.
    await page.getByTestId('provider-key').fill(KEY);
    await page.getByTestId('gen-start').click();
    await funnelDone();
    expect([await step('seeds'), await step('solutions'), await step('tests'), await step('problems'), await step('kept')]).toEqual([2, 2, 2, 2, 2]);
    // Every model request was answered through the page: generator, critic, difficulty (2 samples each).
    expect(mock.stages.filter((s) => s === 'difficulty')).toHaveLength(4);
    expect(mock.stages).not.toContain('error');
    expect(Number(await page.getByTestId('gen-tokens-in').getAttribute('data-value'))).toBe(10 * mock.bodies.length);
    // clamp's wrong tests were sent back with the run's output, once.
    expect(mock.bodies.filter((b) => b.includes('did not pass against the reference solution'))).toHaveLength(1);

    // The per-item view: every exchange and run of a seed, the sandbox's output included.
    const first = page.getByTestId('gen-item').first();
    expect(await first.getAttribute('data-state')).toBe('kept');
    await first.locator('summary').click();
    // Solution, tests (twice: the send-back), statement, critic, 2 difficulty samples; outputs twice, tests, mutants, the samples' runs.
    await expect.poll(() => first.locator('[data-testid="gen-entry"][data-kind="ask"]').count()).toBeGreaterThanOrEqual(6);
    expect(await first.locator('[data-testid="gen-entry"][data-kind="run"]').count()).toBeGreaterThanOrEqual(5);
    await expect.poll(() => first.textContent()).toContain('@@gen-output ');
    // The tab as it is now (funnel, an item open) has no WCAG 2.1 A/AA violation axe can find.
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('gen-download-jsonl').click()]);
    const records = readFileSync((await download.path())!, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => r.language)).toEqual(['python', 'python']);
    // The mock's difficulty model never solves these two: 0 of 2 is hard (the paper's labels).
    expect(records.map((r) => [r.difficulty, r.difficulty_passes])).toEqual([['hard', '0/2'], ['hard', '0/2']]);
    const [manifestFile] = await Promise.all([page.waitForEvent('download'), page.getByTestId('gen-download-manifest').click()]);
    const manifest = JSON.parse(readFileSync((await manifestFile.path())!, 'utf8')) as { funnel: { seeds: number; kept: number } };
    expect(manifest.funnel).toMatchObject({ seeds: 2, kept: 2 });
    expect(readFileSync((await manifestFile.path())!, 'utf8')).not.toContain(KEY);
    expect(await storedText()).not.toContain(KEY);
    expect((await storedText()).length).toBeGreaterThan(10_000);

    await page.getByTestId('gen-evaluate').click();
    await page.getByTestId('run-button').waitFor();
    await expect.poll(() => page.getByTestId('selected-count').textContent()).toContain('2 of 2');
    await page.getByTestId('model-select').selectOption('canonical');
    await runAndWait(page, { timeout: GEN_TIMEOUT });
    expect(await readPass1(page)).toBe('Pass@1: 100.0% (2/2)');
    expect(pageErrors).toEqual([]);
  });

  it('a reload mid-way continues from IndexedDB and asks the model no question twice', { timeout: 420_000 }, async () => {
    // The first test's job, forgotten (with its journal), when this test runs after it.
    await discardShownJob(page);
    expect((await readStoredGen(page)).jobs).toEqual([]);
    const before = mock.bodies.length;
    await setUp();
    // Another critic name: new questions for the mock, so nothing is answered by the first test's job.
    await page.getByTestId('gen-critic-model').fill('mock-critic');
    await page.getByTestId('provider-key').fill(KEY);
    await page.getByTestId('gen-start').click();
    // Reload once the first seed's solution, tests and statement are asked (and answered).
    await expect.poll(() => mock.bodies.length - before, { timeout: GEN_TIMEOUT, interval: 50 }).toBeGreaterThanOrEqual(4);
    await page.reload();
    await visitApp(page, appOrigin());
    const firstRun = mock.bodies.length;
    const { jobs, entries } = await readStoredGen(page);
    // This test's job only: nothing of an earlier job may be counted as asked before the reload.
    expect(jobs.map((j) => j.state)).toEqual(['running']);
    const journalled = entries.filter((e) => e.type === 'ask' && e.job === jobs[0]!.id).length;
    // At most the one question in flight at the reload was asked and not stored.
    expect(firstRun - before - journalled).toBeLessThanOrEqual(1);
    expect(journalled).toBeGreaterThanOrEqual(3);

    await page.getByTestId('view-generate').click();
    await page.locator('[data-testid="gen-funnel"][data-state="interrupted"]').waitFor();
    // The key was kept in memory only: the job waits for it, then continues.
    await page.getByTestId('gen-continue').click();
    await expect.poll(() => page.getByTestId('gen-error').textContent(), { timeout: 10_000 }).toContain('Enter your API key for OpenAI');
    await page.getByTestId('provider-key').fill(KEY);
    await page.getByTestId('gen-continue').click();
    await funnelDone();
    expect(await step('kept')).toBe(2);
    // The questions asked before the reload (at most one of them unanswered), never one asked after it.
    const answered = new Set(mock.bodies.slice(before, Math.min(before + journalled, firstRun)));
    const again = mock.bodies.slice(firstRun).filter((b) => answered.has(b) && !b.includes('You are an expert programmer'));
    expect(again).toEqual([]);
    expect(mock.bodies.length - firstRun).toBeGreaterThan(0);
    expect(pageErrors).toEqual([]);
  });
});
