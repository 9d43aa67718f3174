/**
 * Driving the built app (dist/) in Debian's Chromium, the one way every e2e test
 * (tests/support/e2e.ts), `npm run screenshots` and `npm run bench` do it: `vite preview` on
 * 127.0.0.1, Chromium through playwright-core (never a downloaded browser) with no network but
 * 127.0.0.1, and the few page steps they all take (open, load a dataset, pick a source, run, read).
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { preview } from 'vite';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless, without the background connections a closed network refuses, and with nothing but
 * 127.0.0.1 reachable: every other host is sent to a proxy that does not exist (Chromium never
 * proxies loopback), and WebRTC may not go around the proxy.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--proxy-server=http://127.0.0.1:9',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

export interface AppServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/** `vite preview` of `root`/dist on a free 127.0.0.1 port (vite.config.ts adds the sandbox page's headers). */
export async function startAppServer(root: string): Promise<AppServer> {
  if (!existsSync(`${root}/dist/index.html`)) throw new Error('dist/ is missing: build the app first (`npm run build`; `npm test` does it)');
  const server = await preview({ root, logLevel: 'warn', preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
  const { port } = server.httpServer.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.close() };
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export interface OpenOptions extends BrowserContextOptions {
  /** The page's path on the origin; `/` (the app) by default. */
  path?: string;
  /** Page errors are pushed here (and printed with `logErrors`). */
  pageErrors?: string[];
  /** Every request's URL is pushed here. */
  requests?: string[];
  /** Print page errors on stderr (scripts: nothing asserts on them). */
  logErrors?: boolean;
  /** Listeners to add before the first navigation. */
  before?: (page: Page) => void;
}

/**
 * A new page in a context of its own (fresh storage), at `origin` + `path`; for the app, once its
 * Run button is there (the embedded demo set is loaded).
 */
export async function openApp(browser: Browser, origin: string, options: OpenOptions = {}): Promise<{ page: Page; context: BrowserContext }> {
  const { path = '/', pageErrors, requests, logErrors, before, ...contextOptions } = options;
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    pageErrors?.push(error.message);
    if (logErrors) console.error(`page error: ${error.message}`);
  });
  if (requests) page.on('request', (request) => requests.push(request.url()));
  before?.(page);
  if (path === '/') await visitApp(page, origin);
  else await page.goto(`${origin}${path}`);
  return { page, context };
}

/** Goes to the app at `origin` and waits until its Run button is there (the demo set is loaded). */
export async function visitApp(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/`);
  await page.getByTestId('run-button').waitFor();
}

/** Loads a dataset file from memory, as if chosen in the dataset panel. */
export async function loadDataset(page: Page, name: string, contents: string | Buffer): Promise<void> {
  await page.getByTestId('dataset-file').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(contents) });
}

/** Picks the answer source: by its label as shown, or `{ value }` (e.g. 'provider', 'canonical'). */
export async function chooseSource(page: Page, source: string | { value: string }): Promise<void> {
  await page.getByTestId('model-select').selectOption(typeof source === 'string' ? { label: source } : source.value);
}

/** Ticks exactly these languages in the dataset panel. */
export async function selectLanguages(page: Page, wanted: readonly string[]): Promise<void> {
  for (const box of await page.locator('[data-testid^="filter-language-"]').all()) {
    const language = (await box.getAttribute('data-testid'))!.slice('filter-language-'.length);
    if ((await box.isChecked()) !== wanted.includes(language)) await box.click();
  }
}

/** The counter the page bumps on every evaluation it starts (`<main data-session>`). */
const session = (page: Page) => page.evaluate(() => Number(document.querySelector('main')?.getAttribute('data-session') ?? 0));

export interface RunOptions {
  /** What starts the evaluation; a click on Run by default. */
  start?: () => Promise<unknown>;
  /** The state it must end in. */
  state?: 'done' | 'failed';
  timeout?: number;
}

/**
 * Starts an evaluation and waits until that one (a new session, not the previous run's progress,
 * which also reads done) has ended in `state`.
 */
export async function runAndWait(page: Page, options: RunOptions = {}): Promise<void> {
  const { start = () => page.getByTestId('run-button').click(), state = 'done', timeout = 240_000 } = options;
  const before = await session(page);
  await start();
  await page.waitForFunction(
    ([b, s]) => {
      const p = document.querySelector('[data-testid="progress"]');
      return !!p && Number(p.getAttribute('data-session')) > (b as number) && p.getAttribute('data-state') === s;
    },
    [before, state] as const,
    { timeout, polling: 100 },
  );
}

/** The progress bar in `state` ('running', 'done', 'failed'), whichever run it shows. */
export const progress = (page: Page, state: string): Locator => page.locator(`[data-testid="progress"][data-state="${state}"]`);

/** The headline, e.g. `Pass@1: 66.7% (2/3)`. */
export async function readPass1(page: Page): Promise<string> {
  return ((await page.getByTestId('pass1').textContent()) ?? '').trim();
}
