/**
 * Records that repeat a question, in the built app in headless Chromium (issue #19): the dataset
 * panel reports them with the keep-all / keep-first choice, a run counts each record once, and a
 * run stored by the earlier page (copies under one id) opens, says its figures were wrong, and
 * continues. Needs `dist/` (`npm run build`); Debian's Chromium, no download.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { problemId } from '../../src/core/ids';
import { parseDataset } from '../../src/core/records';
import { useChromium } from '../support/e2e';

const root = fileURLToPath(new URL('../../', import.meta.url));
const base = parseDataset(readFileSync(`${root}bench-data/demo.jsonl`, 'utf8')).problems.find((p) => p.language === 'javascript')!;
const { output: _o, ...plain } = base.record;
/** The reference solution, as a model would answer: it passes. No code: it fails. */
const good = { ...plain, output: `\`\`\`javascript\n${base.record.canonical_solution}\n\`\`\`` };
const bad = { ...plain, output: 'I cannot solve this.' };
const X = problemId('javascript', base.record.question);
const jsonl = (records: object[]) => Buffer.from(records.map((r) => JSON.stringify(r) + '\n').join(''));

describe('repeated questions in Chromium', () => {
  const chromium = useChromium();
  let page: Page;
  const pageErrors: string[] = [];
  beforeAll(async () => ({ page } = await chromium.openApp({ viewport: { width: 1440, height: 900 }, pageErrors })));

  /**
   * Clicks `button`, waits until the stored run `which` (the newest run by default) is done and
   * the page shows it done (the previous run's progress also reads done), returns the Pass@1 line.
   */
  async function runAndRead(button: () => Promise<void>, which?: string): Promise<string> {
    const before = (await storedRuns()).length;
    await button();
    const deadline = Date.now() + 120_000;
    for (;;) {
      const runs = await storedRuns();
      const run = which ? runs.find((r) => r.id === which) : runs.length > before ? runs[0] : undefined;
      if (run?.state === 'done') break;
      if (Date.now() > deadline) throw new Error(`run ${which ?? 'new'} did not finish: ${JSON.stringify(run?.state)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await page.locator('[data-testid="progress"][data-state="done"]').waitFor({ timeout: 30_000 });
    return (await page.getByTestId('pass1').textContent())!;
  }

  /** Runs what is selected with the dataset's own answers. */
  async function runOutputs(): Promise<string> {
    await page.getByTestId('model-select').selectOption({ label: 'Answers in the dataset (output field)' });
    return runAndRead(() => page.getByTestId('run-button').click());
  }

  /** The page's stored runs, newest first (read straight from IndexedDB). */
  const storedRuns = () => page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('benchtop');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const runs = await new Promise<Array<Record<string, unknown>>>((resolve, reject) => {
      const r = db.transaction('runs').objectStore('runs').getAll();
      r.onsuccess = () => resolve(r.result as Array<Record<string, unknown>>);
      r.onerror = () => reject(r.error);
    });
    db.close();
    return runs.sort((a, b) => (b.createdAt as number) - (a.createdAt as number));
  });

  it('reports the repeated question with the choice; keep-all counts each record once, keep-first the first copy', { timeout: 300_000 }, async () => {
    await page.getByTestId('dataset-file').setInputFiles({ name: 'three.jsonl', mimeType: 'text/plain', buffer: jsonl([good, bad, good]) });
    await page.getByTestId('dataset-duplicates').waitFor();
    expect(await page.getByTestId('duplicates-report').textContent()).toBe('1 question appears more than once: lines 1, 2 and 3.');
    expect(await page.getByTestId('duplicates-keep-all').isChecked()).toBe(true);
    expect(await page.getByTestId('dataset-count').textContent()).toBe('3 problems');

    expect(await runOutputs()).toBe('Pass@1: 66.7% (2/3)');
    expect(await page.getByTestId('problem-row').count()).toBe(3);
    const all = (await storedRuns())[0]!;
    expect(all.duplicates).toEqual({ choice: 'keep-all', questions: 1, dropped: 0 });
    expect(all.counts).toMatchObject({ evaluated: 3, counted: 3, passed: 2 });

    await page.getByTestId('duplicates-keep-first').check();
    expect(await page.getByTestId('run-button').textContent()).toContain('Run 1 problem');
    expect(await runOutputs()).toBe('Pass@1: 100.0% (1/1)');
    expect((await storedRuns())[0]!.duplicates).toEqual({ choice: 'keep-first', questions: 1, dropped: 2 });
    await page.getByTestId('duplicates-keep-all').check();

    // An answers file in the official format (no ids): its copies are matched in order, each to its own.
    await page.getByTestId('answers-file').setInputFiles({ name: 'answers.jsonl', mimeType: 'text/plain', buffer: jsonl([bad, bad, good]) });
    // The file is read asynchronously; the source switches once it has been parsed.
    await expect.poll(() => page.getByTestId('model-select').inputValue()).toBe('answers-file');
    expect(await runAndRead(() => page.getByTestId('run-button').click())).toBe('Pass@1: 33.3% (1/3)');
  });

  it('two records claiming one id: the load is refused, naming both lines', async () => {
    await page.getByTestId('dataset-file').setInputFiles({ name: 'clash.jsonl', mimeType: 'text/plain', buffer: jsonl([{ ...good, id: 'p1' }, { ...bad, question: 'Other', id: 'p2' }, { ...bad, task_id: 'p1' }]) });
    await page.getByTestId('dataset-error').waitFor();
    expect(await page.getByTestId('dataset-error').textContent()).toContain('duplicate id "p1": lines 1 and 3 both carry it');
  });

  it('a run stored by the earlier page (both copies under one id) opens, says its figures were wrong, and continues', { timeout: 300_000 }, async () => {
    // As the earlier page stored it: both copies with the content id, the first one's result.
    const old = parseDataset(jsonl([good, bad]).toString()).problems.map((p) => ({ ...p, id: X }));
    const run = {
      id: 'legacy-run', modelId: 'replay', modelLabel: 'Answers in the dataset', source: { kind: 'dataset-output' }, datasetName: 'two.jsonl', datasetSource: 'two.jsonl',
      mode: 'compat', timeLimitSeconds: null, concurrency: 2, problemCount: 2, languages: ['javascript'], createdAt: 1, startedAt: 1, finishedAt: 2, state: 'stopped', error: null,
      counts: { evaluated: 1, counted: 1, passed: 1, infraErrors: 0, unsupported: 0, inputTokens: 0, outputTokens: 0, reasoningTokens: 0 },
    };
    const result = {
      id: X, index: 0, language: 'javascript', difficulty: old[0]!.difficulty, answer: good.output, extractedCode: base.record.canonical_solution, extraction: 'stored',
      demo: null, full: null, verdict: 'passed', durationMs: 5,
    };
    await page.evaluate(async ({ run, problems, result }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open('benchtop');
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      const tx = db.transaction(['runs', 'problems', 'results'], 'readwrite');
      tx.objectStore('runs').put(run);
      tx.objectStore('problems').put({ runId: run.id, problems });
      tx.objectStore('results').put({ runId: run.id, problemId: result.id, result });
      await new Promise((resolve, reject) => ((tx.oncomplete = resolve), (tx.onerror = () => reject(tx.error))));
      db.close();
    }, { run, problems: old, result });
    await page.reload();
    await page.getByTestId('run-button').waitFor();

    await page.getByTestId('view-runs').click();
    const row = page.locator('[data-testid="run-row"][data-run="legacy-run"]');
    await row.getByTestId('run-open').click();
    await page.getByTestId('run-id-note').waitFor();
    expect(await page.getByTestId('run-id-note').textContent()).toBe(
      'Stored before records that repeat a question got ids of their own: 1 id was shared by several records, so one stored result stood for all their copies and the figures stored then were wrong. '
        + 'The later copy now has its own id and no result yet: continue the run to evaluate it.',
    );
    expect(await page.getByTestId('pass1').textContent()).toBe('Pass@1: 100.0% (1/1)');

    await page.getByTestId('view-runs').click();
    // The renamed copy is evaluated with its own answer; the first keeps its stored result.
    expect(await runAndRead(() => row.getByTestId('run-continue').click(), 'legacy-run')).toBe('Pass@1: 50.0% (1/2)');
    expect(await page.getByTestId('run-id-note').textContent()).toMatch(/The later copy now has its own id, and a result\.$/);
    const stored = (await storedRuns()).find((r) => r.id === 'legacy-run')!;
    expect(stored.counts).toMatchObject({ evaluated: 2, counted: 2, passed: 1 });
    expect(pageErrors).toEqual([]);
  });
});
