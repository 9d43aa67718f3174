/**
 * The page as a demanding user meets it (issue #17), in the built app in headless Chromium: bad
 * files get errors that say what to do, and a refused file never leaves the previous dataset
 * active without saying so. Needs `dist/` (`npm run build`); Debian's Chromium, no download.
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const record = (over: Record<string, unknown> = {}) => ({
  question: 'Write `f()` returning 1.', canonical_solution: 'def f():\n    return 1', demo_test_func: 'assert f() == 1',
  full_test_func: 'assert f() == 1', language: 'python', difficulty: 'easy', ...over,
});
const jsonl = (records: object[]) => Buffer.from(records.map((r) => JSON.stringify(r) + '\n').join(''));

describe('the page for a demanding user', () => {
  let server: PreviewServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(`${root}dist/index.html`)) throw new Error('dist/ is missing: build the app first (`npm run build`; `npm test` does it)');
    server = await preview({ root, logLevel: 'warn', preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
    const { port } = server.httpServer.address() as AddressInfo;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.getByTestId('run-button').waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const load = (name: string, buffer: Buffer) => page.getByTestId('dataset-file').setInputFiles({ name, mimeType: 'text/plain', buffer });
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
});
