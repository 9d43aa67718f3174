/**
 * Issue 18's "done means" in the built app (dist/), in headless Chromium: the CLI run
 * `--data bench-data/demo.jsonl --model replay:bench-data/demo-answers.jsonl
 * --sample-per-language 3 --seed 2` and the page with "Random K per language" 3 and seed 2 (both
 * over every language but C++) draw the same problems and print the same interval lines (subset
 * Pass@1 with its 95% interval, the full-benchmark estimate) and the same headline. The lines' arithmetic is checked by hand in
 * tests/integration/cli-subset.test.ts; here they must agree between the two.
 *
 * Needs `dist/` (`npm run build`) and `dist-node/cli.mjs` (built by tests/global-setup.ts). Uses
 * Debian's Chromium at /usr/bin/chromium (or CHROMIUM_PATH); no browser is ever downloaded.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGE_IDS } from '../../src/contracts';
import { useChromium } from '../support/e2e';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);
/**
 * Both sides get the same generous time limit: on a loaded 2-core machine a C++ answer compiled
 * by clang in WebAssembly was seen to pass in 18 s and to hit the official 33 s in another run,
 * and this test compares the page with the CLI, not the machine's load from one run to the next.
 */
const TIME_LIMIT_SECONDS = 90;
/**
 * Seed 2 draws no recorded runaway (seed 1 drew a JavaScript infinite loop that held each side
 * for the whole 90 s limit, most of this test's time) and still a mixed subset: without C++ (below),
 * 11 of 24 pass, languages at 0/3, 1/3, 2/3 and 3/3.
 */
const SEED = 2;
/**
 * Every language but C++ on both sides: the comparison is about the figures, and C++ cost this file
 * a clang load and six compiles in each of the page and the CLI (about 40 s of CI); C++ verdicts
 * in the page are checked against their recorded outcomes in tests/e2e/app.test.ts.
 */
const LANGUAGES = LANGUAGE_IDS.filter((l) => l !== 'cpp');

describe('a seeded subset: the page and the CLI print the same figures', () => {
  const chromium = useChromium();
  let page: Page;
  const pageErrors: string[] = [];
  beforeAll(async () => ({ page } = await chromium.openApp({ viewport: { width: 1440, height: 1000 }, pageErrors })));

  it(`--sample-per-language 3 --seed ${SEED}`, { timeout: 1_800_000 }, async () => {
    // One after the other: on a loaded 2-core machine a slow recorded answer run beside the page
    // can reach its time limit in one and not the other.
    const cliRun = await run(
      process.execPath,
      ['dist-node/cli.mjs', '--data', 'bench-data/demo.jsonl', '--model', 'replay:bench-data/demo-answers.jsonl', '--languages', LANGUAGES.join(','), '--sample-per-language', '3', '--seed', String(SEED), '--timeout', String(TIME_LIMIT_SECONDS)],
      { cwd: root, timeout: 900_000, maxBuffer: 16 << 20 },
    );

    await page.getByTestId('model-select').selectOption({ label: 'Recorded demo answers' });
    // The page ticks only the languages it can run (issue #17); the CLI command draws from all 20.
    await page.locator('fieldset', { hasText: 'Languages' }).getByRole('button', { name: 'all', exact: true }).click();
    await page.getByTestId('filter-language-cpp').uncheck();
    await page.getByTestId('sample-per-language').fill('3');
    await page.getByTestId('sample-seed').fill(String(SEED));
    await page.getByTestId('time-limit').fill(String(TIME_LIMIT_SECONDS));
    expect(await page.getByTestId('selected-count').textContent()).toContain('57 of 109');
    // Before Run: the expected width for 57 of the 104 problems of those 19 languages at p = 50%,
    // 1.96·√(0.25/57 · 47/103) = ±8.8 points.
    expect(await page.getByTestId('expected-width').textContent()).toContain('±8.8 points');
    await page.getByTestId('run-button').click();
    await page.locator('[data-testid="progress"][data-state="done"]').waitFor({ timeout: 900_000 });

    const out = cliRun.stdout.trim().split('\n').map((l) => l.trimEnd());
    const cliIntervals = out.filter((l) => l.startsWith('Pass@1 on this subset') || l.startsWith('subset: '));
    expect(cliIntervals).toHaveLength(2);
    expect(cliIntervals[0]).toMatch(/^Pass@1 on this subset \d+\.\d% \(95% CI \d+\.\d–\d+\.\d%\); full-benchmark estimate \d+\.\d% ± \d+\.\d$/);
    const shown = (await page.getByTestId('interval-line').allTextContents()).map((l) => l.trim());
    expect(shown).toEqual(cliIntervals);
    expect((await page.getByTestId('pass1').textContent())!.trim()).toBe(out.at(-1));
    // A mixed subset (SEED's comment): a page that passed or failed everything could not match.
    const [, passed, counted] = /\((\d+)\/(\d+)\)$/.exec(out.at(-1)!)!.map(Number);
    expect(passed).toBeGreaterThan(0);
    expect(passed).toBeLessThan(counted!);
    // The per-language table's interval column: the CLI table's last column.
    const header = out.findIndex((l) => l.startsWith('language '));
    const cliCi = new Map(out.slice(header + 1).filter((l) => /^\S.*\d+\/\d+ /.test(l) && !l.startsWith('all ')).map((l) => [l.split(/\s{2,}/)[0]!.trim(), l.trim().split(/\s+/).at(-1)!]));
    const pageCi = await page.getByTestId('language-row').evaluateAll((rows) => rows.map((r) => [r.querySelector('td')!.textContent!.trim(), r.querySelector('[data-testid="language-ci"]')!.textContent!.trim()]));
    expect(pageCi.length).toBeGreaterThan(5);
    for (const [name, ci] of pageCi) expect(ci, name).toBe(cliCi.get(name!));
    expect(pageErrors).toEqual([]);
  });
});
