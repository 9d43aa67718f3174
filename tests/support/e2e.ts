/**
 * What an e2e file needs to drive the built app (src/bench/app-page.ts does the driving): the
 * origin of the one preview server (tests/support/app-server.ts) and one Chromium for the file,
 * launched when first asked for and closed after the file.
 */
import type { Browser } from 'playwright-core';
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
