/**
 * The page as a demanding user meets it (issue #17), in the built app in headless Chromium: bad
 * files get errors that say what to do, and a refused file never leaves the previous dataset
 * active without saying so; a provider whose answers the browser cannot read (no CORS headers, from
 * a real local server) stops the run early with what to change, and "Test connection" says so
 * before a run. Needs `dist/` (`npm run build`); Debian's Chromium, no download.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BREAKER_ATTEMPTS } from '../../src/models/breaker';
import { loadDataset, runAndWait, selectLanguages } from '../../src/bench/app-page';
import { appOrigin, useChromium } from '../support/e2e';
import { startMockProvider, type MockProvider } from '../support/mock-provider';

const root = fileURLToPath(new URL('../../', import.meta.url));
const record = (over: Record<string, unknown> = {}) => ({
  question: 'Write `f()` returning 1.', canonical_solution: 'def f():\n    return 1', demo_test_func: 'assert f() == 1',
  full_test_func: 'assert f() == 1', language: 'python', difficulty: 'easy', ...over,
});
/** Demo records (without their recorded answers): real problems with tests that pass. */
const demo = readFileSync(`${root}bench-data/demo.jsonl`, 'utf8').trim().split('\n').map((l) => {
  const { output: _o, ...plain } = JSON.parse(l) as Record<string, unknown>;
  return plain;
});
const KEY = `sk-ux-e2e-${Math.random().toString(36).slice(2)}`;
const jsonl = (records: object[]) => Buffer.from(records.map((r) => JSON.stringify(r) + '\n').join(''));

describe('the page for a demanding user', () => {
  const chromium = useChromium();
  let page: Page;
  let mock: MockProvider;
  const origin = appOrigin();
  const pageErrors: string[] = [];

  beforeAll(async () => {
    mock = await startMockProvider({ apiKey: KEY });
    ({ page } = await chromium.openApp({ viewport: { width: 1440, height: 900 }, pageErrors }));
  });

  afterAll(() => mock?.close());

  const load = (name: string, buffer: Buffer) => loadDataset(page, name, buffer);
  const text = async (testId: string) => (await page.getByTestId(testId).textContent())!.replace(/\s+/g, ' ').trim();

  it('(9) a JSON array is recognised, with one error that says JSONL is expected and how to convert', async () => {
    const records = Array.from({ length: 26 }, (_, i) => record({ question: `Q${i}` }));
    await load('array.json', Buffer.from(JSON.stringify(records, null, 2)));
    await page.getByTestId('dataset-error').waitFor();
    const error = await text('dataset-error');
    expect(error).toContain('Could not load array.json: no valid records (line 1: the file is a JSON array, but JSONL is expected');
    expect(error).toContain("jq -c '.[]'");
    expect(error).not.toMatch(/more error/);
  });

  it('(9) common language spellings load, in any case; an unknown one names the accepted ids; plurals agree', async () => {
    await load('spellings.jsonl', jsonl([
      record({ question: 'a', language: 'Python3' }), record({ question: 'b', language: 'py3' }), record({ question: 'c', language: 'C++' }),
      record({ question: 'd', language: 'golang' }), record({ question: 'e', language: 'Node' }), record({ question: 'f', language: 'cobol' }),
    ]));
    await page.getByTestId('dataset-issues').waitFor();
    expect(await text('dataset-count')).toBe('5 problems');
    expect(await text('dataset-languages')).toBe('Python 2 · C++ 1 · Go 1 · JavaScript 1');
    const issues = await text('dataset-issues');
    expect(issues).toContain('1 line was skipped');
    expect(issues).toContain('line 6: unknown language "cobol"');
    expect(await text('accepted-languages')).toContain('python (py, python3, py3, python 3), cpp (c++, cplusplus)');

    // Nothing loads: the refusal lists the accepted ids and counts the other error in the singular.
    await load('cobol.jsonl', jsonl([record({ language: 'cobol' }), record({ question: 'x', language: 'fortran' })]));
    await page.getByTestId('dataset-error').waitFor();
    const error = await text('dataset-error');
    expect(error).toContain('no valid records (line 1: unknown language "cobol", and 1 more error)');
    expect(error).toContain('Accepted language ids (any case): python (py, python3, py3, python 3)');
  });

  it('(7) a refused file replaces the previous warnings and says which dataset Run will use', async () => {
    await page.getByRole('button', { name: 'Back to the demo set' }).click();
    await load('warned.jsonl', jsonl([record(), { question: 'broken' }]));
    await page.getByTestId('dataset-issues').waitFor();
    expect(await text('run-dataset')).toBe('warned.jsonl');
    expect(await page.getByTestId('run-dataset-refused').count()).toBe(0);

    await load('refused.jsonl', Buffer.from('[1, 2, 3]\n'));
    await page.getByTestId('dataset-error').waitFor();
    // The warnings were about warned.jsonl; the refusal replaces them.
    expect(await page.getByTestId('dataset-issues').count()).toBe(0);
    expect(await text('dataset-still')).toBe('The dataset in use is still warned.jsonl.');
    expect(await text('run-dataset')).toBe('warned.jsonl');
    expect(await text('run-dataset-refused')).toBe('(the file you last chose was not loaded)');

    // A good load clears the refusal, and names the new dataset beside Run.
    await load('good.jsonl', jsonl([record({ question: 'g1' }), record({ question: 'g2' })]));
    await page.getByTestId('dataset-error').waitFor({ state: 'detached' });
    expect(await text('run-dataset')).toBe('good.jsonl');
    expect(await page.getByTestId('run-dataset-refused').count()).toBe(0);
    expect(await page.getByTestId('dataset-issues').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('(2) a provider the browser cannot read: Test connection says how to allow the origin; a run stops early and says why', { timeout: 240_000 }, async () => {
    const back = page.getByRole('button', { name: 'Back to the demo set' });
    if (await back.count()) await back.click();
    await page.getByTestId('model-select').selectOption('provider');
    await page.getByTestId('provider-preset').selectOption('openai');
    await page.getByTestId('provider-base-url').fill(mock.baseUrl('openai'));
    await page.getByTestId('provider-model').fill('mock-coder');
    await Promise.all([page.waitForEvent('load'), page.getByTestId('provider-allow-origin').click()]);
    await page.getByTestId('provider-settings').waitFor();
    await page.getByTestId('provider-key').fill(KEY);
    // QuickJS languages only: no Pyodide download.
    await selectLanguages(page, ['javascript', 'typescript']);

    mock.setCors(false);
    await page.getByTestId('provider-test-connection').click();
    const failed = page.locator('[data-testid="provider-connection"][data-ok="false"]');
    await failed.waitFor({ timeout: 60_000 });
    const advice = (await failed.textContent())!;
    expect(advice).toContain(`does not allow this page's origin, ${origin} (CORS)`);
    expect(advice).toContain(`OLLAMA_ORIGINS=${origin}`);
    expect(advice).toContain(`--allowed-origins '["${origin}"]'`);
    expect(advice).toContain('"Enable CORS"');
    // One request reached the server (and would have been billed): one, not one per problem.
    expect(mock.requests.filter((r) => r.method === 'POST')).toHaveLength(1);

    mock.reset();
    mock.setCors(false);
    const selected = Number((await page.getByTestId('run-button').textContent())!.match(/Run (\d+)/)![1]);
    await page.getByTestId('run-button').click();
    await page.locator('[data-testid="progress"][data-state="failed"]').waitFor({ timeout: 120_000 });
    const error = (await page.getByTestId('run-error').textContent())!;
    expect(error).toContain('The run stopped early.');
    expect(error).toContain('requests in a row failed the same way and none succeeded');
    expect(error).toContain(`OLLAMA_ORIGINS=${origin}`);
    const posts = mock.requests.filter((r) => r.method === 'POST').length;
    console.log(`CORS-less provider: the run stopped after ${posts} requests for ${selected} problems (without the breaker: ${selected} × 5 tries)`);
    // Without the breaker every problem is tried 5 times; with it, the first round of 4 in parallel
    // (plus any retry already under way on a loaded machine) and no more.
    expect(posts).toBeGreaterThanOrEqual(BREAKER_ATTEMPTS);
    expect(posts).toBeLessThanOrEqual(2 * BREAKER_ATTEMPTS);
    expect(selected * 5).toBeGreaterThan(10 * BREAKER_ATTEMPTS);

    // The server allows the origin now: the test says so.
    mock.setCors(true);
    await page.getByTestId('provider-test-connection').click();
    const ok = page.locator('[data-testid="provider-connection"][data-ok="true"]');
    await ok.waitFor({ timeout: 60_000 });
    expect(await ok.textContent()).toMatch(/Connected: mock-coder answered "OK" in \d+\.\d s\./);
    expect(pageErrors).toEqual([]);
  });

  it('(6) languages without a runtime here are not ticked, are explained, and their 0/0 rows fold away', { timeout: 240_000 }, async () => {
    const js = demo.find((p) => p.language === 'javascript')!;
    const java = demo.find((p) => p.language === 'java')!;
    await load('mixed-languages.jsonl', jsonl([js, java]));
    await page.getByTestId('dataset-count').filter({ hasText: '2 problems' }).waitFor();
    expect(await page.getByTestId('filter-language-javascript').isChecked()).toBe(true);
    expect(await page.getByTestId('filter-language-java').isChecked()).toBe(false);
    expect(await text('run-button')).toBe('▶ Run 1 problem (1 needs a remote runner)');
    expect(await text('language-legend')).toContain('dashed: no runtime in this page; its problems need a remote runner');

    await page.getByTestId('filter-language-java').check();
    expect(await text('run-button')).toBe('▶ Run 2 problems (1 UNSUPPORTED here)');
    await page.getByTestId('model-select').selectOption({ label: 'Canonical solutions (self-check)' });
    await page.getByTestId('run-button').click();
    await page.locator('[data-testid="progress"][data-state="done"]').waitFor({ timeout: 180_000 });
    expect(await page.getByTestId('pass1').textContent()).toBe('Pass@1: 100.0% (1/1)');
    const rows = page.getByTestId('language-row');
    expect(await rows.getAttribute('data-language')).toBe('javascript');
    expect(await text('language-folded')).toMatch(/^1 language with nothing counted \(0\/0, not run here or only infrastructure errors\): Java\. Show their rows$/);
    await page.getByTestId('language-folded-toggle').click();
    expect(await rows.count()).toBe(2);
    expect((await page.locator('[data-testid="language-row"][data-language="java"] td').nth(1).textContent())!.trim()).toBe('0/0');
    expect(pageErrors).toEqual([]);
  });

  it('(1) the leaderboard keeps a model\'s fullest run, shows problems and languages, and marks a subset run apart', { timeout: 240_000 }, async () => {
    const js = demo.filter((p) => p.language === 'javascript').slice(0, 3);
    await load('board.jsonl', jsonl(js));
    await page.getByTestId('dataset-count').filter({ hasText: '3 problems' }).waitFor();
    await page.getByTestId('model-select').selectOption({ label: 'Canonical solutions (self-check)' });
    await runAndWait(page, { timeout: 180_000 });
    expect(await text('pass1')).toBe('Pass@1: 100.0% (3/3)');
    // Later, the same model on one problem.
    await page.getByTestId('filter-limit').fill('1');
    await runAndWait(page, { timeout: 180_000 });
    expect(await text('pass1')).toBe('Pass@1: 100.0% (1/1)');
    await page.getByTestId('filter-limit').fill('');

    await page.getByTestId('view-leaderboard').click();
    await page.getByTestId('board-table').waitFor();
    const select = page.getByTestId('board-dataset');
    if (await select.count()) await select.selectOption({ label: 'board.jsonl (2 runs)' });
    const rows = page.getByTestId('board-row');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="board-row"]').length === 1);
    expect(await text('board-problems')).toBe('3');
    expect(await text('board-languages')).toBe('1');
    expect(await page.getByTestId('board-coverage').count()).toBe(0);
    expect(await page.getByTestId('leaderboard').textContent()).toContain('1 other run is not shown: the fullest run of the same model');

    await page.getByTestId('board-every-run').check();
    expect(await rows.count()).toBe(2);
    const subset = rows.filter({ has: page.getByTestId('board-coverage') });
    expect(await subset.count()).toBe(1);
    expect((await subset.getByTestId('board-coverage').textContent())!.trim()).toBe('subset: 1 of the 3 problems');
    expect((await subset.getByTestId('board-problems').textContent())!.trim()).toBe('1');
    const overall = subset.locator('[data-testid="board-cell"][data-column="overall"]');
    expect(await overall.getAttribute('data-comparable')).toBe('false');
    expect(await overall.getAttribute('data-best')).toBe('false');
    const full = rows.filter({ hasNot: page.getByTestId('board-coverage') }).locator('[data-testid="board-cell"][data-column="overall"]');
    expect(await full.getAttribute('data-best')).toBe('true');
    expect(pageErrors).toEqual([]);
  });
});
