/**
 * Accessibility and small screens (issue #17, items 12, 11 and 3), in the built app in headless
 * Chromium: axe-core finds no WCAG 2.2 A/AA violation on any view (with a self-check run and a
 * recorded-answers run loaded, so tables, badges, charts, the problem view and the comparison are
 * populated); the keyboard has one Tab stop per composite widget and focus returns to the row that
 * opened the problem view; charts are drawn at their container's width with no text under 11 px;
 * and at 390 px no view scrolls sideways. Needs `dist/` (`npm run build`); Debian's Chromium.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useChromium } from '../support/e2e';

/**
 * WCAG 2.2 level A and AA (axe's tags: 2.0 rules are tagged wcag2a/wcag2aa, 2.1's wcag21*, and
 * 2.2's wcag22aa: target-size, 2.5.8, every pointer target 24 × 24 px or spaced as far).
 */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
/** QuickJS languages (no Pyodide or compiler download) and one that has no runtime here (UNSUPPORTED). */
const RUN_LANGUAGES = ['javascript', 'typescript'];

describe('accessibility and small screens', () => {
  const chromium = useChromium();
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    // Axe needs a page made from a context (it opens a blank page in the same context to finish): openApp makes one.
    ({ page } = await chromium.openApp({ viewport: { width: 1280, height: 900 }, pageErrors }));
  });

  /** Axe's WCAG 2.2 A/AA violations on the page as it is now: per rule, how many elements, the first and why. */
  async function violations(): Promise<string[]> {
    const { violations, passes } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
    for (const rule of [...violations, ...passes]) checked.add(rule.id);
    return violations.map((v) => {
      const first = v.nodes[0]!;
      return `${v.id} (${v.impact}) on ${v.nodes.length} element(s), e.g. ${first.target.join(' ')} — ${first.failureSummary?.split('\n')[1]?.trim() ?? v.help}`;
    });
  }
  /** Rules axe applied somewhere (passed or not): the 2.2 rule must be among them. */
  const checked = new Set<string>();
  /** Every view checked, with what axe found there: all must be empty. */
  const found: Record<string, string[]> = {};
  const scan = async (view: string) => void (found[view] = await violations());

  const tickOnly = async (languages: string[]) => {
    for (const box of await page.locator('[data-testid^="filter-language-"]').all()) {
      const id = (await box.getAttribute('data-testid'))!.replace('filter-language-', '');
      if ((await box.isChecked()) !== languages.includes(id)) await box.click();
    }
  };
  /** Clicks Run and waits for that evaluation (a new session) to end. */
  const runAndWait = async () => {
    const session = () => page.evaluate(() => Number(document.querySelector('main')?.getAttribute('data-session') ?? 0));
    const before = await session();
    await page.getByTestId('run-button').click();
    await page.waitForFunction((b) => {
      const p = document.querySelector('[data-testid="progress"]');
      return !!p && Number(p.getAttribute('data-session')) > b && p.getAttribute('data-state') === 'done';
    }, before, { timeout: 240_000, polling: 200 });
  };
  const focused = () => page.evaluate(() => {
    const e = document.activeElement as HTMLElement | null;
    return e ? `${e.tagName.toLowerCase()}|${e.getAttribute('data-testid') ?? ''}|${e.getAttribute('data-id') ?? ''}` : '';
  });

  it('finds no WCAG 2.2 A/AA violation on any view (target-size included)', { timeout: 600_000 }, async () => {
    await scan('evaluate, before a run');

    // A self-check of the QuickJS languages, two samples each (so the pass@k chart is drawn).
    await page.getByTestId('model-select').selectOption('canonical');
    await tickOnly(RUN_LANGUAGES);
    await page.getByTestId('samples').fill('2');
    await runAndWait();
    await page.getByTestId('charts').locator('[data-testid="chart"][data-chart="passk"] svg.drawn').waitFor();
    for (const details of await page.getByTestId('charts').locator('details').all()) await details.locator('summary').click();
    await scan('evaluate, with a self-check run');

    await page.getByTestId('problem-row').first().click();
    await page.getByTestId('problem-detail').waitFor();
    await scan('problem view');
    await page.keyboard.press('Escape');
    await page.getByTestId('problem-detail').waitFor({ state: 'detached' });

    // Recorded answers (some fail) with a language that cannot run here: every outcome badge colour.
    await page.getByTestId('samples').fill('1');
    await page.getByTestId('model-select').selectOption('demo-answers');
    await tickOnly([...RUN_LANGUAGES, 'java']);
    // A recorded JavaScript answer loops forever: 5 s (QuickJS answers take well under a second)
    // instead of the official limit still shows its TIME_LIMIT_EXCEEDED badge, sooner.
    await page.getByTestId('time-limit').fill('5');
    await runAndWait();
    await scan('evaluate, with failures and UNSUPPORTED');
    await page.locator('[data-testid="problem-row"]:not([data-outcome="PASSED"])').first().click();
    await page.getByTestId('problem-detail').waitFor();
    await scan('problem view of a failure');
    await page.keyboard.press('Escape');

    await page.getByTestId('model-select').selectOption('provider');
    await page.getByTestId('provider-settings').waitFor();
    await page.getByTestId('provider-prompt').locator('summary').click();
    await page.getByTestId('runner-settings').locator('summary').click();
    await scan('provider and remote runner settings');
    await page.getByTestId('model-select').selectOption('canonical');

    await page.getByTestId('view-runs').click();
    await page.getByTestId('run-list').waitFor();
    await scan('runs');
    for (const box of (await page.getByTestId('run-pick').all()).slice(0, 2)) await box.check();
    await page.getByTestId('compare-runs').click();
    await page.getByTestId('run-compare').waitFor();
    await scan('runs, two compared');

    await page.getByTestId('view-leaderboard').click();
    await page.getByTestId('board-table').waitFor();
    await scan('leaderboard');
    await page.getByTestId('view-evaluate').click();

    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((view) => [view, []])));
    expect(Object.keys(found)).toHaveLength(9);
    expect(checked.has('target-size')).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('has one Tab stop per composite widget, arrow keys inside, and focus back on the opener', async () => {
    // The view tabs: one Tab stop; arrows move the selection and the focus.
    await page.getByTestId('view-evaluate').focus();
    expect(await page.getByTestId('view-evaluate').getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('button|view-runs|');
    expect(await page.getByTestId('view-runs').getAttribute('aria-selected')).toBe('true');
    await page.getByTestId('run-list').waitFor();
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).not.toMatch(/\|view-/);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('button|view-runs|');
    await page.keyboard.press('Tab');
    expect(await focused()).not.toMatch(/\|view-/);
    await page.getByTestId('view-runs').focus();
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('button|view-evaluate|');
    await page.getByTestId('problem-table').waitFor();

    // The problem table: one Tab stop; arrows move between rows; each row has a name.
    const rows = page.getByTestId('problem-row');
    const ids = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')!));
    expect(ids.length).toBeGreaterThan(3);
    for (const row of (await rows.all()).slice(0, 3)) expect(await row.getAttribute('aria-label')).toMatch(/^#\d+ .+ \(\S+\), \S+, (easy|medium|hard), [A-Z_ ]+/);
    expect(await rows.evaluateAll((trs) => trs.filter((tr) => tr.tabIndex === 0).length)).toBe(1);
    await rows.first().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe(`tr|problem-row|${ids[2]}`);
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe(`tr|problem-row|${ids[1]}`);
    // Shift+Tab leaves the table (to the filter before it), Tab comes back to the same row.
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).not.toMatch(/\|problem-row\|/);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe(`tr|problem-row|${ids[1]}`);

    // The outcome filters are toggle buttons that say which one is on (WCAG 4.1.2), not only by colour.
    expect(await page.getByTestId('outcome-filter-all').getAttribute('aria-pressed')).toBe('true');
    const passed = page.getByTestId('outcome-filter-PASSED');
    expect(await passed.getAttribute('aria-pressed')).toBe('false');
    await passed.click();
    expect(await passed.getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('outcome-filter-all').getAttribute('aria-pressed')).toBe('false');
    await passed.click();
    expect(await page.getByTestId('outcome-filter-all').getAttribute('aria-pressed')).toBe('true');
    await page.locator(`tr[data-testid="problem-row"][data-id="${ids[1]}"]`).focus();

    // Enter opens the problem view with focus inside; Esc closes it and focus is back on the row.
    await page.keyboard.press('Enter');
    await page.getByTestId('problem-detail').waitFor();
    expect(await focused()).toBe('button|detail-close|');
    // A modal dialog: Tab goes round inside it, never to the page behind.
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !document.activeElement || document.activeElement === document.body || !!document.activeElement.closest('[data-testid="problem-detail"]'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await page.getByTestId('problem-detail').waitFor({ state: 'detached' });
    expect(await focused()).toBe(`tr|problem-row|${ids[1]}`);
    // Stepping to the next problem inside the view returns focus to that problem's row.
    await page.keyboard.press('Enter');
    await page.getByTestId('problem-detail').waitFor();
    await page.keyboard.press('Alt+ArrowDown');
    await page.getByTestId('detail-close').click();
    await page.getByTestId('problem-detail').waitFor({ state: 'detached' });
    expect(await focused()).toBe(`tr|problem-row|${ids[2]}`);
    expect(pageErrors).toEqual([]);
  });

  for (const width of [390, 1280]) {
    it(`draws each chart at its container's width with no text under 11 px, at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const charts = page.getByTestId('chart');
      // Redrawn for the new width: wait until each SVG is drawn (its viewBox, in user units) at its
      // box's width. The old drawing, merely shrunk by CSS, already matches the box on screen.
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="chart"] .plot')].every((host) => {
        const svg = host.querySelector('svg');
        return !!svg && Math.abs((svg.viewBox.baseVal?.width || 0) - host.clientWidth) <= 2;
      }), undefined, { timeout: 10_000, polling: 100 }).catch(() => undefined);
      const measured = await charts.evaluateAll((figures) => figures.map((figure) => {
        const host = figure.querySelector<HTMLElement>('.plot')!;
        const svg = host.querySelector('svg')!;
        const box = svg.getBoundingClientRect();
        // Font sizes are in the SVG's user units: scale them by how much the SVG is shrunk or grown.
        const scale = box.width / (svg.viewBox.baseVal?.width || box.width);
        const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent!.trim());
        const sizes = texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
        return { chart: figure.getAttribute('data-chart'), svg: Math.round(box.width), container: host.clientWidth, texts: texts.length, smallest: Math.min(...sizes) };
      }));
      console.log(`charts at ${width} px: ${JSON.stringify(measured)}`);
      // The run loaded last (recorded answers, one sample) has these two.
      expect(measured.map((m) => m.chart)).toEqual(['languages', 'difficulty']);
      for (const m of measured) {
        expect(Math.abs(m.svg - m.container), `${m.chart}: svg ${m.svg} px in a ${m.container} px box`).toBeLessThanOrEqual(2);
        expect(m.texts).toBeGreaterThan(5);
        expect(m.smallest, `${m.chart}: smallest text`).toBeGreaterThanOrEqual(11);
      }
      // Phone or desktop, the chart fills its card: at 1280 px it is wider than the old fixed 560 px.
      if (width === 1280) expect(Math.max(...measured.map((m) => m.svg))).toBeGreaterThan(560);
      expect(pageErrors).toEqual([]);
    });
  }

  it('does not scroll sideways at 390 px on any view, and axe finds nothing there either', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = async () => page.evaluate(() => {
      const scroller = document.scrollingElement!;
      // The widest elements that stick out, to say what to fix.
      const culprits = [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest('.table-scroll, .plot'))
        .slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}[${e.getAttribute('data-testid') ?? ''}]`);
      return { scrollWidth: scroller.scrollWidth, innerWidth, culprits };
    });
    const seen: Record<string, { scrollWidth: number; innerWidth: number; culprits: string[] }> = {};
    // Axe again at phone width: targets (WCAG 2.2 target-size) and contrast as a phone shows them.
    const atPhone: Record<string, string[]> = {};
    const overflowAndAxe = async (view: string) => {
      seen[view] = await overflow();
      atPhone[view] = await violations();
    };
    expect(await page.evaluate(() => innerWidth)).toBe(390);
    await page.getByTestId('view-evaluate').click();
    await page.getByTestId('problem-table').waitFor();
    await overflowAndAxe('evaluate');
    await page.getByTestId('model-select').selectOption('provider');
    await page.getByTestId('provider-settings').waitFor();
    await overflowAndAxe('provider and runner settings');
    await page.getByTestId('model-select').selectOption('canonical');
    await page.getByTestId('problem-row').first().click();
    await page.getByTestId('problem-detail').waitFor();
    await overflowAndAxe('problem view');
    await page.keyboard.press('Escape');
    await page.getByTestId('view-runs').click();
    await page.getByTestId('run-compare').waitFor();
    await overflowAndAxe('runs, two compared');
    await page.getByTestId('view-leaderboard').click();
    await page.getByTestId('leaderboard').waitFor();
    await overflowAndAxe('leaderboard');
    await page.getByTestId('view-evaluate').click();
    expect(Object.keys(seen)).toHaveLength(5);
    for (const [view, o] of Object.entries(seen)) expect(o.scrollWidth, `${view}: ${o.culprits.join(', ')}`).toBeLessThanOrEqual(o.innerWidth);
    expect(atPhone).toEqual(Object.fromEntries(Object.keys(seen).map((view) => [view, []])));
    expect(pageErrors).toEqual([]);
  });
});
