/**
 * Execution feedback for multi-turn refinement: after a failing turn the model is shown what its
 * code did, and answers again. By default only the public (demo) test run is shown, so the
 * private tests never leak into the conversation; `full` also shows the private test run.
 */
import type { AttemptResult, TestRun } from './results';

export type FeedbackSource = 'demo' | 'full';

/** Characters of test output fed back (head and tail kept). */
export const FEEDBACK_LIMIT = 2000;

/** At most `max` characters: the head and the tail, with a marker saying how much was cut between them. */
export function clipMiddle(text: string, max: number = FEEDBACK_LIMIT): string {
  if (text.length <= max) return text;
  const cut = text.length - max;
  const head = Math.ceil(max / 2);
  const tail = max - head;
  return `${text.slice(0, head)}\n… [${cut} characters cut] …\n${tail > 0 ? text.slice(text.length - tail) : ''}`;
}

function describe(run: TestRun): string {
  if (run.timedOut || run.outcome === 'TIME_LIMIT_EXCEEDED') return `${run.outcome} (stopped at the time limit)`;
  return run.exitCode === null ? run.outcome : `${run.outcome} (exit code ${run.exitCode})`;
}

function outputOf(run: TestRun): string {
  const parts: string[] = [];
  if (run.stdout.trim()) parts.push(run.stdout.trimEnd());
  if (run.stderr.trim()) parts.push(run.stderr.trimEnd());
  return parts.join('\n');
}

const ASK = 'Fix the code and give the complete corrected solution in a single Markdown code block.';

/**
 * The user message that follows a failing turn. `source` 'demo' shows the public test run only;
 * if that run passed and the private one failed, the model learns just that (no private output).
 */
export function buildFeedback(result: AttemptResult, source: FeedbackSource = 'demo', max: number = FEEDBACK_LIMIT): string {
  const lines: string[] = [];
  if (!result.extractedCode.trim()) lines.push('No code was found in your answer.');
  const demo = result.demo;
  const full = result.full;
  let shown: { run: TestRun; name: string } | undefined;
  if (demo && demo.outcome !== 'PASSED') shown = { run: demo, name: 'the public tests' };
  else if (source === 'full' && full && full.outcome !== 'PASSED') shown = { run: full, name: 'the full tests' };
  if (shown) {
    lines.push(`Your code did not pass ${shown.name}: ${describe(shown.run)}.`);
    const output = outputOf(shown.run);
    lines.push('', output ? `Test output${output.length > max ? ` (${max} of ${output.length} characters)` : ''}:\n\`\`\`\n${clipMiddle(output, max)}\n\`\`\`` : 'The test run printed nothing.');
  } else if (demo && full && full.outcome !== 'PASSED') {
    lines.push('Your code passed the public tests but failed the hidden tests.');
  } else if (!lines.length) {
    lines.push('Your code did not pass the tests.');
  }
  lines.push('', ASK);
  return lines.join('\n');
}
