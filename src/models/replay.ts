/** Recorded answers: the official re-scoring flow. */
import { AnswerUnavailableError, type AnswerContext, type AnswerSource, type Problem } from '../contracts';

/** Uses each record's own `output` field as the model answer. */
export const replayOwnOutputModel: AnswerSource = {
  id: 'replay',
  async answer(problem, _signal, context) {
    // One recorded answer per record: sample 0 only; later turns repeat it.
    if ((context?.sample ?? 0) > 0) throw new AnswerUnavailableError(`problem ${problem.id} (line ${problem.line}) holds one recorded answer, not sample ${context!.sample}`);
    const output = problem.record.output;
    if (typeof output !== 'string') throw new AnswerUnavailableError(`problem ${problem.id} (line ${problem.line}) has no "output" field`);
    return { text: output };
  },
};

export interface RecordedAnswer {
  id?: string;
  output: string;
  /** 0-based sample (absent: 0). */
  sample?: number;
  /** 1-based refinement turn (absent: 1). */
  turn?: number;
}

const wholeAtLeast = (v: unknown, min: number) => typeof v === 'number' && Number.isInteger(v) && v >= min;

/**
 * Parses an answers JSONL: objects with `output` and, optionally, `id`, `sample` (0-based) and
 * `turn` (1-based). Other fields (`expected`, `note`, …) are ignored.
 */
export function parseAnswers(text: string): { answers: RecordedAnswer[]; errors: string[] } {
  const answers: RecordedAnswer[] = [];
  const errors: string[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    try {
      const obj = JSON.parse(raw) as { id?: unknown; output?: unknown; sample?: unknown; turn?: unknown };
      if (typeof obj.output !== 'string') errors.push(`line ${i + 1}: no "output" text`);
      else if (obj.sample !== undefined && !wholeAtLeast(obj.sample, 0)) errors.push(`line ${i + 1}: "sample" must be a whole number from 0`);
      else if (obj.turn !== undefined && !wholeAtLeast(obj.turn, 1)) errors.push(`line ${i + 1}: "turn" must be a whole number from 1`);
      else {
        answers.push({
          output: obj.output,
          id: typeof obj.id === 'string' ? obj.id : undefined,
          ...(obj.sample !== undefined && obj.sample !== 0 ? { sample: obj.sample as number } : {}),
          ...(obj.turn !== undefined && obj.turn !== 1 ? { turn: obj.turn as number } : {}),
        });
      }
    } catch (e) {
      errors.push(`line ${i + 1}: not valid JSON (${(e as Error).message})`);
    }
  });
  return { answers, errors };
}

/**
 * Answers from another file: matched by `id` when the answers carry ids, else by line order
 * (the n-th answer belongs to the n-th problem of the full, unfiltered dataset; sample 0, turn 1
 * only). With ids, each answer belongs to its (id, sample, turn); a turn with no recorded answer
 * repeats that sample's latest earlier turn (a recorded model with nothing new to say), and a
 * sample with no recorded answer at all is unavailable (INFRA_ERROR).
 */
export function replayAnswersModel(name: string, answers: readonly RecordedAnswer[]): AnswerSource {
  /** id → sample → turn → output */
  const byId = new Map<string, Map<number, Map<number, string>>>();
  for (const a of answers) {
    if (!a.id) continue;
    let samples = byId.get(a.id);
    if (!samples) byId.set(a.id, (samples = new Map()));
    let turns = samples.get(a.sample ?? 0);
    if (!turns) samples.set(a.sample ?? 0, (turns = new Map()));
    turns.set(a.turn ?? 1, a.output);
  }
  const useIds = byId.size > 0;
  return {
    id: `replay:${name}`,
    async answer(problem: Problem, _signal?: AbortSignal, context?: AnswerContext) {
      const sample = context?.sample ?? 0;
      const turn = context?.turn ?? 1;
      if (!useIds) {
        const output = sample === 0 ? answers[problem.index]?.output : undefined;
        if (output === undefined) throw new AnswerUnavailableError(sample === 0 ? `no recorded answer on line ${problem.index + 1}` : `no recorded sample ${sample}: answers matched by line hold one sample per problem`);
        return { text: output };
      }
      const turns = byId.get(problem.id)?.get(sample);
      if (!turns) throw new AnswerUnavailableError(sample === 0 ? `no recorded answer with id ${problem.id}` : `no recorded answer with id ${problem.id}, sample ${sample}`);
      for (let t = turn; t >= 1; t--) {
        const output = turns.get(t);
        if (output !== undefined) return { text: output };
      }
      throw new AnswerUnavailableError(`no recorded answer with id ${problem.id}, sample ${sample}, turn ${turn} or earlier`);
    },
  };
}
