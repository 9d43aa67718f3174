/** Recorded answers: the official re-scoring flow. */
import type { Problem } from '../core/records';
import { AnswerUnavailableError, type Model } from './types';

/** Uses each record's own `output` field as the model answer. */
export const replayOwnOutputModel: Model = {
  id: 'replay',
  async answer(problem) {
    const output = problem.record.output;
    if (typeof output !== 'string') throw new AnswerUnavailableError(`problem ${problem.id} (line ${problem.line}) has no "output" field`);
    return { text: output };
  },
};

export interface RecordedAnswer {
  id?: string;
  output: string;
}

/** Parses an answers JSONL: objects with `output` and, optionally, `id`. */
export function parseAnswers(text: string): { answers: RecordedAnswer[]; errors: string[] } {
  const answers: RecordedAnswer[] = [];
  const errors: string[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    try {
      const obj = JSON.parse(raw) as { id?: unknown; output?: unknown };
      if (typeof obj.output !== 'string') errors.push(`line ${i + 1}: no "output" text`);
      else answers.push({ output: obj.output, id: typeof obj.id === 'string' ? obj.id : undefined });
    } catch (e) {
      errors.push(`line ${i + 1}: not valid JSON (${(e as Error).message})`);
    }
  });
  return { answers, errors };
}

/**
 * Answers from another file: matched by `id` when the answers carry ids, else by line order
 * (the n-th answer belongs to the n-th problem of the full, unfiltered dataset).
 */
export function replayAnswersModel(name: string, answers: readonly RecordedAnswer[]): Model {
  const byId = new Map(answers.filter((a) => a.id).map((a) => [a.id!, a.output]));
  const useIds = byId.size > 0;
  return {
    id: `replay:${name}`,
    async answer(problem: Problem) {
      const output = useIds ? byId.get(problem.id) : answers[problem.index]?.output;
      if (output === undefined) {
        throw new AnswerUnavailableError(
          useIds ? `no recorded answer with id ${problem.id}` : `no recorded answer on line ${problem.index + 1}`,
        );
      }
      return { text: output };
    },
  };
}
