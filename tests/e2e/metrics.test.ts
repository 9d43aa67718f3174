/**
 * Issue 6 in the built app (dist/), in headless Chromium: the recorded multi-sample, multi-turn
 * demo answers (bench-data/demo-answers-multi.jsonl) replayed with n = 4 and 3 turns on the demo
 * set's Python, JavaScript and TypeScript problems print the same `pass@k: …` and
 * `Pass@1 after turn t: …` lines as the CLI does for the same input (the CLI runs in the test),
 * and those equal the figures computed here by hand from the answers' recorded `expected`
 * outcomes. The charts render (one <svg> each, with a text alternative), "Save SVG" and
 * "Save PNG" download files, and the leaderboard of two stored runs marks the right best cells
 * and sorts by a column.
 *
 * Needs `dist/` (`npm run build`) and `dist-node/cli.mjs` (built by tests/global-setup.ts). Uses
 * Debian's Chromium at /usr/bin/chromium (or CHROMIUM_PATH); no browser is ever downloaded.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { runAndWait, selectLanguages } from '../../src/bench/app-page';
import { LANGUAGE_NAMES, type LanguageId } from '../../src/contracts';
import { parseDataset } from '../../src/core/records';
import { appOrigin, useChromium } from '../support/e2e';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);
const LANGUAGES: readonly LanguageId[] = ['python', 'javascript', 'typescript'];
const SAMPLES = 4;
const TURNS = 3;
/** A short time limit: the recorded infinite loops cost 5 s each instead of 30 s. */
const TIME_LIMIT_SECONDS = 5;

const demo = parseDataset(readFileSync(`${root}bench-data/demo.jsonl`, 'utf8'));
const subset = demo.problems.filter((p) => LANGUAGES.includes(p.language));

interface Recorded {
  id: string;
  sample?: number;
  turn?: number;
  expected: { demo: string; full: string };
}
const recorded: Recorded[] = readFileSync(`${root}bench-data/demo-answers-multi.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Recorded);

/**
 * The figures by hand, from the recorded outcomes: a turn passes when both its tests pass; a turn
 * without a recorded answer repeats the sample's latest earlier one; a sample passes when one of
 * its turns ≤ T passes. pass@1 over n samples = mean over problems of c/n; Pass@1 after turn t =
 * share of problems whose sample 0 passed at some turn ≤ t.
 */
function byHand(): { pass1OverSamples: number; afterTurn: number[] } {
  const passes = (id: string, sample: number, turn: number): boolean => {
    const answers = recorded.filter((r) => r.id === id && (r.sample ?? 0) === sample && (r.turn ?? 1) <= turn);
    const latest = answers.sort((a, b) => (b.turn ?? 1) - (a.turn ?? 1))[0];
    if (!latest) throw new Error(`no recorded answer for ${id} sample ${sample}`);
    return latest.expected.demo === 'PASSED' && latest.expected.full === 'PASSED';
  };
  const passedBy = (id: string, sample: number, turn: number) => Array.from({ length: turn }, (_, t) => passes(id, sample, t + 1)).some(Boolean);
  let sum = 0;
  for (const p of subset) {
    let c = 0;
    for (let s = 0; s < SAMPLES; s++) if (passedBy(p.id, s, TURNS)) c++;
    sum += c / SAMPLES;
  }
  const afterTurn = Array.from({ length: TURNS }, (_, t) => subset.filter((p) => passedBy(p.id, 0, t + 1)).length / subset.length);
  return { pass1OverSamples: sum / subset.length, afterTurn };
}
const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

/** The CLI's output for the same data and settings. */
async function cli(args: string[]): Promise<string[]> {
  const { stdout } = await run(
    process.execPath,
    ['dist-node/cli.mjs', '--data', 'bench-data/demo.jsonl', '--languages', LANGUAGES.join(','), '--timeout', String(TIME_LIMIT_SECONDS), ...args],
    { cwd: root, timeout: 540_000, maxBuffer: 16 << 20 },
  );
  return stdout.trim().split('\n').map((l) => l.trimEnd());
}
const isMetricLine = (line: string) => /^pass@\d+: /.test(line) || /^Pass@1 after turn \d+: /.test(line);

describe('pass@k, refinement, charts and the leaderboard in Chromium', () => {
  const chromium = useChromium();
  let page: Page;
  const origin = appOrigin();
  const pageErrors: string[] = [];
  const requests: string[] = [];
  let cliLines: string[] = [];
  /** Per-language Pass@1 (first attempts) as the CLI's table printed it. */
  const cliPerLanguage = new Map<string, string>();

  /** Does `start` (which starts an evaluation) and waits until it has ended. */
  const evaluate = (start: () => Promise<unknown>) => runAndWait(page, { start, timeout: 540_000 });

  async function download(locator: ReturnType<Page['locator']>): Promise<{ name: string; bytes: Buffer }> {
    const [file] = await Promise.all([page.waitForEvent('download'), locator.click()]);
    return { name: file.suggestedFilename(), bytes: readFileSync((await file.path())!) };
  }

  /**
   * The CLI's run, started with the file: it runs while the page runs the same answers (two
   * processes on the two cores) instead of before it (in CI it took 27 s, the page 22 s). Load
   * cannot hide a wrong verdict here: the CLI's lines must equal the figures by hand from the
   * recorded outcomes, and the page's the CLI's. `readCli` fills cliLines and cliPerLanguage.
   */
  let cliOut: Promise<string[]>;
  let cliRead: Promise<string[]> | undefined;
  const readCli = () =>
    (cliRead ??= cliOut.then((out) => {
      cliLines = out.filter(isMetricLine);
      for (const language of LANGUAGES) {
        const row = out.find((l) => l.startsWith(`${LANGUAGE_NAMES[language]} `));
        if (row) cliPerLanguage.set(language, row.trim().split(/\s+/)[2]!);
      }
      cliLines.push(out.at(-1)!);
      return out;
    }));
  beforeAll(async () => {
    cliOut = cli(['--model', 'replay:bench-data/demo-answers-multi.jsonl', '--samples', String(SAMPLES), '--turns', String(TURNS)]);
    cliOut.catch(() => undefined); // awaited, and its failure reported, by the tests
    ({ page } = await chromium.openApp({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true, pageErrors, requests }));
  });

  it('the page replays the same answers with n = 4 and 3 turns (stopped and continued) and prints the same lines', { timeout: 600_000 }, async () => {
    await selectLanguages(page, LANGUAGES);
    await page.getByTestId('model-select').selectOption('demo-answers-multi');
    await page.getByTestId('samples').fill(String(SAMPLES));
    await page.getByTestId('turns').fill(String(TURNS));
    expect(await page.getByTestId('feedback-select').inputValue()).toBe('demo');
    await page.getByTestId('time-limit').fill(String(TIME_LIMIT_SECONDS));
    await page.getByTestId('concurrency').fill('3');
    expect(await page.getByTestId('selected-count').textContent()).toContain(`${subset.length} of`);

    // Stopped part-way and continued: the chains left unfinished go on from their stored turns.
    await page.getByTestId('run-button').click();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="progress"]')?.getAttribute('data-done')) >= 30, null, { timeout: 300_000, polling: 100 });
    await page.getByTestId('stop-button').click();
    await page.locator('[data-testid="progress"][data-state="stopped"]').waitFor({ timeout: 120_000 });
    const stoppedAt = Number(await page.getByTestId('progress').getAttribute('data-done'));
    expect(stoppedAt).toBeLessThan(subset.length * SAMPLES);
    expect(await page.getByTestId('continue-run').textContent()).toContain(`${subset.length * SAMPLES - stoppedAt} samples left`);
    await evaluate(() => page.getByTestId('continue-run').click());
    const progress = page.getByTestId('progress');
    expect(await progress.getAttribute('data-done')).toBe(String(subset.length * SAMPLES));
    expect(await progress.getAttribute('data-total')).toBe(String(subset.length * SAMPLES));

    await readCli();
    expect(cliLines.length).toBeGreaterThan(1);
    const lines = (await page.getByTestId('metric-line').allTextContents()).map((l) => l.trim());
    expect(lines).toEqual(cliLines.filter(isMetricLine));
    expect((await page.getByTestId('pass1').textContent())!.trim()).toBe(cliLines.at(-1));
    expect(await page.getByTestId('run-shape').textContent()).toContain(`n = ${SAMPLES} · ${TURNS} turns`);
  });

  it('the CLI prints pass@k and Pass@1 after each turn equal to the figures computed by hand', { timeout: 600_000 }, async () => {
    const out = await readCli();
    const hand = byHand();
    // With n = 4 the printed ks are 1 only (5 and 10 exceed n).
    expect(cliLines.filter(isMetricLine)).toEqual([
      `pass@1: ${pct(hand.pass1OverSamples)}`,
      ...hand.afterTurn.map((v, t) => `Pass@1 after turn ${t + 1}: ${pct(v)}`),
    ]);
    // The refinement must change something for this test to mean anything.
    expect(hand.afterTurn[TURNS - 1]).toBeGreaterThan(hand.afterTurn[0]!);
    for (const language of LANGUAGES) expect(cliPerLanguage.get(language), language).toMatch(/^\d+\.\d%$/);
    expect(out.at(-1)).toMatch(/^Pass@1: \d+\.\d% \(\d+\/24\)$/);
  });

  it('breaks the first attempts down per language, difficulty and outcome', async () => {
    for (const language of LANGUAGES) {
      const cells = (await page.locator(`[data-testid="language-row"][data-language="${language}"] td`).allTextContents()).map((t) => t.trim());
      expect(cells[2], language).toBe(cliPerLanguage.get(language));
    }
    // The table also has Pass@1 after turns 2 and 3, and pass@1 over the samples.
    const value = (prefix: string) => cliLines.find((l) => l.startsWith(prefix))!.split(': ')[1];
    expect((await page.getByTestId('language-extra-overall').allTextContents()).map((t) => t.trim())).toEqual([
      value('Pass@1 after turn 2'),
      value('Pass@1 after turn 3'),
      value('pass@1'),
    ]);
    const difficulties = await page.getByTestId('difficulty-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-difficulty')));
    expect(difficulties).toEqual(['easy', 'medium', 'hard']);
    const outcomeCounts = (await page.locator('[data-testid="outcome-row"] td:nth-child(2)').allTextContents()).map(Number);
    expect(outcomeCounts.reduce((a, b) => a + b, 0)).toBe(subset.length);
  });

  it('draws the four charts, each an <svg> with a text alternative and a data table', async () => {
    const charts = page.getByTestId('chart');
    await charts.first().locator('svg').first().waitFor();
    expect(await charts.evaluateAll((els) => els.map((e) => e.getAttribute('data-chart')))).toEqual(['languages', 'difficulty', 'refinement', 'passk']);
    for (const chart of await charts.all()) {
      const svg = chart.locator('svg.drawn');
      expect(await svg.count()).toBe(1);
      expect(await svg.getAttribute('role')).toBe('img');
      expect((await svg.getAttribute('aria-label'))!.length).toBeGreaterThan(10);
      const box = await svg.boundingBox();
      expect(box!.width).toBeGreaterThan(200);
      expect(box!.height).toBeGreaterThan(150);
      expect(await chart.getByTestId('chart-table').locator('tbody tr').count()).toBeGreaterThan(0);
    }
    // The refinement curve's table holds the per-turn figures the summary printed.
    const refinement = page.locator('[data-testid="chart"][data-chart="refinement"]');
    const values = (await refinement.locator('[data-testid="chart-table"] tbody tr td:nth-child(3)').allTextContents()).map((t) => t.trim());
    expect(values).toEqual(cliLines.filter((l) => l.startsWith('Pass@1 after turn')).map((l) => l.split(': ')[1]));
    // Bars: one per language in the per-language chart.
    const bars = await page.locator('[data-testid="chart"][data-chart="languages"] svg.drawn g[aria-label="bar"] rect').count();
    expect(bars).toBe(LANGUAGES.length);
  });

  it('saves a chart as SVG and as PNG', async () => {
    const chart = page.locator('[data-testid="chart"][data-chart="languages"]');
    const svg = await download(chart.getByTestId('save-svg'));
    expect(svg.name).toMatch(/^benchtop-.*\.languages\.svg$/);
    const text = svg.bytes.toString('utf8');
    expect(text.startsWith('<?xml')).toBe(true);
    expect(text).toContain('<svg');
    expect(text).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(text).toContain('Pass@1 per language');
    for (const language of LANGUAGES) expect(text).toContain(LANGUAGE_NAMES[language]);

    const png = await download(chart.getByTestId('save-png'));
    expect(png.name).toMatch(/\.languages\.png$/);
    expect([...png.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // Width and height from the IHDR chunk: the SVG drawn at twice its size.
    const width = png.bytes.readUInt32BE(16);
    const height = png.bytes.readUInt32BE(20);
    const svgWidth = Number(text.match(/<svg[^>]*\swidth="(\d+)"/)![1]);
    expect(width).toBe(svgWidth * 2);
    expect(height).toBeGreaterThan(300);
  });

  it('keeps the drawn charts and the laid-out view across a switch to Runs and back, and redraws them when their width changes', async () => {
    // A redraw on coming back would happen inside the frame that answers the click (#16).
    const marked = () => page.getByTestId('chart').evaluateAll((figures) => figures.map((f) => (f.querySelector('svg.drawn') as (SVGSVGElement & { keep?: boolean }) | null)?.keep === true));
    await page.getByTestId('chart').evaluateAll((figures) => {
      for (const f of figures) (f.querySelector('svg.drawn') as SVGSVGElement & { keep?: boolean }).keep = true;
    });
    expect(await marked()).toEqual([true, true, true, true]);
    // Under Runs the Evaluate view is skipped, not torn down: its boxes keep their layout
    // (display: none drops it, and coming back then lays out the whole view again: 10-15 ms on a
    // quiet machine and several times that while runtimes load), and it is out of reach (not
    // visible, no focus).
    const chartWidth = () => page.getByTestId('chart').first().evaluate((f) => (f as HTMLElement).offsetWidth);
    const width = await chartWidth();
    await page.getByTestId('view-runs').click();
    await page.getByTestId('run-list').waitFor();
    expect(width).toBeGreaterThan(0);
    expect(await chartWidth()).toBe(width);
    expect(await page.getByTestId('run-button').isVisible()).toBe(false);
    expect(await page.getByTestId('run-button').evaluate((b) => (b.focus(), document.activeElement === b))).toBe(false);
    await page.getByTestId('view-evaluate').click();
    await page.getByTestId('chart').first().waitFor({ state: 'visible' });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await marked()).toEqual([true, true, true, true]);

    // A real change of width still redraws each chart, at the new width.
    await page.setViewportSize({ width: 900, height: 1000 });
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="chart"]')].every((f) => {
      const svg = f.querySelector('svg.drawn') as (SVGSVGElement & { keep?: boolean }) | null;
      const box = f.querySelector('.plot') as HTMLElement;
      return svg && !svg.keep && Math.abs(svg.getBoundingClientRect().width - box.clientWidth) <= 2;
    }), null, { timeout: 10_000 });
    await page.setViewportSize({ width: 1440, height: 1000 });
  });

  it('the leaderboard of two stored runs marks the best cell of each column and sorts by a column', { timeout: 300_000 }, async () => {
    // A second run: the reference solutions of the Python problems only (100% there).
    await selectLanguages(page, ['python']);
    await page.getByTestId('model-select').selectOption('canonical');
    await page.getByTestId('samples').fill('1');
    await page.getByTestId('turns').fill('1');
    await evaluate(() => page.getByTestId('run-button').click());
    expect((await page.getByTestId('pass1').textContent())!.trim()).toBe('Pass@1: 100.0% (8/8)');

    await page.getByTestId('view-leaderboard').click();
    await page.getByTestId('board-table').waitFor();
    const rows = page.getByTestId('board-row');
    expect(await rows.count()).toBe(2);
    const cells = async () =>
      page.getByTestId('board-cell').evaluateAll((els) =>
        els.map((e) => ({
          run: e.closest('tr')!.querySelector('th .name')!.textContent!.trim(),
          column: e.getAttribute('data-column'),
          // The star is for the eye, "(best)" for screen readers (visually hidden).
          text: e.textContent!.replace(/\s+/g, ''),
          best: e.getAttribute('data-best') === 'true',
          bold: !!e.querySelector('strong'),
          tied: e.getAttribute('data-tied') === 'true',
        })),
      );
    const all = await cells();
    const cell = (model: string, column: string) => all.find((c) => c.run!.startsWith(model) && c.column === column)!;
    const multi = 'Recorded demo answers (several samples';
    const canonical = 'Canonical solutions';
    // Columns: overall, then the languages in alphabetical order.
    expect([...new Set(all.map((c) => c.column))]).toEqual(['overall', 'javascript', 'python', 'typescript']);
    // Canonical: 100% on Python, best there; its overall 100% is on the Python problems only, so it
    // is marked as computed on other problems and does not compete (issue #17); nothing on the others.
    expect(cell(canonical, 'python')).toMatchObject({ text: '100.0%★(best)', best: true, bold: true });
    expect(cell(canonical, 'overall')).toMatchObject({ text: '100.0%≠(otherproblems)', best: false, bold: false });
    expect(cell(canonical, 'javascript')).toMatchObject({ text: '–', best: false });
    // The multi-sample run: its first attempts' Pass@1, as the CLI printed; best where it is the only one.
    for (const language of ['javascript', 'typescript']) {
      expect(cell(multi, language)).toMatchObject({ text: `${cliPerLanguage.get(language)}★(best)`, best: true, bold: true });
    }
    // Python: the multi run's 4 failures of 8 all pass in the canonical run, and nothing the other way:
    // exact McNemar p = 2·(½)^4 = 0.125, not significant at 5%, so a muted "≈" (the same 8 problems overall).
    expect(cell(multi, 'python')).toMatchObject({ text: `${cliPerLanguage.get('python')}≈(notsignificantlybelowthebest)`, best: false, bold: false, tied: true });
    // Overall: the multi run is the fullest row, so its figure is the reference and the best.
    expect(cell(multi, 'overall')).toMatchObject({ best: true, bold: true });
    expect(all.filter((c) => c.best)).toHaveLength(4);

    // Sorting: by JavaScript the multi run leads (the other has no figure); by Python, best first, then reversed.
    const order = () => rows.evaluateAll((els) => els.map((e) => e.querySelector('th .name')!.textContent!.trim()));
    await page.locator('[data-testid="board-sort"][data-column="javascript"]').click();
    expect((await order())[0]).toContain(multi);
    await page.locator('[data-testid="board-sort"][data-column="python"]').click();
    expect((await order())[0]).toContain(canonical);
    expect(await page.locator('th:has([data-column="python"])').getAttribute('aria-sort')).toBe('descending');
    await page.locator('[data-testid="board-sort"][data-column="python"]').click();
    expect((await order())[0]).toContain(multi);
    expect(await page.locator('th:has([data-column="python"])').getAttribute('aria-sort')).toBe('ascending');
  });

  it('exports a manifest beside each stored run', async () => {
    await page.getByTestId('view-runs').click();
    const row = page.locator('[data-testid="run-row"]', { hasText: 'several samples' }).first();
    const file = await download(row.getByTestId('run-manifest'));
    const m = JSON.parse(file.bytes.toString('utf8')) as Record<string, any>;
    expect(m.format).toBe('benchtop run manifest');
    expect(m.settings).toMatchObject({ samples: SAMPLES, turns: TURNS, feedback: 'demo', extraction_mode: 'compat', time_limit_seconds: TIME_LIMIT_SECONDS });
    expect(m.dataset.sha256).toMatch(/^[0-9a-f]{64}$/);
    const { createHash } = await import('node:crypto');
    expect(m.dataset.sha256).toBe(createHash('sha256').update(readFileSync(`${root}bench-data/demo.jsonl`)).digest('hex'));
    expect(m.figures.pass_at_k.find((p: { k: number }) => p.k === 1).value).toBeCloseTo(byHand().pass1OverSamples, 6);
    expect(m.figures.pass1_by_turn.map((t: { value: number }) => t.value)).toEqual(byHand().afterTurn.map((v) => Math.round(v * 1e6) / 1e6));
  });

  it('made no request outside its own origin and no page error', () => {
    const elsewhere = requests.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin);
    expect(elsewhere).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
