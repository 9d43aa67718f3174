/**
 * Shared by the clean-slate tests: runs a sequence of programs, in order, through ONE worker of one
 * language (a pool of size 1, as the CLI's executor builds it) and checks each verdict against the
 * one SPEC §4 gives for what the program does under the official `python3`/`node`/`ruby`… command.
 * The verdict is decided by src/core/rules (judgeRun), never by the test reading the output.
 */
import { expect } from 'vitest';
import type { Executor, LanguageId, Outcome, RunResult } from '../../src/contracts';
import { OUTPUT_LIMIT } from '../../runtimes/host/output';
import { judgeRun } from '../../src/core/rules';
import type { Step } from '../support/hostile/clean-slate-attacks';

export type { Step };

export const TIME_LIMIT_MS = 30_000;

/** Late output of a hostile program (a timer, an exit hook) carries this; no other program may show it. */
export const LATE = 'LATE-OUTPUT';
/** A program that prints a line or two leaves no more than this on a stream (no leftover of another run). */
const QUIET = 4_000;

/**
 * Runs `steps` one after the other in the executor's single worker for `language`; returns one
 * line per step whose outcome or output is not what it must be (empty: all good).
 */
export async function runSequence(executor: Executor, language: LanguageId, steps: readonly Step[]): Promise<string[]> {
  const problems: string[] = [];
  for (const [i, step] of steps.entries()) {
    const result: RunResult = await executor.run({ language, program: step.program, timeoutMs: TIME_LIMIT_MS });
    const outcome = judgeRun(language, result);
    const tail = `exit=${result.exitCode} stdout=${JSON.stringify(result.stdout.slice(0, 200))} stderr=${JSON.stringify(result.stderr.slice(-300))}`;
    if (outcome !== step.expected) problems.push(`#${i} ${step.name}: ${outcome}, expected ${step.expected} (${tail})`);
    // The worker must have survived: a crash would replace the runtime and prove nothing.
    if (/benchtop: the .* (worker died|runtime crashed)/.test(result.stderr)) problems.push(`#${i} ${step.name}: the worker died (${tail})`);
    if (!step.program.includes(LATE) && (result.stdout + result.stderr).includes(LATE)) {
      problems.push(`#${i} ${step.name}: shows output of an earlier program (${tail})`);
    }
    if (step.flood) {
      // Everything it printed, by whatever path, is counted against its own cap and marked.
      if (result.stdout.length + result.stderr.length > 2 * OUTPUT_LIMIT + 512 || !result.truncated) {
        problems.push(`#${i} ${step.name}: output not capped (${result.stdout.length}+${result.stderr.length} chars, truncated=${result.truncated})`);
      }
    } else if (result.stdout.length > QUIET || result.stderr.length > QUIET) {
      problems.push(`#${i} ${step.name}: ${result.stdout.length}+${result.stderr.length} chars of output (${tail})`);
    }
  }
  return problems;
}

/** Every step as it must be; with a pool of one and no step crashing its worker, all ran in one worker. */
export async function expectCleanSlate(executor: Executor, language: LanguageId, steps: readonly Step[]): Promise<void> {
  expect(await runSequence(executor, language, steps)).toEqual([]);
}
