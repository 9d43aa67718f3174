/**
 * Stage 5, the filters of one problem: the critic's score and category, and the difficulty label
 * from a second model answering k times through the normal evaluation path (src/core/engine).
 * Near-duplicate questions are found across problems (nearDuplicate), in seed order.
 */
import type { AnswerSource, BenchRecord, Executor, Problem, RunRequest } from '../contracts';
import { evaluateProblem } from '../core/engine';
import { problemId } from '../core/ids';
import { ask, Drop, Stopped, unlessStopped, type GenContext } from './stages';
import { CATEGORIES, fill, languageName } from './prompts';

export interface Review {
  score: number;
  category: string;
}

export async function criticFilter(ctx: GenContext, question: string, full: string): Promise<Review> {
  const prompt = fill('critic', { LANG: languageName(ctx.language), QUESTION: question, FULL: full });
  let review: Review | undefined;
  for (let attempt = 0; attempt < 2 && !review; attempt++) {
    const text = await ask(ctx, ctx.critic, 'filters', prompt);
    const score = /SCORE\W{0,4}(\d+(?:\.\d+)?)/i.exec(text);
    const category = /CATEGORY\W{0,4}([a-z-]+)/i.exec(text);
    if (score && Number(score[1]) <= 10) {
      const named = category?.[1]?.toLowerCase();
      review = { score: Number(score[1]), category: CATEGORIES.includes(named as never) ? named! : 'other' };
    }
  }
  if (!review) throw new Drop('filters', 'malformed critic response (twice): no SCORE line');
  if (review.score < ctx.criticThreshold) throw new Drop('filters', `critic score ${review.score} below ${ctx.criticThreshold}`);
  return review;
}

/** The paper's labels from k answers: none solved → hard, 1–5 → medium, more → easy. */
export function difficultyLabel(passes: number): 'easy' | 'medium' | 'hard' {
  return passes === 0 ? 'hard' : passes <= 5 ? 'medium' : 'easy';
}

/** The difficulty model's k answers, each judged as `npm run eval` would, all journalled. */
export async function difficultyFilter(ctx: GenContext, record: BenchRecord): Promise<{ passes: number; label: 'easy' | 'medium' | 'hard' }> {
  const model = ctx.difficulty!;
  const problem: Problem = { id: problemId(ctx.language, record.question), index: 0, line: 0, language: ctx.language, difficulty: record.difficulty, record };
  const journalled: AnswerSource = {
    id: model.id,
    answer: (p, signal, context) => ctx.journal.memo('ask', [model.id, 'difficulty', p.record.question, context?.sample ?? 0], () => unlessStopped(ctx.signal, model.answer(p, signal, context))),
  };
  const executor: Executor = {
    languages: () => ctx.executor.languages(),
    run: (request: RunRequest) => ctx.journal.memo('run', [request.language, request.program, request.timeoutMs], () => unlessStopped(ctx.signal, ctx.executor.run(request))),
    dispose: async () => {},
  };
  let passes = 0;
  for (let sample = 0; sample < ctx.samples; sample++) {
    const result = await evaluateProblem(problem, journalled, executor, {}, ctx.signal, { sample, turn: 1, history: [] });
    // A stopped job's sample is no verdict (the engine reports the aborted answer as an error).
    if (ctx.signal?.aborted) throw new Stopped();
    if (result.verdict === 'infra_error' || result.verdict === 'unsupported') throw new Drop('filters', `difficulty check could not run: ${result.error}`);
    if (result.verdict === 'passed') passes++;
  }
  if (ctx.dropAlwaysSolved && passes === ctx.samples) throw new Drop('filters', `always solved: the difficulty model passed ${passes} of ${ctx.samples}`);
  return { passes, label: difficultyLabel(passes) };
}

const words = (text: string) => new Set(text.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean));

/** Jaccard similarity of the questions' word sets; at or above the threshold is a near duplicate. */
export function nearDuplicate(question: string, earlier: readonly string[], threshold = 0.9): number {
  const a = words(question);
  return earlier.findIndex((q) => {
    const b = words(q);
    let shared = 0;
    for (const w of a) if (b.has(w)) shared++;
    return shared / (a.size + b.size - shared || 1) >= threshold;
  });
}
