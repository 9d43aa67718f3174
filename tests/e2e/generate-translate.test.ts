/**
 * Stage 6 in the Generate tab (Chromium, built app, the local mock models of
 * tests/support/gen-mock-provider.ts): three Python seeds are generated and each kept problem is
 * translated into JavaScript. The mock's gcd and digit_sum translations are right, its compress
 * translation counts runs of one ('a3b1c2' for 'a3bc2'), so its tests — the source's asserts, whose
 * expected values are Python's observed outputs — fail against it. The funnel says 2 of 3 with that
 * reason; the JSONL, the manifest and "Evaluate this set" carry the two kept translations, and the
 * canonical self-check (SPEC §5) passes all five problems. A Go target without a runner is refused
 * before anything is asked. A reload during stage 6 continues from IndexedDB, asking nothing twice.
 *
 * Needs `dist/` (npm test builds it). Uses Debian's Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readPass1, runAndWait, visitApp } from '../../src/bench/app-page';
import { appOrigin, useChromium } from '../support/e2e';
import { openGenerateTab, readStoredGen, seedCodes, pasteSeeds, discardShownJob } from '../support/gen-page';
import { startGenMock, type GenMock } from '../support/gen-mock-provider';

const NAMES = ['gcd', 'digit_sum', 'compress'];
const SEEDS = seedCodes('python').filter((code) => NAMES.some((n) => code.startsWith(`def ${n}(`)));
const TIMEOUT = 240_000;

describe('translation (stage 6) in the Generate tab', () => {
  const chromium = useChromium();
  let mock: GenMock;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    mock = await startGenMock();
    page = await openGenerateTab(chromium, mock, { acceptDownloads: true, pageErrors });
  });

  afterAll(() => mock?.close());

  /** Every journal entry the tab stored (IndexedDB), as "<type> <content JSON>". */
  const storedEntries = async () => (await readStoredGen(page)).entries.map((e) => `${e.type} ${JSON.stringify(e.content)}`);

  it('translates the kept Python problems to JavaScript, drops the one whose tests fail, and the set evaluates at 100%', { timeout: 420_000 }, async () => {
    expect(SEEDS).toHaveLength(3);
    await page.getByTestId('view-generate').click();
    await pasteSeeds(page, SEEDS);
    await page.getByTestId('gen-language').selectOption('python');
    await page.getByTestId('gen-concurrency').fill('2');
    // Go runs on a runner only: with none configured the tab says so, and nothing starts.
    await page.getByTestId('gen-translate-go').check();
    await expect.poll(() => page.getByTestId('gen-problems').textContent()).toContain('Translating to go needs a runner');
    expect(await page.getByTestId('gen-start').isDisabled()).toBe(true);
    await page.getByTestId('gen-translate-go').uncheck();
    await page.getByTestId('gen-translate-javascript').check();
    await page.getByTestId('provider-key').fill('sk-translate-e2e');
    await page.getByTestId('gen-start').click();

    await page.locator('[data-testid="gen-funnel"]:not([data-state="running"]):not([data-state="interrupted"])').waitFor({ timeout: TIMEOUT });
    expect(await page.getByTestId('gen-error').allTextContents()).toEqual([]);
    expect(await page.getByTestId(`gen-step-kept`).getAttribute('data-count')).toBe('3');
    const t = page.getByTestId('gen-translations');
    expect([await t.getAttribute('data-asked'), await t.getAttribute('data-kept')]).toEqual(['3', '2']);
    expect(await t.textContent()).toContain('2 of 3');
    expect(await t.textContent()).toContain('dropped: tests 1');
    // The one drop, with its step and reason: the public tests fail first, a failed assert exits non-zero: RUNTIME_ERROR (SPEC).
    // Pasted in file order: gcd, digit_sum, compress.
    const dropped = page.getByTestId('gen-translation-dropped');
    expect(await dropped.count()).toBe(1);
    expect(await dropped.textContent()).toBe(`pasted 3 → JavaScript at tests: the translated public tests fail against the translated solution: RUNTIME_ERROR`);
    expect(mock.stages.filter((s) => s === 'translation')).toHaveLength(3);
    expect(mock.stages).not.toContain('error');

    // Each exchange and run of stage 6 is in the seed's journal (IndexedDB), before it is used.
    const stored = await storedEntries();
    expect(stored.filter((e) => e.startsWith('ask') && e.includes('Stage: translation'))).toHaveLength(3);
    // Twice the outputs of each translation, then its tests: the JavaScript programs ran and were stored.
    expect(stored.filter((e) => e.startsWith('run') && e.includes('"javascript"')).length).toBeGreaterThanOrEqual(3 * 3);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('gen-download-jsonl').click()]);
    const records = readFileSync((await download.path())!, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => [r.language, r.translated_from ?? null])).toEqual([
      ['python', null], ['javascript', 'python'], ['python', null], ['javascript', 'python'], ['python', null],
    ]);
    const [manifestFile] = await Promise.all([page.waitForEvent('download'), page.getByTestId('gen-download-manifest').click()]);
    const manifest = JSON.parse(readFileSync((await manifestFile.path())!, 'utf8')) as {
      settings: { translateTo: string[] };
      funnel: { translations?: unknown };
      translationsDropped: Array<Record<string, unknown>>;
    };
    expect(manifest.settings.translateTo).toEqual(['javascript']);
    expect(manifest.funnel.translations).toEqual({ asked: 3, kept: 2, dropped: { tests: 1 } });
    expect(manifest.translationsDropped).toHaveLength(1);
    expect(manifest.translationsDropped[0]!).toMatchObject({ to: 'javascript', kept: false, stage: 'tests' });

    await page.getByTestId('gen-evaluate').click();
    await page.getByTestId('run-button').waitFor();
    await expect.poll(() => page.getByTestId('selected-count').textContent()).toContain('5 of 5');
    await page.getByTestId('model-select').selectOption('canonical');
    await runAndWait(page, { timeout: TIMEOUT });
    expect(await readPass1(page)).toBe('Pass@1: 100.0% (5/5)');

    // After a reload the done job comes back from IndexedDB with its translations, asking nothing.
    const asked = mock.bodies.length;
    await page.reload();
    await page.getByTestId('view-generate').click();
    await page.locator('[data-testid="gen-funnel"][data-state="done"]').waitFor();
    expect([await t.getAttribute('data-asked'), await t.getAttribute('data-kept')]).toEqual(['3', '2']);
    expect(await dropped.textContent()).toContain('pasted 3 → JavaScript at tests');
    expect(mock.bodies.length).toBe(asked);
    expect(pageErrors).toEqual([]);
  });

  it('a reload during stage 6 continues from IndexedDB: no translation is asked twice', { timeout: 420_000 }, async () => {
    await discardShownJob(page);
    // Gone with its journal: every entry counted below is this test's job's.
    expect((await readStoredGen(page)).jobs).toEqual([]);
    await pasteSeeds(page, SEEDS);
    // One at a time, so the journal's asks are the mock's requests in order; JavaScript is still ticked (the job's settings).
    await page.getByTestId('gen-concurrency').fill('1');
    expect(await page.getByTestId('gen-translate-javascript').isChecked()).toBe(true);
    await page.getByTestId('provider-key').fill('sk-translate-e2e');
    const before = mock.bodies.length;
    await page.getByTestId('gen-start').click();
    // Reload once the first translation is stored in the journal (stages 1–5 of every seed come first).
    await expect.poll(async () => (await storedEntries()).some((e) => e.startsWith('ask') && e.includes('Stage: translation')), { timeout: TIMEOUT, interval: 100 }).toBe(true);
    await page.reload();
    await visitApp(page, appOrigin());
    const firstRun = mock.bodies.length;
    const stored = await storedEntries();
    const journalled = stored.filter((e) => e.startsWith('ask')).length;
    expect(stored.filter((e) => e.startsWith('ask') && e.includes('Stage: translation')).length).toBeGreaterThanOrEqual(1);
    // At most the one question in flight at the reload was asked and not stored.
    expect(firstRun - before - journalled).toBeLessThanOrEqual(1);
    await page.getByTestId('view-generate').click();
    await page.locator('[data-testid="gen-funnel"][data-state="interrupted"]').waitFor();
    await page.getByTestId('provider-key').fill('sk-translate-e2e');
    await page.getByTestId('gen-continue').click();
    await page.locator('[data-testid="gen-funnel"]:not([data-state="running"]):not([data-state="interrupted"])').waitFor({ timeout: TIMEOUT });
    expect(await page.getByTestId('gen-error').allTextContents()).toEqual([]);
    const t = page.getByTestId('gen-translations');
    expect([await t.getAttribute('data-asked'), await t.getAttribute('data-kept')]).toEqual(['3', '2']);
    // Nothing answered and stored before the reload was asked again, and stage 6 was asked 3 times in all
    // (a 4th only if a translation was in flight at the reload).
    const answered = new Set(mock.bodies.slice(before, Math.min(before + journalled, firstRun)));
    expect(mock.bodies.slice(firstRun).filter((b) => answered.has(b))).toEqual([]);
    const translations = mock.stages.slice(before).filter((s) => s === 'translation').length;
    expect(translations).toBeGreaterThanOrEqual(3);
    expect(translations).toBeLessThanOrEqual(4);
    expect(pageErrors).toEqual([]);
  });
});
