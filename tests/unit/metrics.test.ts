import { describe, expect, it } from 'vitest';
import { formatPass1, formatPercent, summarize } from '../../src/core/metrics';
import { problemOutcome, type AttemptResult } from '../../src/core/results';
import type { LanguageId, Outcome } from '../../src/contracts';

let n = 0;
function result(language: LanguageId, demo: Outcome | null, full: Outcome | null, verdict?: AttemptResult['verdict']): AttemptResult {
  const run = (outcome: Outcome) => ({ program: '', outcome, exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 1, runtime: 'r' });
  return {
    id: String(n), index: n++, language, difficulty: 'easy', answer: '', extractedCode: '', extraction: '',
    demo: demo && run(demo), full: full && run(full),
    verdict: verdict ?? (demo === 'PASSED' && full === 'PASSED' ? 'passed' : 'failed'), durationMs: 1,
  };
}

describe('Pass@1', () => {
  const results = [
    result('python', 'PASSED', 'PASSED'),
    result('python', 'PASSED', 'WRONG_ANSWER'),
    result('python', 'RUNTIME_ERROR', 'RUNTIME_ERROR'),
    result('javascript', 'PASSED', 'PASSED'),
    result('javascript', null, null, 'infra_error'),
    result('ruby', null, null, 'unsupported'),
  ];

  it('a problem passes only when both runs pass; its outcome is the first failing run\'s', () => {
    expect(results.map(problemOutcome)).toEqual(['PASSED', 'WRONG_ANSWER', 'RUNTIME_ERROR', 'PASSED', 'INFRA_ERROR', 'UNSUPPORTED']);
  });

  it('is a micro average that leaves out infra errors and unsupported languages', () => {
    const s = summarize(results);
    expect([s.passed, s.total, s.infraErrors, s.unsupported]).toEqual([2, 4, 1, 1]);
    expect(s.pass1).toBe(0.5);
    expect(formatPass1(s)).toBe('Pass@1: 50.0% (2/4)');
    const byLang = Object.fromEntries(s.perLanguage.map((l) => [l.language, [l.passed, l.total, l.outcomes]]));
    expect(byLang).toEqual({
      javascript: [1, 1, { PASSED: 1, INFRA_ERROR: 1 }],
      python: [1, 3, { PASSED: 1, WRONG_ANSWER: 1, RUNTIME_ERROR: 1 }],
      ruby: [0, 0, { UNSUPPORTED: 1 }],
    });
  });

  it('formats percentages with one decimal, and a dash when nothing counted', () => {
    expect(formatPercent(2 / 3)).toBe('66.7%');
    expect(formatPercent(1)).toBe('100.0%');
    expect(formatPercent(NaN)).toBe('–');
    expect(formatPass1(summarize([]))).toBe('Pass@1: – (0/0)');
  });
});
