/**
 * Comparing two runs on their shared problems (src/app/lib/compare.ts) and the leaderboard's
 * "≈" (src/app/lib/leaderboard.ts): exact McNemar p-values computed by hand.
 */
import { describe, expect, it } from 'vitest';
import { compareResults, formatPaired, pairedRuns } from '../../src/app/lib/compare';
import { buildLeaderboard } from '../../src/app/lib/leaderboard';
import type { LanguageId } from '../../src/contracts';
import type { AttemptResult, Verdict } from '../../src/core/results';
import { emptyCounts, type RunRecord } from '../../src/store/types';

const res = (id: string, language: LanguageId, verdict: Verdict): AttemptResult => ({
  id, index: 0, language, difficulty: 'easy', answer: null, extractedCode: '', extraction: '', demo: null, full: null, verdict, durationMs: 1,
});
/** `pattern` is one character per problem: P passed, F failed, I infra error, - absent. */
const run = (pattern: string, language: LanguageId = 'python', prefix = 'p'): AttemptResult[] =>
  [...pattern].flatMap((c, i) => (c === '-' ? [] : [res(`${prefix}${i}`, language, c === 'P' ? 'passed' : c === 'F' ? 'failed' : 'infra_error')]));

describe('paired comparison', () => {
  it('uses only the problems both runs counted', () => {
    // Shared counted: 0–7 (8 problems; 8 infra in A, 9 absent in B). Only B passes 1–4; only A passes 7.
    const a = run('PFFFFFFPI-');
    const b = run('PPPPPFFFP');
    const d = pairedRuns(a, b);
    expect(d).toMatchObject({ shared: 8, onlyA: 1, onlyB: 4 });
    // 2·(1 + 5)/32
    expect(d.pValue).toBeCloseTo(12 / 32, 12);
    expect(d.significant).toBe(false);
    // 3/8 ± 1.96·√(5 − 3²/8)/8 = 0.375 ± 0.4823
    expect(formatPaired(d)).toBe('+37.5 pp (−10.7 to +85.7) p = 0.38');
  });

  it('overall and per language; ten problems fixed and none broken is significant (p = 2/1024)', () => {
    const a = [...run('FFFFFFFFFFPP', 'python'), ...run('PF', 'ruby', 'r')];
    const b = [...run('PPPPPPPPPPPP', 'python'), ...run('FP', 'ruby', 'r')];
    const c = compareResults(a, b);
    expect(c.overall.paired).toMatchObject({ shared: 14, onlyA: 1, onlyB: 11 });
    expect(c.languages.find((l) => l.language === 'python')!.paired.pValue).toBeCloseTo(2 / 1024, 12);
    expect(c.languages.find((l) => l.language === 'python')!.paired.significant).toBe(true);
    expect(c.languages.find((l) => l.language === 'ruby')!.paired).toMatchObject({ shared: 2, significant: false, pValue: 1 });
  });
});

describe('leaderboard: a figure not significantly below the best', () => {
  const record = (id: string, createdAt: number): RunRecord => ({
    id, modelId: id, modelLabel: id, source: { kind: 'canonical' }, datasetName: 'd', datasetSource: 'd', mode: 'compat', timeLimitSeconds: null,
    concurrency: 1, problemCount: 12, languages: ['python'], createdAt, startedAt: createdAt, finishedAt: createdAt, state: 'done', error: null, counts: emptyCounts(),
  });
  it('compares each row with the best on shared problems', () => {
    const best = { run: record('best', 3), results: run('PPPPPPPPPPPP') };
    const close = { run: record('close', 2), results: run('PPPPPPPPPPFF') }; // 2 discordant: p = 0.5
    const far = { run: record('far', 1), results: run('FFFFFFFFFFPP') }; // 10 discordant, all one way: p = 2/1024
    const board = buildLeaderboard([best, close, far], 'd');
    expect(board.best.overall).toEqual(['best']);
    expect(board.versusBest.overall!.close).toMatchObject({ shared: 12, significant: false, pValue: 0.5 });
    expect(board.versusBest.overall!.far!.pValue).toBeCloseTo(2 / 1024, 12);
    expect(board.versusBest.overall!.far!.significant).toBe(true);
    expect(board.versusBest.overall!.best).toBeUndefined();
  });
});
