/** Outcome names in display order, with their colours. */
import { OUTCOMES } from '../../contracts';

export type DisplayOutcome = (typeof OUTCOMES)[number] | 'INFRA_ERROR' | 'UNSUPPORTED';

export const OUTCOME_ORDER: readonly DisplayOutcome[] = [...OUTCOMES, 'INFRA_ERROR', 'UNSUPPORTED'];

const COLORS: Record<DisplayOutcome, string> = {
  PASSED: '#1a7f37',
  WRONG_ANSWER: '#cf222e',
  RUNTIME_ERROR: '#bc4c00',
  TIME_LIMIT_EXCEEDED: '#8250df',
  COMPILATION_ERROR: '#9a6700',
  SYNTAX_ERROR: '#bf3989',
  ARGUMENT_ERROR: '#6e7781',
  INTERNAL_ERROR: '#6e7781',
  INFRA_ERROR: '#57606a',
  UNSUPPORTED: '#8c959f',
};

export function outcomeColor(outcome: string): string {
  return COLORS[outcome as DisplayOutcome] ?? '#57606a';
}

/** "WRONG_ANSWER" → "Wrong answer". */
export function outcomeLabel(outcome: string): string {
  const text = outcome.toLowerCase().replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Outcomes that occur in `counts`, in display order (unknown ones last). */
export function presentOutcomes(counts: Record<string, number>): string[] {
  const known = OUTCOME_ORDER.filter((o) => (counts[o] ?? 0) > 0) as string[];
  const other = Object.keys(counts).filter((o) => !known.includes(o) && (counts[o] ?? 0) > 0);
  return [...known, ...other];
}
