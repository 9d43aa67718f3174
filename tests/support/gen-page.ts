/**
 * The Generate tab's e2e set-up, shared by tests/e2e/generate*.test.ts: the tab opened with the
 * Model panel's provider pointed at the local mock model server (allowing the mock's origin reloads
 * the page), and what the tab stored in IndexedDB (`benchtop-generate`).
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { OpenOptions } from '../../src/bench/app-page';
import type { useChromium } from './e2e';
import type { GenMock } from './gen-mock-provider';

export async function openGenerateTab(chromium: ReturnType<typeof useChromium>, mock: GenMock, options: OpenOptions): Promise<Page> {
  const { page } = await chromium.openApp({ viewport: { width: 1280, height: 1000 }, ...options });
  await page.getByTestId('view-generate').click();
  await page.getByTestId('provider-preset').selectOption('openai');
  await page.getByTestId('provider-base-url').fill(mock.baseUrl);
  await page.getByTestId('provider-model').fill('mock-gen');
  await Promise.all([page.waitForEvent('load'), page.getByTestId('provider-allow-origin').click()]);
  await page.getByTestId('run-button').waitFor();
  return page;
}

export interface StoredGen {
  jobs: Array<Record<string, unknown>>;
  entries: Array<Record<string, unknown>>;
}

/** Every job and journal entry the tab stored. */
export function readStoredGen(page: Page): Promise<StoredGen> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('benchtop-generate');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const all = (store: string) => new Promise<Array<Record<string, unknown>>>((resolve) => {
      const r = db.transaction(store).objectStore(store).getAll();
      r.onsuccess = () => resolve(r.result as Array<Record<string, unknown>>);
    });
    const out = { jobs: await all('jobs'), entries: await all('entries') };
    db.close();
    return out;
  });
}

/** The code of every seed snippet in bench-data/gen-seeds/<language>.jsonl, in file order. */
export function seedCodes(language: string): string[] {
  return readFileSync(`bench-data/gen-seeds/${language}.jsonl`, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { code: string }).code);
}

/** Pastes each snippet into the tab's form and adds it as a seed. */
export async function pasteSeeds(page: Page, seeds: readonly string[]): Promise<void> {
  for (const seed of seeds) {
    await page.getByTestId('gen-snippet').fill(seed);
    await page.getByTestId('gen-add-snippet').click();
  }
}

/**
 * Opens the tab and forgets the job it shows (an earlier test's), with its journal. The tab's code
 * loads when it opens: its Discard button is there only after the form is.
 */
export async function discardShownJob(page: Page): Promise<void> {
  await page.getByTestId('view-generate').click();
  await page.getByTestId('gen-snippet').waitFor();
  if (await page.getByTestId('gen-discard').count()) await page.getByTestId('gen-discard').click();
  await page.getByTestId('gen-funnel').waitFor({ state: 'detached' });
}
