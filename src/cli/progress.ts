/** Live counters on stderr (a TTY only): evaluated, passed, requests in flight, tokens, cost, retries. */
import type { Meter } from '../models/meter';
import { costOf, formatCost, formatTokens, type UsageTotals } from '../models/usage';
import type { Prices } from '../models/providers';

export interface Counters {
  done: number;
  passed: number;
  retries: number;
}

export function progressLine(total: number, counters: Counters, meter: Readonly<Meter> | undefined, prices: Partial<Prices> | undefined): string {
  const parts = [`${counters.done}/${total} evaluated, ${counters.passed} passed`];
  if (meter) {
    parts.push(`${meter.inFlight} in flight`);
    if (meter.answers) {
      parts.push(`tokens ${formatTokens(meter.inputTokens)} in / ${formatTokens(meter.outputTokens)} out`);
      const cost = costOf(meter, prices);
      if (cost !== undefined) parts.push(`~${formatCost(cost)}`);
    }
  }
  if (counters.retries) parts.push(`${counters.retries} retr${counters.retries === 1 ? 'y' : 'ies'}`);
  return parts.join(' · ');
}

/** The closing usage line of a run with a provider (stdout, above the report). */
export function usageLine(totals: UsageTotals, prices: Partial<Prices> | undefined): string | undefined {
  if (!totals.answers) return undefined;
  const reasoning = totals.reasoningTokens ? ` (${totals.reasoningTokens.toLocaleString('en-US')} reasoning)` : '';
  const cost = costOf(totals, prices);
  return `tokens: ${totals.inputTokens.toLocaleString('en-US')} in, ${totals.outputTokens.toLocaleString('en-US')} out${reasoning} over ${totals.answers} answers` +
    (cost !== undefined ? `; estimated cost ${formatCost(cost)}` : '');
}

/** Redraws one status line in place; a no-op when stderr is not a terminal. */
export function liveStatus(stream: NodeJS.WriteStream): { show(line: string): void; end(): void } {
  if (!stream.isTTY) return { show() {}, end() {} };
  let shown = false;
  return {
    show(line) {
      shown = true;
      stream.write(`\r${line}\x1b[K`);
    },
    end() {
      if (shown) stream.write('\n');
    },
  };
}
