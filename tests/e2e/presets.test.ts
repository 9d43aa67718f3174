/**
 * The official datasets as presets (issue 18), in the built app (dist/) in headless Chromium. A
 * local server on 127.0.0.1 stands in for the Hugging Face Hub: it serves small ACB-format files
 * under the Hub's path (?dataset-base= points the page at it) and counts every request, so the
 * test can tell a download from a kept copy. Checked: the page asks to allow the host first (its
 * connection policy), the size before download (HEAD, else the listed size), progress in bytes
 * and percent, the load, a reload that loads from the kept file without a request, "forget", and
 * "Lite only" selecting exactly the Lite file's problems.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseSource, runAndWait, selectLanguages } from '../../src/bench/app-page';
import { useChromium } from '../support/e2e';

const HUB_PATH = '/datasets/tencent/AutoCodeBenchmark/resolve/main/';
const full = readFileSync(new URL('../../bench-data/demo.jsonl', import.meta.url), 'utf8');
const fullLines = full.split('\n').filter((l) => l.trim());
// Every third record: the stand-in Lite file (ids are hashes of language and question, as in the real pair).
const liteLines = fullLines.filter((_, i) => i % 3 === 0);
const lite = `${liteLines.join('\n')}\n`;
const languageOf = (line: string) => (JSON.parse(line) as { language: string }).language;
const litePython = liteLines.filter((l) => languageOf(l) === 'python').length;
const liteJavaScript = liteLines.filter((l) => languageOf(l) === 'javascript').length;
const fullJavaScript = fullLines.filter((l) => languageOf(l) === 'javascript').length;
const FILES: Record<string, Buffer> = { 'autocodebench.jsonl': Buffer.from(full), 'autocodebench_lite.jsonl': Buffer.from(lite) };
/** Wilson score 95% interval, from its textbook form, as the page prints it ("6.1–79.2%"). */
function wilsonText(passed: number, n: number): string {
  const z = 1.959963984540054;
  const p = passed / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = ((z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n)));
  const low = passed === 0 ? 0 : centre - half;
  const high = passed === n ? 1 : centre + half;
  return `${(low * 100).toFixed(1)}–${(high * 100).toFixed(1)}%`;
}
/** The page's own unit: KiB with one decimal (src/app/lib/format.ts shows sizes this way). */
const kib = (n: number) => `${(n / 1024).toFixed(1)} KB`;

describe('official dataset presets in Chromium', () => {
  const chromium = useChromium();
  let server: Server;
  let hub: string;
  let page: Page;
  const pageErrors: string[] = [];
  /** "GET autocodebench.jsonl" → how many. */
  const counts = new Map<string, number>();
  const count = (what: string) => counts.get(what) ?? 0;
  /** While set, a GET of the full file sends its first 64 KiB and waits for this. */
  let hold: Promise<void> | null = null;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const name = (req.url ?? '').startsWith(HUB_PATH) ? decodeURIComponent(req.url!.slice(HUB_PATH.length)) : '';
      counts.set(`${req.method} ${name}`, count(`${req.method} ${name}`) + 1);
      const body = FILES[name];
      res.setHeader('access-control-allow-origin', '*');
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': body.length });
      if (req.method === 'HEAD') return void res.end();
      const waitFor = name === 'autocodebench.jsonl' ? hold : null;
      if (!waitFor) return void res.end(body);
      res.write(body.subarray(0, 65536));
      void waitFor.then(() => res.end(body.subarray(65536)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    hub = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ({ page } = await chromium.openApp({ path: `/?dataset-base=${encodeURIComponent(hub + HUB_PATH)}`, viewport: { width: 1280, height: 1000 }, acceptDownloads: true, pageErrors }));
    await page.getByTestId('run-button').waitFor();
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const name = () => page.getByTestId('dataset-name').textContent();

  it('shows the base, the listed sizes, and loads Lite once its host is allowed (one reload)', async () => {
    expect(await page.getByTestId('preset-base').textContent()).toContain(hub + HUB_PATH);
    // The host is not allowed yet: no HEAD, so the Hub's listed size, marked approximate.
    expect(await page.getByTestId('preset-size-full').textContent()).toMatch(/^\s*≈ 28\.2 MB to download\s*$/);
    expect(counts.size).toBe(0);
    await page.getByTestId('preset-load-lite').click();
    await page.getByTestId('dataset-allow-origin').waitFor();
    expect(count('GET autocodebench_lite.jsonl')).toBe(0);
    await Promise.all([page.waitForEvent('load'), page.getByTestId('dataset-allow-origin').click()]);
    // After the reload the same preset loads by itself, and is kept.
    await page.getByTestId('preset-kept-lite').waitFor();
    expect(await name()).toBe('autocodebench_lite.jsonl');
    expect(await page.getByTestId('dataset-count').textContent()).toBe(`${liteLines.length} problems`);
    expect(count('GET autocodebench_lite.jsonl')).toBe(1);
  });

  it('shows the exact size before download, then progress in bytes and percent', async () => {
    // Now the page may ask: the server's Content-Length, exact; a file the server lacks keeps the listed size.
    await expect.poll(() => page.getByTestId('preset-size-full').textContent()).toMatch(new RegExp(`^\\s*${kib(FILES['autocodebench.jsonl']!.length).replace('.', '\\.')} to download\\s*$`));
    await expect.poll(() => count('HEAD autocodebench_completion_3shot.jsonl')).toBe(1);
    expect(await page.getByTestId('preset-size-complete').textContent()).toMatch(/^\s*≈ 19\.1 MB to download\s*$/);
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    try {
      await page.getByTestId('preset-load-full').click();
      const progress = page.getByTestId('dataset-loading');
      await expect.poll(() => progress.textContent(), { timeout: 20_000 }).toContain(`64.0 KB of ${kib(FILES['autocodebench.jsonl']!.length)}`);
      const percent = Math.floor((65536 / FILES['autocodebench.jsonl']!.length) * 100);
      expect(await page.getByTestId('dataset-loading-percent').textContent()).toBe(`${percent}%`);
    } finally {
      release();
      hold = null;
    }
    await page.getByTestId('preset-kept-full').waitFor();
    expect(await name()).toBe('autocodebench.jsonl');
    expect(await page.getByTestId('dataset-count').textContent()).toBe(`${fullLines.length} problems`);
    expect(count('GET autocodebench.jsonl')).toBe(1);
  });

  it('"Lite only" selects exactly the Lite file\'s problems of the full set', async () => {
    await page.locator('fieldset', { hasText: 'Languages' }).getByRole('button', { name: 'all', exact: true }).click();
    const selected = () => page.getByTestId('selected-count').textContent();
    expect(await selected()).toContain(`${fullLines.length} of ${fullLines.length}`);
    await page.getByTestId('filter-lite-only').check();
    expect(await selected()).toContain(`${liteLines.length} of ${fullLines.length}`);
    // Together with a language filter: the Lite problems of that language only.
    await page.locator('fieldset', { hasText: 'Languages' }).getByRole('button', { name: 'none', exact: true }).click();
    await page.getByTestId('filter-language-python').check();
    expect(await selected()).toContain(`${litePython} of ${fullLines.length}`);
    await page.getByTestId('filter-lite-only').uncheck();
    expect(await selected()).toContain(`8 of ${fullLines.length}`);
  });

  it('a run on the full set is broken down into Lite and the rest (the CLI\'s --lite)', { timeout: 300_000 }, async () => {
    await selectLanguages(page, ['javascript']);
    await chooseSource(page, { value: 'canonical' });
    await runAndWait(page);
    const rows = await page.getByTestId('lite-row').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent!.trim())));
    expect(rows.map(([label]) => label)).toEqual(['Lite', 'not in Lite']);
    // Totals from the files themselves; the passes add up to the headline's.
    const [[, lite], [, rest]] = rows as [[string, string], [string, string]];
    expect(lite!.split('/')[1]).toBe(String(liteJavaScript));
    expect(rest!.split('/')[1]).toBe(String(fullJavaScript - liteJavaScript));
    const headline = /\((\d+)\/(\d+)\)/.exec((await page.getByTestId('pass1').textContent())!)!;
    expect(Number(lite!.split('/')[0]) + Number(rest!.split('/')[0])).toBe(Number(headline[1]));
    expect(headline[2]).toBe(String(fullJavaScript));
    // The per-language chart's data table carries each bar's error bar: Wilson's interval, by hand here.
    const cells = await page.locator('[data-testid="chart"][data-chart="languages"] [data-testid="chart-table"] tbody tr').last().locator('td').allTextContents();
    expect(cells.map((c) => c.trim())).toEqual(['Overall', `${headline[1]}/${headline[2]}`, expect.any(String), wilsonText(Number(headline[1]), Number(headline[2]))]);
    // The manifest names the preset's URL and the sha256 of the bytes served.
    await page.getByTestId('view-runs').click();
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('run-row').first().getByTestId('run-manifest').click()]);
    const manifest = JSON.parse(readFileSync((await file.path())!, 'utf8')) as { dataset: { source: string; sha256: string } };
    expect(manifest.dataset).toMatchObject({ source: `${hub}${HUB_PATH}autocodebench.jsonl`, sha256: createHash('sha256').update(FILES['autocodebench.jsonl']!).digest('hex') });
    await page.getByTestId('view-evaluate').click();
  });

  it('after a reload, loads both files from the kept copies without a request', async () => {
    const before = new Map(counts);
    await page.reload();
    await page.getByTestId('run-button').waitFor();
    await page.getByTestId('preset-kept-full').waitFor();
    await page.getByTestId('preset-kept-lite').waitFor();
    await page.getByTestId('preset-load-full').click();
    await expect.poll(name).toBe('autocodebench.jsonl');
    expect(await page.getByTestId('dataset-count').textContent()).toBe(`${fullLines.length} problems`);
    await page.getByTestId('preset-load-lite').click();
    await expect.poll(name).toBe('autocodebench_lite.jsonl');
    // Kept files are neither downloaded nor sized again; only the missing Complete file is asked about.
    const asked = [...counts].filter(([what, n]) => before.get(what) !== n).map(([what]) => what);
    expect(asked.filter((what) => !what.endsWith('autocodebench_completion_3shot.jsonl'))).toEqual([]);
  });

  it('"forget" deletes the kept copy: the next load downloads again', async () => {
    const cached = () => page.evaluate(async () => (await (await caches.open('benchtop-datasets-v1')).keys()).map((r) => new URL(r.url).pathname.split('/').pop()));
    expect((await cached()).sort()).toEqual(['autocodebench.jsonl', 'autocodebench_lite.jsonl']);
    await page.getByTestId('preset-forget-full').click();
    await page.getByTestId('preset-size-full').waitFor();
    expect(await cached()).toEqual(['autocodebench_lite.jsonl']);
    await page.getByTestId('preset-load-full').click();
    await page.getByTestId('preset-kept-full').waitFor();
    expect(count('GET autocodebench.jsonl')).toBe(2);
    expect(pageErrors).toEqual([]);
  });
});
