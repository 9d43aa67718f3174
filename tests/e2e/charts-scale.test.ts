/**
 * Side-by-side charts on one scale (issue #17, item 11): with seven languages in a half-width
 * column the per-language chart turns its names upright and needs more room below its frame; it
 * must grow rather than squeeze its y axis, so that it and the difficulty chart beside it put the
 * same percentage at the same height. Reads both charts' y-axis ticks (labels and on-screen
 * positions) in the built app in Chromium. Needs `dist/` (`npm run build`); Debian's Chromium.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chooseSource, loadDataset, runAndWait } from '../../src/bench/app-page';
import { useChromium } from '../support/e2e';

/** Seven in-page languages without the two largest downloads (webR, clang). */
const LANGUAGES = ['python', 'javascript', 'typescript', 'shell', 'perl', 'php', 'ruby'];
/** The demo set's first problem in each: seven runtimes to start, one problem each. */
const DATASET = LANGUAGES.map((language) => readFileSync('bench-data/demo.jsonl', 'utf8').split('\n').find((l) => l.includes(`"language": "${language}"`) || l.includes(`"language":"${language}"`))!).join('\n') + '\n';

/** One chart's y-axis ticks: label and centre, in px from the top of its <svg>; its box; whether x labels are turned. */
function axisOf(page: Page, chart: string) {
  return page.locator(`[data-testid="chart"][data-chart="${chart}"] svg.drawn`).evaluate((svg) => {
    const top = svg.getBoundingClientRect().top;
    const ticks = [...svg.querySelectorAll('g[aria-label="y-axis tick label"] text')].map((t) => {
      const box = t.getBoundingClientRect();
      return { label: t.textContent!.trim(), y: Math.round((box.top + box.height / 2 - top) * 10) / 10 };
    });
    const box = svg.getBoundingClientRect();
    const turned = [...svg.querySelectorAll('g[aria-label="x-axis tick label"] text')].some((t) => /rotate\(-90/.test(`${t.getAttribute('transform') ?? ''} ${t.parentElement?.getAttribute('transform') ?? ''}`));
    return { ticks, left: Math.round(box.left), top: Math.round(box.top), width: Math.round(box.width), turned };
  });
}

describe('charts side by side', () => {
  const chromium = useChromium();

  it('put the same percentage at the same height, turned language names or not', { timeout: 600_000 }, async () => {
    // Wide enough for two columns (480 px each at least), narrow enough that seven names are turned.
    const { page } = await chromium.openApp({ viewport: { width: 1080, height: 900 } });
    await loadDataset(page, 'seven.jsonl', DATASET);
    await page.getByTestId('dataset-name').filter({ hasText: 'seven.jsonl' }).waitFor();
    await chooseSource(page, { value: 'canonical' });
    await runAndWait(page, { timeout: 400_000 });
    expect(await page.getByTestId('problem-row').count()).toBe(LANGUAGES.length);
    await page.locator('[data-testid="chart"][data-chart="difficulty"] svg.drawn').waitFor();

    const languages = await axisOf(page, 'languages');
    const difficulty = await axisOf(page, 'difficulty');
    console.log(`languages chart: ${JSON.stringify(languages)}\ndifficulty chart: ${JSON.stringify(difficulty)}`);
    // The case of the issue: side by side (one row, two columns), the language names turned.
    expect(languages.top).toBe(difficulty.top);
    expect(difficulty.left).toBeGreaterThan(languages.left + languages.width - 1);
    expect(languages.turned).toBe(true);
    // One scale: the same ticks, each at the same height in both.
    expect(languages.ticks.map((t) => t.label)).toEqual(['0', '10', '20', '30', '40', '50', '60', '70', '80', '90', '100']);
    expect(difficulty.ticks.map((t) => t.label)).toEqual(languages.ticks.map((t) => t.label));
    for (const [i, tick] of languages.ticks.entries()) expect(Math.abs(tick.y - difficulty.ticks[i]!.y), `tick ${tick.label}`).toBeLessThanOrEqual(0.5);
  });
});
