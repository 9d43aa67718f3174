/** Adding up token counts and turning them into an estimated cost. */
import type { Prices } from './providers/presets';
import type { TokenUsage } from '../contracts';

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  /** Answers whose usage was reported. */
  answers: number;
}

export const emptyTotals = (): UsageTotals => ({ inputTokens: 0, outputTokens: 0, reasoningTokens: 0, answers: 0 });

export function addUsage(totals: UsageTotals, usage: TokenUsage | undefined): UsageTotals {
  if (!usage) return totals;
  totals.inputTokens += usage.inputTokens;
  totals.outputTokens += usage.outputTokens;
  totals.reasoningTokens += usage.reasoningTokens ?? 0;
  totals.answers++;
  return totals;
}

/** US dollars, from prices per million tokens; undefined when a price is unknown. */
export function costOf(totals: Pick<UsageTotals, 'inputTokens' | 'outputTokens'>, prices: Partial<Prices> | undefined): number | undefined {
  if (prices?.input === undefined || prices.output === undefined) return undefined;
  return (totals.inputTokens * prices.input + totals.outputTokens * prices.output) / 1e6;
}

/** 1234 → "1.2k", 2500000 → "2.5M". */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1e6) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1e6).toFixed(1)}M`;
}

export function formatCost(dollars: number): string {
  return `$${dollars < 1 ? dollars.toFixed(4) : dollars.toFixed(2)}`;
}
