/**
 * What an e2e file needs to drive the built app (src/bench/app-page.ts does the driving): the
 * origin of the one preview server (tests/support/app-server.ts) and one Chromium for the file,
 * launched when first asked for and closed after the file.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, inject } from 'vitest';
import { launchChromium, openApp, type OpenOptions } from '../../src/bench/app-page';

/** `http://127.0.0.1:<port>` of the shared preview server. */
export function appOrigin(): string {
  const origin = inject('appOrigin');
  if (!origin) throw new Error('dist/ is missing: build the app first (`npm run build`; `npm test` does it)');
  return origin;
}

/**
 * The file's browser: `browser()` launches it on first use; `openApp(options)` opens the app in a
 * fresh context of it. Call at the top of a describe block (it registers the afterAll that closes it).
 */
export function useChromium(): { browser: () => Promise<Browser>; openApp: (options?: OpenOptions) => ReturnType<typeof openApp> } {
  let launched: Promise<Browser> | undefined;
  const browser = () => (launched ??= launchChromium());
  afterAll(async () => {
    await (await launched?.catch(() => undefined))?.close();
  });
  return { browser, openApp: async (options) => openApp(await browser(), appOrigin(), options) };
}

/**
 * Keeps, in the page, every text the runtime status showed: all of it, or only the line of the
 * language named `language` (as the status list names it, e.g. 'C++'). `from: 'now'` starts at once;
 * `'each visit'` starts with each later visit, before the page's own scripts run (the page may start
 * a runtime as it loads). Read them with `runtimeStatusTexts`.
 */
export async function recordRuntimeStatus(page: Page, options: { from: 'now' | 'each visit'; language?: string }): Promise<void> {
  const record = (language: string | null) => {
    const log: string[] = [];
    (window as unknown as { runtimeStatusTexts: string[] }).runtimeStatusTexts = log;
    new MutationObserver(() => {
      const status = document.querySelector('[data-testid="runtime-status"]');
      const line = language === null ? status : [...(status?.querySelectorAll('li') ?? [])].find((li) => li.querySelector('.lang')?.textContent === language);
      const text = line?.textContent ?? '';
      if (text && log[log.length - 1] !== text) log.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  };
  const language = options.language ?? null;
  if (options.from === 'now') await page.evaluate(record, language);
  else await page.addInitScript(record, language);
}

/** The texts `recordRuntimeStatus` kept, oldest first. */
export const runtimeStatusTexts = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { runtimeStatusTexts: string[] }).runtimeStatusTexts);
