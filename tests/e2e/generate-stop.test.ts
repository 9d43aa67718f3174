/**
 * The Generate tab's Stop, in Chromium (built app, dist/) against the real local mock model server
 * (tests/support/gen-mock-provider.ts, replies held 500 ms so a question is in flight): Stop aborts
 * the request in flight, asks nothing more, stores the job as stopped with every answer received
 * so far; Continue asks no answered question again and the set evaluates at 100% with the
 * canonical solutions (SPEC §5: each canonical solution passes its own tests). The job's critic is
 * on Anthropic and its difficulty model on Gemini (the mock speaks both), each with its own key,
 * before the Stop and after the Continue.
 *
 * Needs `dist/` (npm test builds it). Uses Debian's Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPass1, runAndWait } from '../../src/bench/app-page';
import { useChromium } from '../support/e2e';
import { openGenerateTab, readStoredGen, seedCodes, pasteSeeds } from '../support/gen-page';
import { startGenMock, type GenMock } from '../support/gen-mock-provider';

const SEEDS = seedCodes('python').slice(0, 2);
const GEN_TIMEOUT = 240_000;

describe('Stop in the Generate tab', () => {
  const chromium = useChromium();
  let mock: GenMock;
  let page: Page;
  const pageErrors: string[] = [];

  /** The tab's stored jobs' states and journalled questions (IndexedDB `benchtop-generate`). */
  const stored = async () => {
    const { jobs, entries } = await readStoredGen(page);
    return { states: jobs.map((j) => j.state), asks: entries.filter((e) => e.type === 'ask').length };
  };
  /** Bodies the mock answered (not given up by the page), as a multiset count. */
  const answered = () => mock.bodies.filter((_, i) => !mock.aborted.has(i));

  beforeAll(async () => {
    mock = await startGenMock();
    page = await openGenerateTab(chromium, mock, { pageErrors });
  });

  afterAll(() => mock?.close());

  it('Stop ends the requests in flight and keeps what was answered; Continue asks nothing twice, each model on its own provider, and the set evaluates at 100%', { timeout: 420_000 }, async () => {
    await page.getByTestId('view-generate').click();
    await pasteSeeds(page, SEEDS);
    await page.getByTestId('gen-language').selectOption('python');
    await page.getByTestId('gen-concurrency').fill('1');
    await page.getByTestId('gen-difficulty-model').fill('mock-small');
    await page.getByTestId('gen-samples').fill('2');
    await page.getByTestId('gen-critic-model').fill('mock-critic');
    await page.getByTestId('gen-critic-provider').selectOption('anthropic');
    await page.getByTestId('gen-critic-base-url').fill(mock.baseUrls.anthropic);
    await page.getByTestId('gen-critic-key').fill('sk-ant-page');
    await page.getByTestId('gen-difficulty-provider').selectOption('gemini');
    await page.getByTestId('gen-difficulty-base-url').fill(mock.baseUrls.gemini);
    await page.getByTestId('gen-difficulty-key').fill('gm-page');
    await page.getByTestId('provider-key').fill('sk-gen-stop-test');
    mock.setDelay(500);
    await page.getByTestId('gen-start').click();

    // Stop while a question is in flight, a few answers in.
    await expect.poll(() => mock.bodies.length >= 3 && mock.pending() === 1, { timeout: GEN_TIMEOUT, interval: 20 }).toBe(true);
    const inFlight = mock.bodies.length - 1;
    await page.getByTestId('gen-stop').click();
    await page.locator('[data-testid="gen-funnel"][data-state="stopped"]').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('gen-status').textContent()).toContain('stopped: every answer and run so far is stored');
    expect(await page.getByTestId('gen-stop').count()).toBe(0);
    // The fetch in flight was aborted (the server saw its client go), and nothing more is asked.
    await expect.poll(() => mock.aborted.has(inFlight)).toBe(true);
    const atStop = mock.bodies.length;
    await page.waitForTimeout(1500);
    expect(mock.bodies.length).toBe(atStop);
    expect(mock.pending()).toBe(0);
    // Stored as stopped, every answer received journalled (and none of the aborted ones).
    const before = await stored();
    expect(before.states).toEqual(['stopped']);
    expect(before.asks).toBe(answered().length);
    expect(await page.getByTestId('gen-step-kept').getAttribute('data-count')).not.toBe('2');

    mock.setDelay(0);
    const answeredBefore = new Set(answered());
    await page.getByTestId('gen-continue').click();
    await page.locator('[data-testid="gen-funnel"][data-state="done"]').waitFor({ timeout: GEN_TIMEOUT });
    expect(await page.getByTestId('gen-error').allTextContents()).toEqual([]);
    expect(await page.getByTestId('gen-step-kept').getAttribute('data-count')).toBe('2');
    const after = mock.bodies.slice(atStop);
    // No question answered before the Stop is asked again (the difficulty model's two samples
    // aside: distinct questions with one text); the aborted one is asked again.
    expect(after.filter((b) => answeredBefore.has(b) && !b.includes('You are an expert programmer'))).toEqual([]);
    expect(after.filter((b) => b === mock.bodies[inFlight]).length).toBeGreaterThanOrEqual(1);
    expect(mock.stages).not.toContain('error');
    // Each model on its provider with its key: the critic once per problem, the difficulty model twice.
    const asked = (stage: string) => mock.stages.flatMap((st, i) => (st === stage && !mock.aborted.has(i) ? [`${mock.kinds[i]} ${mock.keys[i]}`] : []));
    expect(asked('critic')).toEqual(['anthropic sk-ant-page', 'anthropic sk-ant-page']);
    expect(asked('difficulty')).toEqual(Array(4).fill('gemini gm-page'));
    expect(new Set(asked('solution').concat(asked('tests'), asked('statement')))).toEqual(new Set(['openai sk-gen-stop-test']));
    const done = await stored();
    expect(done.states).toEqual(['done']);
    expect(done.asks).toBe(answered().length);

    await page.getByTestId('gen-evaluate').click();
    await page.getByTestId('run-button').waitFor();
    await expect.poll(() => page.getByTestId('selected-count').textContent()).toContain('2 of 2');
    await page.getByTestId('model-select').selectOption('canonical');
    await runAndWait(page, { timeout: GEN_TIMEOUT });
    expect(await readPass1(page)).toBe('Pass@1: 100.0% (2/2)');
    expect(pageErrors).toEqual([]);
  });
});
