/**
 * The built app (dist/) in headless Chromium against a real local model server
 * (tests/support/mock-provider.ts on 127.0.0.1, another origin than the page): the key is typed
 * into the form, runs on a language subset of the demo set reach the Pass@1 that the recorded
 * answers' `expected` outcomes predict, failures are retried and end as INFRA_ERROR only after
 * the retries, a refused key stops the run at once, a reload mid-run loses nothing and asks the
 * model nothing twice, and the key shows up nowhere but in the provider's requests: not in
 * exports, IndexedDB, localStorage, URLs or any other request.
 *
 * Needs `dist/` (npm test builds it). Uses Debian's Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAndWait } from '../../src/bench/app-page';
import { formatPass1 } from '../../src/core/metrics';
import { parseDataset } from '../../src/core/records';
import type { Problem } from '../../src/contracts';
import { appOrigin, useChromium } from '../support/e2e';
import { startMockProvider, type MockProvider } from '../support/mock-provider';

const root = fileURLToPath(new URL('../../', import.meta.url));
const TIME_LIMIT_SECONDS = 5;
/** The languages of the subset: both run in QuickJS, so no Pyodide download is needed. */
const LANGUAGES = ['javascript', 'typescript'] as const;
const KEY = `sk-benchtop-e2e-${Math.random().toString(36).slice(2)}-secret`;
/** The app's default: five tries in all. */
const ATTEMPTS = 5;

const demo = parseDataset(readFileSync(`${root}bench-data/demo.jsonl`, 'utf8'));
const subset: Problem[] = demo.problems.filter((p) => (LANGUAGES as readonly string[]).includes(p.language));
const expectedById = new Map(
  readFileSync(`${root}bench-data/demo-answers.jsonl`, 'utf8').trim().split('\n')
    .map((l) => JSON.parse(l) as { id: string; expected: { demo: string; full: string } })
    .map((a) => [a.id, a.expected.demo === 'PASSED' && a.expected.full === 'PASSED']),
);

/** The Pass@1 line the recorded answers' expected outcomes predict, leaving out `excluded` (infra errors). */
function expectedPass1(excluded: readonly string[] = []): string {
  const counted = subset.filter((p) => !excluded.includes(p.id));
  const passed = counted.filter((p) => expectedById.get(p.id)).length;
  return formatPass1({ passed, total: counted.length, pass1: passed / counted.length });
}

interface SeenRequest {
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

describe('model providers in Chromium', () => {
  const chromium = useChromium();
  let mock: MockProvider;
  let page: Page;
  const origin = appOrigin();
  const seen: Array<Promise<SeenRequest>> = [];
  const pageErrors: string[] = [];
  const downloads: string[] = [];

  /** Does `start` (which starts an evaluation) and waits until that evaluation ends in `state`. */
  const evaluate = (start: () => Promise<unknown>, state: 'done' | 'failed' = 'done') => runAndWait(page, { start, state });
  const click = (testid: string) => () => page.getByTestId(testid).click();
  const pass1 = async () => (await page.getByTestId('pass1').textContent())!.trim();
  const outcomeOf = (id: string) => page.locator(`[data-testid="problem-row"][data-id="${id}"]`).getAttribute('data-outcome');

  async function chooseSubset(): Promise<void> {
    for (const [language] of demo.problems.reduce((m, p) => m.set(p.language, 1), new Map<string, number>())) {
      const box = page.getByTestId(`filter-language-${language}`);
      if (!(await box.count())) continue;
      if ((await box.isChecked()) !== (LANGUAGES as readonly string[]).includes(language)) await box.click();
    }
    await page.getByTestId('time-limit').fill(String(TIME_LIMIT_SECONDS));
    expect(await page.getByTestId('selected-count').textContent()).toContain(`${subset.length} of`);
  }

  /** Everything the page keeps: IndexedDB (every store) and localStorage, as one JSON text. */
  async function pageStorage(): Promise<{ idb: string; local: string }> {
    return page.evaluate(async () => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open('benchtop');
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      const out: Record<string, unknown[]> = {};
      for (const name of Array.from(db.objectStoreNames)) {
        out[name] = await new Promise<unknown[]>((resolve, reject) => {
          const r = db.transaction(name).objectStore(name).getAll();
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(r.error);
        });
      }
      db.close();
      return { idb: JSON.stringify(out), local: JSON.stringify({ ...localStorage }) };
    });
  }

  async function exportFile(testid: string): Promise<string> {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
    const text = readFileSync((await download.path())!, 'utf8');
    downloads.push(text);
    return text;
  }

  beforeAll(async () => {
    mock = await startMockProvider({ apiKey: KEY });
    ({ page } = await chromium.openApp({
      viewport: { width: 1440, height: 1000 },
      acceptDownloads: true,
      pageErrors,
      before: (page) => page.on('request', (request) => {
        seen.push(request.allHeaders().then(
          (headers) => ({ url: request.url(), headers, body: request.postData() }),
          () => ({ url: request.url(), headers: request.headers(), body: request.postData() }),
        ));
      }),
    }));
  });

  afterAll(() => mock?.close());

  it('sets up a provider: allows its origin (one reload), keeps the settings, takes the key and lists the models', async () => {
    await page.getByTestId('model-select').selectOption('provider');
    await page.getByTestId('provider-settings').waitFor();
    // The official system prompt is the default.
    expect(await page.getByTestId('provider-system-prompt').inputValue()).toContain('You are an expert programmer.');
    await page.getByTestId('provider-preset').selectOption('openai');
    await page.getByTestId('provider-base-url').fill(mock.baseUrl('openai'));
    await page.getByTestId('provider-model').fill('mock-coder');

    // The page's connection policy does not know the mock's origin yet: allowing it reloads the page.
    await page.getByTestId('provider-origin-blocked').waitFor();
    await Promise.all([page.waitForEvent('load'), page.getByTestId('provider-allow-origin').click()]);
    await page.getByTestId('run-button').waitFor();
    await page.getByTestId('provider-settings').waitFor();
    expect(await page.getByTestId('provider-base-url').inputValue()).toBe(mock.baseUrl('openai'));
    expect(await page.getByTestId('provider-model').inputValue()).toBe('mock-coder');
    expect(await page.getByTestId('provider-origin-blocked').count()).toBe(0);
    expect(await page.getByTestId('concurrency').inputValue()).toBe('4');

    await page.getByTestId('provider-key').fill(KEY);
    expect(await page.getByTestId('provider-key').getAttribute('type')).toBe('password');
    await page.getByTestId('provider-list-models').click();
    await page.getByTestId('provider-models-listed').waitFor();
    expect(await page.getByTestId('provider-models-listed').textContent()).toContain('3 models');
    await chooseSubset();
  });

  it('runs the subset to the Pass@1 that the recorded answers predict, one request per problem, with live counters', { timeout: 300_000 }, async () => {
    mock.reset();
    await evaluate(async () => {
      await page.getByTestId('run-button').click();
      await page.getByTestId('usage-counters').waitFor();
    });
    expect(await pass1()).toBe(expectedPass1());
    for (const p of subset) expect(mock.countFor(p.id), p.id).toBe(1);
    const answers = mock.requests.filter((r) => r.method === 'POST');
    expect(answers).toHaveLength(subset.length);
    for (const r of answers) {
      expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(r.stream).toBe(true);
      // The official system prompt went with every question.
      expect(r.body).toContain('You are an expert programmer.');
      // No SDK headers.
      expect(Object.keys(r.headers).filter((h) => h.startsWith('x-stainless'))).toEqual([]);
    }
    expect(Number(await page.getByTestId('counter-tokens-in').getAttribute('data-value'))).toBeGreaterThan(0);
    expect(Number(await page.getByTestId('counter-tokens-out').getAttribute('data-value'))).toBeGreaterThan(0);
    expect(await page.getByTestId('counter-cost').textContent()).toBe('prices not set');
  });

  it('retries failed requests and reports those that still fail as INFRA_ERROR, apart from Pass@1; "Retry errors" re-runs only them', { timeout: 300_000 }, async () => {
    mock.reset();
    const [flaky, broken, dropped] = [subset[0]!.id, subset[1]!.id, subset[2]!.id];
    mock.inject({ problem: flaky, fault: { kind: 'status', status: 429, retryAfterMs: '50' }, times: 2 });
    mock.inject({ problem: broken, fault: { kind: 'status', status: 500, retryAfterMs: '50' }, times: Infinity });
    mock.inject({ problem: dropped, fault: { kind: 'drop' }, times: 1 });
    await evaluate(click('run-button'));

    expect(mock.countFor(flaky)).toBe(3);
    expect(mock.countFor(dropped)).toBe(2);
    expect(mock.countFor(broken)).toBe(ATTEMPTS);
    expect(await outcomeOf(broken)).toBe('INFRA_ERROR');
    expect(await outcomeOf(flaky)).not.toBe('INFRA_ERROR');
    expect(await pass1()).toBe(expectedPass1([broken]));
    expect(await page.getByTestId('not-counted').textContent()).toContain('1 infrastructure error');

    // The server recovers; only the failed problem is asked again.
    mock.reset();
    await evaluate(click('retry-errors'));
    expect(mock.countFor(broken)).toBe(1);
    expect(mock.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(await pass1()).toBe(expectedPass1());
  });

  it('stops the whole run at once when the provider refuses the key, and continues it with the right key', { timeout: 300_000 }, async () => {
    mock.reset();
    await page.getByTestId('provider-key').fill('sk-wrong-key');
    await evaluate(click('run-button'), 'failed');
    const error = (await page.getByTestId('run-error').textContent())!;
    expect(error).toContain('refused the API key');
    expect(error).toContain('HTTP 401');
    expect(error).not.toContain('sk-wrong-key');
    // At most the first requests in flight, not one per problem.
    expect(mock.requests.filter((r) => r.method === 'POST').length).toBeLessThanOrEqual(4);

    await page.getByTestId('provider-key').fill(KEY);
    await evaluate(click('continue-run'));
    expect(await pass1()).toBe(expectedPass1());
  });

  it('continues a run after a reload at a random point without asking again for any answered problem', { timeout: 300_000 }, async () => {
    mock.reset();
    // Slow answers, so the reload lands in the middle of the run.
    mock.inject({ problem: '*', fault: { kind: 'slow', delayMs: 700 }, times: Infinity });
    const session = await page.evaluate(() => Number(document.querySelector('main')?.getAttribute('data-session') ?? 0));
    // A random point of the run (printed, so a failure can be replayed).
    const reloadAt = 1 + Math.floor(Math.random() * (subset.length - 6));
    console.log(`reloading the page after ${reloadAt} finished problems`);
    await page.getByTestId('run-button').click();
    await page.waitForFunction(({ before, at }) => {
      const p = document.querySelector('[data-testid="progress"]');
      return !!p && Number(p.getAttribute('data-session')) > before && p.getAttribute('data-state') === 'running' && Number(p.getAttribute('data-done')) >= at;
    }, { before: session, at: reloadAt }, { timeout: 120_000, polling: 50 });
    await page.reload();
    await page.getByTestId('run-button').waitFor();

    // The key was kept in memory only: gone with the reload. The settings are back.
    expect(await page.getByTestId('provider-key').inputValue()).toBe('');
    const offer = page.getByTestId('resume-offer');
    await offer.waitFor();
    const runId = (await offer.getAttribute('data-run'))!;
    const stored = JSON.parse((await pageStorage()).idb) as { answers: Array<{ runId: string; problemId: string }>; results: Array<{ runId: string }> };
    const answered = stored.answers.filter((a) => a.runId === runId).map((a) => a.problemId);
    expect(answered.length).toBeGreaterThanOrEqual(reloadAt);
    expect(answered.length).toBeLessThan(subset.length);
    const before = new Map(subset.map((p) => [p.id, mock.countFor(p.id)]));

    // Continue needs the key, and the banner itself asks for it (issue #17, item 8).
    expect(await offer.getByTestId('resume-continue').isDisabled()).toBe(true);
    await offer.getByTestId('resume-key').fill(KEY);
    await evaluate(click('resume-continue'));

    expect(await pass1()).toBe(expectedPass1());
    expect(await page.getByTestId('progress').getAttribute('data-done')).toBe(String(subset.length));
    for (const id of answered) expect(mock.countFor(id), `answered before the reload: ${id}`).toBe(before.get(id));
    for (const id of answered) expect(mock.countFor(id)).toBe(1);
    for (const p of subset) expect(mock.countFor(p.id), p.id).toBeGreaterThanOrEqual(1);
    // The reload reset the selection and the time limit: choose them again for what follows.
    await chooseSubset();
  });

  it('exports the official format, results (JSONL, CSV) and a manifest, and re-scores the official export offline', { timeout: 300_000 }, async () => {
    const official = await exportFile('export-official');
    const lines = official.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(subset.length);
    for (const line of lines) {
      expect(typeof line.output).toBe('string');
      expect(typeof line.question).toBe('string');
      expect(typeof line.full_test_func).toBe('string');
    }
    const results = (await exportFile('export-results-jsonl')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(results).toHaveLength(subset.length);
    expect(results.filter((r) => r.passed).length).toBe(subset.filter((p) => expectedById.get(p.id)).length);
    const csv = (await exportFile('export-results-csv')).trim().split(/\r?\n/);
    expect(csv[0]).toBe('id,index,title,language,difficulty,verdict,passed,demo_outcome,full_outcome,runtime,duration_ms,run_ms,wait_ms,input_tokens,output_tokens,reasoning_tokens,error');
    expect(csv).toHaveLength(subset.length + 1);
    const manifest = JSON.parse(await exportFile('export-manifest')) as Record<string, any>;
    // The shared manifest shape (src/core/manifest.ts) plus the page's provider preset.
    expect(manifest.provider).toMatchObject({ preset: 'openai', baseUrl: mock.baseUrl('openai'), model: 'mock-coder' });
    expect(manifest.settings).toMatchObject({ temperature: 0, max_tokens: 8192, stream: true, system_prompt_is_official: true, extraction_mode: 'compat' });
    expect(manifest.runtimes.join(' ')).toContain('QuickJS');
    expect(manifest.figures.pass1.total).toBe(subset.length);

    // Import: the official export, re-scored here without any request.
    mock.reset();
    await page.getByTestId('view-runs').click();
    await evaluate(() => page.getByTestId('import-answers').setInputFiles({ name: 'exported.official.jsonl', mimeType: 'text/plain', buffer: Buffer.from(official) }));
    expect(await pass1()).toBe(expectedPass1());
    expect(mock.requests).toHaveLength(0);
    await page.getByTestId('model-select').selectOption('provider');
  });

  it('lists the runs and compares two of them per language', async () => {
    await page.getByTestId('view-runs').click();
    const rows = page.getByTestId('run-row');
    expect(await rows.count()).toBeGreaterThanOrEqual(5);
    await rows.nth(0).getByTestId('run-pick').check();
    await rows.nth(1).getByTestId('run-pick').check();
    await page.getByTestId('compare-runs').click();
    await page.getByTestId('run-compare').waitFor();
    const languages = await page.getByTestId('compare-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-language')));
    expect(languages).toEqual([...LANGUAGES]);
    expect(await page.getByTestId('compare-delta-overall').textContent()).toMatch(/pp|–/);

    // Delete the oldest run.
    const count = await rows.count();
    const last = rows.nth(count - 1);
    await last.getByTestId('run-delete').click();
    await last.getByTestId('run-delete').click();
    await expect.poll(() => rows.count()).toBe(count - 1);
    await page.getByTestId('view-evaluate').click();
  });

  it('keeps the key out of storage unless asked, and can forget it', async () => {
    await page.getByTestId('provider-settings').waitFor();
    let storage = await pageStorage();
    expect(storage.idb).not.toContain(KEY);
    expect(storage.local).not.toContain(KEY);
    await page.getByTestId('provider-remember-key').check();
    storage = await pageStorage();
    expect(storage.local).toContain(KEY);
    expect(storage.idb).not.toContain(KEY);
    await page.getByTestId('provider-forget-keys').click();
    expect(await page.getByTestId('provider-remember-key').isChecked()).toBe(false);
    storage = await pageStorage();
    expect(storage.local).not.toContain(KEY);
    // Still in memory for this tab.
    expect(await page.getByTestId('provider-key').inputValue()).toBe(KEY);
  });

  it('speaks the Anthropic and Gemini formats from the page too', { timeout: 300_000 }, async () => {
    for (const [preset, kind] of [['anthropic', 'anthropic'], ['gemini', 'gemini']] as const) {
      mock.reset();
      await page.getByTestId('provider-preset').selectOption(preset);
      await page.getByTestId('provider-base-url').fill(mock.baseUrl(kind));
      await page.getByTestId('provider-model').fill('mock-coder');
      await page.getByTestId('provider-key').fill(KEY);
      await page.getByTestId('provider-stream').setChecked(kind === 'anthropic');
      await evaluate(click('run-button'));
      expect(await pass1(), kind).toBe(expectedPass1());
      const posts = mock.requests.filter((r) => r.method === 'POST');
      expect(posts).toHaveLength(subset.length);
      for (const r of posts) {
        expect(r.kind).toBe(kind);
        expect(r.stream).toBe(kind === 'anthropic');
        expect(r.headers[kind === 'anthropic' ? 'x-api-key' : 'x-goog-api-key']).toBe(KEY);
        expect(r.url).not.toContain(KEY);
      }
    }
    expect(pageErrors).toEqual([]);
  });
  it('sent the key only to the provider, only in its header, and nowhere in a URL, an export or the page storage', async () => {
    const requests = await Promise.all(seen);
    const withKey = requests.filter((r) => JSON.stringify(r).includes(KEY));
    expect(withKey.length).toBeGreaterThan(0);
    for (const r of withKey) {
      expect(new URL(r.url).origin).toBe(mock.url);
      expect(r.url).not.toContain(KEY);
      expect(r.body ?? '').not.toContain(KEY);
      const carriers = Object.entries(r.headers).filter(([, v]) => v.includes(KEY)).map(([h]) => h);
      expect(carriers.length).toBe(1);
      expect(['authorization', 'x-api-key', 'x-goog-api-key']).toContain(carriers[0]);
    }
    for (const r of requests) expect(r.url).not.toContain(KEY);
    // The mock saw the key only in the authorization header of model and model-list requests.
    for (const r of mock.requests) {
      const { authorization: _a, 'x-api-key': _x, 'x-goog-api-key': _g, ...others } = r.headers;
      expect(JSON.stringify(others)).not.toContain(KEY);
      expect(r.body).not.toContain(KEY);
      expect(r.url).not.toContain(KEY);
    }
    for (const text of downloads) expect(text).not.toContain(KEY);
    expect(downloads.length).toBeGreaterThanOrEqual(4);
    const storage = await pageStorage();
    expect(storage.idb).not.toContain(KEY);
    expect(storage.local).not.toContain(KEY);
    // Every request went to the page's own origin or to the provider.
    const elsewhere = requests.filter((r) => !r.url.startsWith('data:') && !r.url.startsWith('blob:') && ![origin, mock.url].includes(new URL(r.url).origin));
    expect(elsewhere.map((r) => r.url)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

});
