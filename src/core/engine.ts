/**
 * The run engine: problem → answer → extracted code → spliced programs → runs → outcomes.
 * Plain data in and out; it knows nothing of the UI, the store or how a runtime works.
 */
import { AuthenticationError, FIRST_ATTEMPT, type AnswerContext, type AnswerSource, type Executor, type LanguageId, type Outcome, type PriorTurn, type Problem, type RunResult } from '../contracts';
import { extractCode, type ExtractionMode } from './extract';
import { buildFeedback, FEEDBACK_LIMIT, type FeedbackSource } from './feedback';
import { chainOver, standingTurns } from './chains';
import type { AttemptResult, TestRun } from './results';
import { judgeRun, officialTimeoutMs, precheckProgram, spliceProgram, UnsupportedSpliceError } from './rules';

export interface EvaluationOptions {
  mode?: ExtractionMode;
  /** Per-run time limit; defaults to the official one (SPEC §5). */
  timeoutMs?: (language: LanguageId) => number;
}

export interface RunOptions extends EvaluationOptions {
  concurrency?: number;
  signal?: AbortSignal;
  /** Called as each new (problem, sample, turn) finishes, in completion order. */
  onResult?: (result: AttemptResult) => void;
  /**
   * Called once per (problem, sample) chain that is over (chainOver), with its turns in order:
   * at once for a chain whose stored turns already end it, else after its last new turn. Not
   * called for a chain the run stopped in the middle of.
   */
  onChainOver?: (chain: readonly AttemptResult[]) => void;
  /** Samples per problem (default 1), numbered from 0. */
  samples?: number;
  /** Refinement turns T (default 1): a failing turn is followed by another, with execution feedback, up to T. */
  turns?: number;
  /** Which test run is fed back after a failing turn (default 'demo': the private tests never leak). */
  feedback?: FeedbackSource;
  /** Characters of test output fed back (default FEEDBACK_LIMIT). */
  feedbackChars?: number;
  /**
   * Stored results of one (problem, sample) (a continued run): the chain goes on after its
   * standing turns (chains.ts standingTurns), which are returned but not reported to onResult again.
   */
  priorTurns?: (problem: Problem, sample: number) => readonly AttemptResult[] | undefined;
}

/**
 * Evaluates one problem; never throws for the model's or the runtime's failures, except an
 * AuthenticationError, which concerns the whole run.
 */
export async function evaluateProblem(
  problem: Problem,
  model: AnswerSource,
  executor: Executor,
  options: EvaluationOptions = {},
  signal?: AbortSignal,
  context: AnswerContext = FIRST_ATTEMPT,
): Promise<AttemptResult> {
  const started = Date.now();
  const base: Pick<AttemptResult, 'id' | 'index' | 'language' | 'difficulty' | 'usage' | 'reasoning' | 'sample' | 'turn'> = {
    id: problem.id,
    index: problem.index,
    language: problem.language,
    difficulty: problem.difficulty,
    sample: context.sample,
    turn: context.turn,
  };
  const unfinished = (verdict: 'infra_error' | 'unsupported', error: string, answer: string | null = null, extractedCode = '', extraction = ''): AttemptResult => ({
    ...base, answer, extractedCode, extraction, demo: null, full: null, verdict, error, durationMs: Date.now() - started,
  });

  if (!executor.languages().includes(problem.language)) {
    return unfinished('unsupported', `no runtime for ${problem.language}`);
  }
  let answerText: string;
  let isCode = false;
  try {
    const answer = await model.answer(problem, signal, context);
    answerText = answer.text;
    isCode = Boolean(answer.isCode);
    if (answer.usage) base.usage = answer.usage;
    if (answer.reasoning) base.reasoning = answer.reasoning;
  } catch (e) {
    if (e instanceof AuthenticationError) throw e;
    return unfinished('infra_error', `answer unavailable: ${(e as Error).message}`);
  }
  const { code, how } = isCode
    ? { code: answerText, how: 'canonical solution (no extraction)' }
    : extractCode(answerText, problem.language, options.mode ?? 'compat', problem.record.canonical_solution);

  let programs: [string, string];
  try {
    programs = [
      spliceProgram(problem.language, code, problem.record.demo_test_func),
      spliceProgram(problem.language, code, problem.record.full_test_func),
    ];
  } catch (e) {
    if (e instanceof UnsupportedSpliceError) return unfinished('unsupported', e.message, answerText, code, how);
    throw e;
  }
  const timeoutMs = options.timeoutMs?.(problem.language) ?? officialTimeoutMs(problem.language);
  let runs: [TestRun, TestRun];
  try {
    // Demo and full runs go to the executor together; its pool decides how many run at once.
    // A pre-check verdict (PHP) is final: that program never reaches the executor.
    runs = (await Promise.all(
      programs.map(async (program) => {
        const early = precheckProgram(problem.language, program);
        if (early) return precheckedRun(program, early);
        const result = await executor.run({ language: problem.language, program, timeoutMs });
        if (result.declined) throw new DeclinedRun(result.declined);
        return toTestRun(problem.language, program, result);
      }),
    )) as [TestRun, TestRun];
  } catch (e) {
    // The runtime cannot judge this program faithfully (and no runner took it): unavailable, not failed.
    if (e instanceof DeclinedRun) return unfinished('unsupported', `not judged here: ${e.message}`, answerText, code, how);
    return unfinished('infra_error', `run failed: ${(e as Error).message}`, answerText, code, how);
  }
  const [demo, full] = runs;
  return {
    ...base,
    answer: answerText,
    extractedCode: code,
    extraction: how,
    demo,
    full,
    verdict: demo.outcome === 'PASSED' && full.outcome === 'PASSED' ? 'passed' : 'failed',
    durationMs: Date.now() - started,
    runMs: demo.durationMs + full.durationMs,
    waitMs: Math.max(demo.waitMs ?? 0, full.waitMs ?? 0),
  };
}

class DeclinedRun extends Error {}

function toTestRun(language: LanguageId, program: string, result: RunResult): TestRun {
  return {
    program,
    outcome: judgeRun(language, result),
    exitCode: result.exitCode,
    stdout: result.stdout,
    stderr: result.stderr,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
    ...(result.queuedMs !== undefined ? { waitMs: result.queuedMs } : {}),
    runtime: result.runtime,
    ...(result.truncated ? { truncated: true } : {}),
  };
}

/** A run decided by the language's pre-check: nothing executed, so no output and no exit code. */
function precheckedRun(program: string, outcome: Outcome): TestRun {
  return { program, outcome, exitCode: null, stdout: '', stderr: '', timedOut: false, durationMs: 0, runtime: 'pre-check' };
}

/**
 * Evaluates problems with bounded concurrency: `samples` attempts per problem, each refined for up
 * to `turns` turns. The unit of concurrency is one (problem, sample) chain, whose turns run one
 * after another; chains are handed out sample by sample (every problem's sample 0 first).
 * Returns the whole picture: each chain's standing prior turns and its new ones, ordered by
 * (problem input order, sample, turn), so callers never merge. An AuthenticationError
 * stops the run at once: requests in flight are aborted, nothing more is reported, and the
 * promise rejects with that error.
 */
export async function evaluateAll(
  problems: readonly Problem[],
  model: AnswerSource,
  executor: Executor,
  options: RunOptions = {},
): Promise<AttemptResult[]> {
  const samples = Math.max(1, Math.floor(options.samples ?? 1));
  const turns = Math.max(1, Math.floor(options.turns ?? 1));
  // Each chain starts from its standing prior turns, so even a stopped run returns them all.
  const chains: AttemptResult[][][] = problems.map((problem) =>
    Array.from({ length: samples }, (_, sample) => standingTurns(options.priorTurns?.(problem, sample) ?? [], turns)),
  );
  const units: Array<[number, number]> = [];
  for (let s = 0; s < samples; s++) {
    for (let i = 0; i < problems.length; i++) {
      if (chainOver(chains[i]![s]!.at(-1), turns)) options.onChainOver?.(chains[i]![s]!);
      else units.push([i, s]);
    }
  }
  // Each chain's first turn is a demo run and a full run: the executor's pools size themselves to it.
  const runs = new Map<LanguageId, number>();
  for (const [i] of units) runs.set(problems[i]!.language, (runs.get(problems[i]!.language) ?? 0) + 2);
  for (const [language, count] of runs) if (executor.languages().includes(language)) executor.expect?.(language, count);
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;

  const runChain = async (i: number, sample: number) => {
    const problem = problems[i]!;
    const chain = chains[i]![sample]!;
    const history: PriorTurn[] = chain.map((r) => ({
      answer: r.answer ?? '',
      feedback: r.feedback ?? buildFeedback(r, options.feedback, options.feedbackChars ?? FEEDBACK_LIMIT),
    }));
    for (let turn = chain.length + 1; turn <= turns && !signal.aborted; turn++) {
      const result = await evaluateProblem(problem, model, executor, options, signal, { sample, turn, history: [...history] });
      if (stop.signal.aborted) return;
      const more = result.verdict === 'failed' && turn < turns;
      if (more) result.feedback = buildFeedback(result, options.feedback, options.feedbackChars ?? FEEDBACK_LIMIT);
      chain.push(result);
      options.onResult?.(result);
      if (!more) return options.onChainOver?.(chain);
      history.push({ answer: result.answer ?? '', feedback: result.feedback! });
    }
  };

  let next = 0;
  const worker = async () => {
    while (next < units.length && !signal.aborted) {
      const [i, sample] = units[next++]!;
      try {
        await runChain(i, sample);
        if (stop.signal.aborted) return;
      } catch (e) {
        if (!stop.signal.aborted) stop.abort(e);
        throw e;
      }
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency ?? 2, units.length));
  // Reject as soon as the run stops, without waiting for programs still running.
  const stopped = new Promise<never>((_, reject) => stop.signal.addEventListener('abort', () => reject(stop.signal.reason), { once: true }));
  await Promise.race([Promise.all(Array.from({ length: lanes }, worker)), stopped]);
  return chains.flat(2);
}
