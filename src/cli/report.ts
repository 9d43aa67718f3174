/** The CLI's per-language table and headline. */
import { LANGUAGE_NAMES } from '../core/languages';
import { formatPass1, formatPercent, type Summary } from '../core/metrics';

const OUTCOME_ORDER = ['PASSED', 'WRONG_ANSWER', 'RUNTIME_ERROR', 'TIME_LIMIT_EXCEEDED', 'COMPILATION_ERROR', 'SYNTAX_ERROR', 'INTERNAL_ERROR', 'INFRA_ERROR', 'UNSUPPORTED'];

export function formatReport(summary: Summary, mode: string): string {
  const outcomes = OUTCOME_ORDER.filter((o) => summary.outcomes[o]);
  const header = ['language', 'passed/total', 'Pass@1', ...outcomes];
  const rows = summary.perLanguage.map((l) => [
    LANGUAGE_NAMES[l.language],
    `${l.passed}/${l.total}`,
    formatPercent(l.pass1),
    ...outcomes.map((o) => String(l.outcomes[o] ?? 0)),
  ]);
  rows.push(['all', `${summary.passed}/${summary.total}`, formatPercent(summary.pass1), ...outcomes.map((o) => String(summary.outcomes[o] ?? 0))]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const out = [line(header), ...rows.map(line)];
  if (summary.infraErrors) out.push(`${summary.infraErrors} problem(s) could not be evaluated (INFRA_ERROR): excluded from Pass@1, re-run them.`);
  if (summary.unsupported) {
    const languages = summary.perLanguage.filter((l) => l.unsupported).map((l) => `${LANGUAGE_NAMES[l.language]} (${l.unsupported})`);
    out.push(`unavailable here (no runtime; not counted as failed): ${languages.join(', ')}`);
  }
  out.push(`extraction: ${mode} mode`);
  out.push(formatPass1(summary));
  return out.join('\n');
}
