/** Token counts as the provider reported them, and their snake-case form in files (journal, --out). */

export interface TokenUsage {
  inputTokens: number;
  /** Every generated token, reasoning included (that is what providers bill as output). */
  outputTokens: number;
  /** The part of `outputTokens` spent on reasoning, where the provider reports it. */
  reasoningTokens?: number;
}

export interface StoredUsage {
  input_tokens: number;
  output_tokens: number;
  reasoning_tokens?: number;
}

export function toStoredUsage(u: TokenUsage): StoredUsage {
  return { input_tokens: u.inputTokens, output_tokens: u.outputTokens, ...(u.reasoningTokens !== undefined ? { reasoning_tokens: u.reasoningTokens } : {}) };
}

/** Reads a stored usage back; undefined for anything that is not one (files are untrusted). */
export function fromStoredUsage(u: unknown): TokenUsage | undefined {
  if (typeof u !== 'object' || u === null) return undefined;
  const s = u as Partial<StoredUsage>;
  if (typeof s.input_tokens !== 'number' || typeof s.output_tokens !== 'number') return undefined;
  return { inputTokens: s.input_tokens, outputTokens: s.output_tokens, ...(typeof s.reasoning_tokens === 'number' ? { reasoningTokens: s.reasoning_tokens } : {}) };
}
