/** Where answers come from: canonical solutions, recorded answers, or a provider's API. */
import type { Problem } from './problem';
import type { TokenUsage } from './usage';

export interface ModelAnswer {
  /** The raw answer text (Markdown), or code when `isCode` is set. Reasoning in `<think>` stays in. */
  text: string;
  /** The text is already code: skip extraction (canonical solutions). */
  isCode?: boolean;
  usage?: TokenUsage;
  /** Reasoning the provider returned apart from the answer (thinking blocks, `reasoning_content`). */
  reasoning?: string;
}

/** One earlier turn of a conversation: what the model answered, and the execution feedback it got. */
export interface PriorTurn {
  answer: string;
  feedback: string;
}

/** Which attempt is asked for: several samples per problem, several refinement turns per sample. */
export interface AnswerContext {
  /** 0-based sample. */
  sample: number;
  /** 1-based turn. */
  turn: number;
  /** Earlier turns of this (problem, sample), oldest first; empty on turn 1. */
  history: readonly PriorTurn[];
}

/** Absent context: the first (and, in a single run, only) attempt. */
export const FIRST_ATTEMPT: AnswerContext = Object.freeze({ sample: 0, turn: 1, history: Object.freeze([]) as readonly PriorTurn[] });

/** A model behind a provider's API, or canonical or recorded answers standing in for one. */
export interface AnswerSource {
  /** Short id used in reports, e.g. "canonical", "replay:answers.jsonl", "openai:gpt-4o-mini". */
  readonly id: string;
  /**
   * The answer to one attempt. `context` is absent for the first attempt of a single run; wrappers
   * (meters, journals, stores) must pass it on unchanged.
   */
  answer(problem: Problem, signal?: AbortSignal, context?: AnswerContext): Promise<ModelAnswer>;
}
