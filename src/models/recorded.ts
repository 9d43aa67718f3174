/**
 * "Record every answer before use", around any Model: an answer already kept for this attempt is
 * used instead of asking again (a continued run pays for nothing twice), and a new answer is kept
 * before it is handed on to be evaluated (a killed run loses no answer it paid for). The page's
 * store and the CLI's journal are both an AnswerLog.
 */
import { FIRST_ATTEMPT, type AnswerSource, type ModelAnswer } from '../contracts';

/** Which attempt an answer belongs to. */
export interface AttemptRef {
  id: string;
  /** 0-based sample. */
  sample: number;
  /** 1-based turn. */
  turn: number;
}

export interface AnswerLog {
  /** The answer kept for this attempt, if any. */
  recall(at: AttemptRef): ModelAnswer | undefined;
  /** Keeps a new answer; it is handed on once this resolves (a rejection fails the attempt). */
  record(at: AttemptRef, answer: ModelAnswer): Promise<void>;
}

/** Wraps `model` so that every answer goes through `log`. */
export function recordedModel(model: AnswerSource, log: AnswerLog): AnswerSource {
  return {
    id: model.id,
    async answer(problem, signal, context) {
      const { sample, turn } = context ?? FIRST_ATTEMPT;
      const at = { id: problem.id, sample, turn };
      const kept = log.recall(at);
      if (kept) return kept;
      const answer = await model.answer(problem, signal, context);
      await log.record(at, answer);
      return answer;
    },
  };
}
