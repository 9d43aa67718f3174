/** One sentence on why a run got its outcome, following the order of SPEC §4. */
import { LANGUAGE_NAMES } from '../../contracts';
import type { AttemptResult, TestRun } from '../../core/results';
import { languageRule } from '../../core/rules';
import { formatDuration } from './format';

export function explainRun(result: AttemptResult, run: TestRun): string {
  switch (run.outcome) {
    case 'PASSED':
      return 'exit code 0 and no error marker in the output';
    case 'TIME_LIMIT_EXCEEDED':
      return `still running when the time limit ended (${formatDuration(run.durationMs)})`;
    case 'COMPILATION_ERROR':
      return 'the compile step failed';
    case 'SYNTAX_ERROR':
      return 'the PHP pre-check rejected the program';
    case 'WRONG_ANSWER': {
      const output = run.stdout + run.stderr;
      const marker = languageRule(result.language).errorSubstrings.find((s) => output.includes(s));
      return marker
        ? `exit code 0, but the output contains "${marker}", an error marker for ${LANGUAGE_NAMES[result.language]}`
        : 'the tests reported a failure';
    }
    case 'RUNTIME_ERROR':
      // The exit code is checked before any error marker (SPEC §4, corrected 2026-12-01).
      return run.exitCode === null ? 'the program was ended without an exit code' : `non-zero exit code ${run.exitCode}`;
    default:
      return '';
  }
}

/** The headline of the detail view: which run decided the outcome, and why. */
export function explainResult(result: AttemptResult): { passed: boolean; text: string } {
  if (result.verdict === 'infra_error') return { passed: false, text: `Not counted: ${result.error ?? 'infrastructure error'}` };
  if (result.verdict === 'unsupported') return { passed: false, text: `Not run: ${result.error ?? 'no runtime for this language'}` };
  if (!result.extractedCode.trim()) {
    const failed = result.demo ?? result.full;
    return { passed: false, text: `No code was extracted from the answer${failed ? `; the demo tests ended ${failed.outcome}` : ''}.` };
  }
  for (const [name, run] of [['Demo tests', result.demo], ['Full tests', result.full]] as const) {
    if (run && run.outcome !== 'PASSED') return { passed: false, text: `${name} ended ${run.outcome}: ${explainRun(result, run)}.` };
  }
  return { passed: true, text: 'Demo and full tests both PASSED.' };
}
