/**
 * Stages 1–4 of one seed: solution and inputs, outputs by execution, tests (with the send-back and
 * the mutation check), problem statement. Each either returns its product or throws a Drop naming
 * the stage and the reason. Every model response and run goes through the journal first.
 */
import { AuthenticationError, type AnswerSource, type Executor, type LanguageId, type Outcome, type PriorTurn, type Problem, type RunResult } from '../contracts';
import { judgeRun, officialTimeoutMs, spliceProgram } from '../core/rules';
import { stripThinking } from '../core/extract';
import { extractParts, inputLines } from './blocks';
import { mutantBuilt, mutants, observedOutputs, outputsProgram, outputsRunOk } from './harness';
import type { GenJournal } from './journal';
import { fill, inputStyle, languageName, testStyle } from './prompts';

export const STAGES = ['solution', 'outputs', 'tests', 'statement', 'filters'] as const;
export type Stage = (typeof STAGES)[number];

export class Drop extends Error {
  constructor(readonly stage: Stage, readonly reason: string) {
    super(`${stage}: ${reason}`);
  }
}

/** The job was stopped (the page's Stop): not a verdict on the seed, which is continued later. */
export class Stopped extends Error {
  constructor() {
    super('stopped');
  }
}

/**
 * `work`, unless the job is stopped first: then Stopped at once, and what `work` gives later is
 * thrown away (a run left in the pool, a reply that raced the abort), so nothing is journalled
 * after a Stop and a continued job asks and runs it again in order.
 */
export async function unlessStopped<T>(signal: AbortSignal | undefined, work: Promise<T>): Promise<T> {
  if (!signal) return work;
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new Stopped());
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const value = await Promise.race([work, aborted]);
    if (signal.aborted) throw new Stopped();
    return value;
  } catch (e) {
    if (signal.aborted) throw new Stopped();
    throw e;
  } finally {
    signal.removeEventListener('abort', onAbort);
    aborted.catch(() => {});
  }
}

export interface GenContext {
  language: LanguageId;
  generator: AnswerSource;
  critic: AnswerSource;
  difficulty?: AnswerSource;
  executor: Executor;
  journal: GenJournal;
  samples: number;
  criticThreshold: number;
  dropAlwaysSolved: boolean;
  /** Stage 6: languages each kept problem is translated into (none: no translation). */
  translateTo?: readonly LanguageId[];
  /** The page's Stop: aborts the model requests in flight and abandons the runs (Stopped). */
  signal?: AbortSignal;
}

export interface Case {
  input: string;
  output: string;
}

/** A Problem carrying a generator prompt as its question (how the provider Model is asked). */
function promptProblem(language: LanguageId, prompt: string): Problem {
  return { id: 'gen', index: 0, line: 0, language, difficulty: '', record: { question: prompt, canonical_solution: '', demo_test_func: '', full_test_func: '', language, difficulty: '' } };
}

/** One model response, journalled; failures after the provider's retries drop the seed. */
export async function ask(ctx: GenContext, model: AnswerSource, stage: Stage, prompt: string, history: readonly PriorTurn[] = []): Promise<string> {
  try {
    return await ctx.journal.memo('ask', [model.id, prompt, history], async () => (await unlessStopped(ctx.signal, model.answer(promptProblem(ctx.language, prompt), ctx.signal, { sample: 0, turn: history.length + 1, history }))).text);
  } catch (e) {
    if (e instanceof Stopped || ctx.signal?.aborted) throw new Stopped();
    // A refused key concerns every seed: the run stops (the journal keeps what was answered).
    if (e instanceof AuthenticationError) throw e;
    throw new Drop(stage, `model unavailable: ${(e as Error).message}`);
  }
}

/** Asks for named parts; a malformed response is asked once more, then the seed is dropped. */
export async function askParts(ctx: GenContext, model: AnswerSource, stage: Stage, prompt: string, names: readonly string[], history: readonly PriorTurn[] = []): Promise<Record<string, string>> {
  let missing: string[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    const found = extractParts(await ask(ctx, model, stage, prompt, history), names);
    if ('parts' in found) return found.parts;
    missing = found.missing;
  }
  throw new Drop(stage, `malformed response (twice): missing ${missing.join(', ')}`);
}

export type JournalledRun = Pick<RunResult, 'exitCode' | 'stdout' | 'stderr' | 'timedOut' | 'durationMs' | 'runtime' | 'compileFailed' | 'compileTimedOut'> & { declined?: string };

export function runProgram(ctx: GenContext, program: string): Promise<JournalledRun> {
  const timeoutMs = officialTimeoutMs(ctx.language);
  return ctx.journal.memo('run', [ctx.language, program, timeoutMs], async () => {
    const r = await unlessStopped(ctx.signal, ctx.executor.run({ language: ctx.language, program, timeoutMs }));
    return {
      exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut, durationMs: r.durationMs, runtime: r.runtime,
      ...(r.compileFailed ? { compileFailed: true } : {}), ...(r.compileTimedOut ? { compileTimedOut: true } : {}), ...(r.declined ? { declined: r.declined } : {}),
    };
  });
}

const clip = (text: string, n = 80) => (text.length > n ? text.slice(0, n) + '…' : text);
/**
 * The line naming the error (`ZeroDivisionError: division by zero`; Go's `panic: …` or `fatal
 * error: …`, which `go test` follows with its own FAIL lines), else the last line.
 */
function errorLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return clip([...lines].reverse().find((l) => /^(\w*(Error|Exception)\b|panic: |fatal error: )/.test(l)) ?? lines.at(-1) ?? '', 200);
}
const tail = (text: string, n = 400) => (text.length > n ? '…' + text.slice(-n) : text).trim();

export interface Solved {
  solution: string;
  publicInputs: string[];
  privateInputs: string[];
}

export async function solutionStage(ctx: GenContext, seed: string): Promise<Solved> {
  const prompt = fill('solution', { LANG: languageName(ctx.language), INPUT_STYLE: inputStyle(ctx.language)!, SEED: seed });
  let problem = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const found = extractParts(await ask(ctx, ctx.generator, 'solution', prompt), ['SOLUTION', 'PUBLIC_INPUTS', 'PRIVATE_INPUTS']);
    if (!('parts' in found)) {
      problem = `missing ${found.missing.join(', ')}`;
      continue;
    }
    const publicInputs = inputLines(found.parts.PUBLIC_INPUTS!);
    const privateInputs = inputLines(found.parts.PRIVATE_INPUTS!);
    if (publicInputs.length < 1 || publicInputs.length > 3) problem = `${publicInputs.length} public inputs (1 to 3 wanted)`;
    else if (privateInputs.length < 7) problem = `${privateInputs.length} private inputs (7 or more wanted)`;
    else return { solution: found.parts.SOLUTION!, publicInputs, privateInputs };
  }
  throw new Drop('solution', `malformed response (twice): ${problem}`);
}

/** Runs the solution on every input twice; any failure or difference drops the seed. */
export async function outputsStage(ctx: GenContext, solved: Solved): Promise<{ publicCases: Case[]; privateCases: Case[] }> {
  const inputs = [...solved.publicInputs, ...solved.privateInputs];
  const program = outputsProgram(ctx.language, solved.solution, inputs);
  const runs: string[][] = [];
  let retried = false;
  for (let i = 0; i < 2; i++) {
    let r = await runProgram(ctx, program);
    if (r.declined) throw new Drop('outputs', `not runnable here: ${r.declined}`);
    // A time-out is run once more: a new in-page C++ worker's first compile runs in a cold LLVM,
    // and on a loaded machine it can pass its step's limit; a solution that loops forever times out again.
    if ((r.timedOut || r.compileTimedOut) && !retried) {
      retried = true;
      r = await runProgram(ctx, program);
    }
    // The time says whether it was the program or a slow machine.
    if (r.timedOut || r.compileTimedOut) throw new Drop('outputs', `the solution timed out (${(r.durationMs / 1000).toFixed(1)} s, limit ${officialTimeoutMs(ctx.language) / 1000} s)`);
    if (r.compileFailed) throw new Drop('outputs', `the solution did not compile: ${errorLine(r.stderr || r.stdout)}`);
    if (!outputsRunOk(ctx.language, r)) throw new Drop('outputs', `the solution crashed (exit ${r.exitCode}): ${errorLine(r.stderr || r.stdout)}`);
    const outputs = observedOutputs(r.stdout);
    if (outputs.length !== inputs.length) throw new Drop('outputs', `the solution printed ${outputs.length} outputs for ${inputs.length} inputs`);
    runs.push(outputs);
  }
  const differs = runs[0]!.findIndex((o, i) => o !== runs[1]![i]);
  if (differs !== -1) throw new Drop('outputs', `non-deterministic: input ${clip(inputs[differs]!)} gave ${clip(runs[0]![differs]!)} then ${clip(runs[1]![differs]!)}`);
  const cases = inputs.map((input, i) => ({ input, output: runs[0]![i]! }));
  return { publicCases: cases.slice(0, solved.publicInputs.length), privateCases: cases.slice(solved.publicInputs.length) };
}

async function testOutcome(ctx: GenContext, solution: string, tests: string): Promise<{ outcome: Outcome; output: string }> {
  const program = spliceProgram(ctx.language, solution, tests);
  const r = await runProgram(ctx, program);
  if (r.declined) throw new Drop('tests', `not runnable here: ${r.declined}`);
  return { outcome: judgeRun(ctx.language, r), output: tail(`${r.stdout}\n${r.stderr}`, 1500) };
}

const caseLines = (cases: readonly Case[]) => cases.map((c) => `${c.input} => ${c.output}`).join('\n');

export interface Tested {
  demo: string;
  full: string;
  /** Mutants tried until one was caught (caught is 1), or all of them (caught 0 drops the seed). */
  mutants: { tried: number; caught: number };
}

export async function testsStage(ctx: GenContext, solution: string, cases: { publicCases: Case[]; privateCases: Case[] }): Promise<Tested> {
  const prompt = fill('tests', { LANG: languageName(ctx.language), SOLUTION: solution, PUBLIC: caseLines(cases.publicCases), PRIVATE: caseLines(cases.privateCases), TEST_STYLE: testStyle(ctx.language)! });
  const history: PriorTurn[] = [];
  let parts: Record<string, string> | undefined;
  for (let round = 0; round < 2; round++) {
    const answerText = await ask(ctx, ctx.generator, 'tests', prompt, history);
    const found = extractParts(answerText, ['DEMO_TEST', 'FULL_TEST']);
    if (!('parts' in found)) {
      // Malformed: asked once more as it was (occurrence 2 of the same question).
      const again = extractParts(await ask(ctx, ctx.generator, 'tests', prompt, history), ['DEMO_TEST', 'FULL_TEST']);
      if (!('parts' in again)) throw new Drop('tests', `malformed response (twice): missing ${again.missing.join(', ')}`);
      parts = again.parts;
    } else {
      parts = found.parts;
    }
    const failing = await failingTests(ctx, solution, parts.DEMO_TEST!, parts.FULL_TEST!);
    if (!failing) break;
    if (round === 1) throw new Drop('tests', `the ${failing.which} tests fail against their own solution after one send-back: ${failing.outcome}`);
    history.push({ answer: answerText, feedback: fill('testsRetry', { OUTPUT: `${failing.which} tests: ${failing.outcome}\n${failing.output}` }) });
  }
  return { demo: parts!.DEMO_TEST!, full: parts!.FULL_TEST!, mutants: await mutationCheck(ctx, solution, parts!.FULL_TEST!) };
}

/** Which of the two test programs fails against the solution (null: both pass). */
export async function failingTests(ctx: GenContext, solution: string, demoTests: string, fullTests: string): Promise<{ which: 'public' | 'private'; outcome: Outcome; output: string } | null> {
  const demo = await testOutcome(ctx, solution, demoTests);
  if (demo.outcome !== 'PASSED') return { which: 'public', ...demo };
  const full = await testOutcome(ctx, solution, fullTests);
  return full.outcome !== 'PASSED' ? { which: 'private', ...full } : null;
}

/**
 * The mutation check: the full tests must fail at least one mutant of the solution. A mutant that
 * does not build (C++, Go) is skipped, neither caught nor passed.
 */
export async function mutationCheck(ctx: GenContext, solution: string, fullTests: string): Promise<Tested['mutants']> {
  const candidates = mutants(solution);
  if (!candidates.length) throw new Drop('tests', 'no mutant could be made of the solution (no comparison or integer constant)');
  // One caught mutant is enough: stop there (each mutant costs a run).
  let tried = 0;
  let built = 0;
  for (const mutant of candidates) {
    tried++;
    const program = spliceProgram(ctx.language, mutant, fullTests);
    const r = await runProgram(ctx, program);
    if (r.declined) throw new Drop('tests', `not runnable here: ${r.declined}`);
    if (!mutantBuilt(ctx.language, r)) continue;
    built++;
    if (judgeRun(ctx.language, r) !== 'PASSED') return { tried, caught: 1 };
  }
  if (!built) throw new Drop('tests', `none of the ${candidates.length} mutants of the solution builds`);
  throw new Drop('tests', `the tests are too weak: they pass all ${built === candidates.length ? candidates.length : `${built} building`} mutants of the solution`);
}

export async function statementStage(ctx: GenContext, solution: string, demo: string): Promise<string> {
  const prompt = fill('statement', { LANG: languageName(ctx.language), SOLUTION: solution, DEMO: demo });
  for (let attempt = 0; attempt < 2; attempt++) {
    const text = stripThinking(await ask(ctx, ctx.generator, 'statement', prompt)).replace(/\r\n/g, '\n');
    // Prose with its own example blocks: everything after the heading, or the whole text without one.
    const heading = /^[#*\s]*QUESTION[*:\s]*$/m.exec(text);
    const question = (heading ? text.slice(heading.index + heading[0].length) : text).trim();
    if (question.length >= 20) return question;
  }
  throw new Drop('statement', 'malformed response (twice): no problem statement');
}
