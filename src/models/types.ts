/** Where answers come from. Real providers (issue 5) implement the same interface. */
import type { Problem } from '../core/records';

export interface ModelAnswer {
  /** The raw answer text (Markdown), or code when `isCode` is set. */
  text: string;
  /** The text is already code: skip extraction (canonical solutions). */
  isCode?: boolean;
}

export interface Model {
  /** Short id used in reports, e.g. "canonical", "replay:answers.jsonl". */
  readonly id: string;
  answer(problem: Problem, signal?: AbortSignal): Promise<ModelAnswer>;
}

/** The answer could not be obtained for a reason that is not the model's fault. */
export class AnswerUnavailableError extends Error {}
