/** Where answers come from: canonical solutions, recorded answers, or a provider's API. */
import type { Problem } from '../core/records';

/** Token counts as the provider reported them. */
export interface TokenUsage {
  inputTokens: number;
  /** Every generated token, reasoning included (that is what providers bill as output). */
  outputTokens: number;
  /** The part of `outputTokens` spent on reasoning, where the provider reports it. */
  reasoningTokens?: number;
}

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

export interface Model {
  /** Short id used in reports, e.g. "canonical", "replay:answers.jsonl", "openai:gpt-4o-mini". */
  readonly id: string;
  /**
   * The answer to one attempt. `context` is absent for the first attempt of a single run; wrappers
   * (meters, journals, stores) must pass it on unchanged.
   */
  answer(problem: Problem, signal?: AbortSignal, context?: AnswerContext): Promise<ModelAnswer>;
}

/** The answer could not be obtained for a reason that is not the model's fault. */
export class AnswerUnavailableError extends Error {}

/**
 * The provider refused the key (401/403). Not a per-problem failure: every other request would
 * fail the same way, so the engine stops the whole run with this message.
 */
export class AuthenticationError extends Error {
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.name = 'AuthenticationError';
    this.status = status;
  }
}
