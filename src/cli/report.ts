/** The CLI's per-language table, breakdowns, pass@k and per-turn lines, and headline. */
import type { BreakdownRow } from '../core/breakdown';
import { OUTCOME_ORDER } from '../core/breakdown';
import { LANGUAGE_NAMES, type LanguageId } from '../contracts';
import { formatPass1, formatPercent, type Summary } from '../core/metrics';
import { metricLines, type PassAtK, type TurnLine } from '../core/passk';
import { wilson, type Interval } from '../core/stats';
import { formatRange } from '../core/uncertainty';

/** What a run with several samples or turns adds to the report. */
export interface MultiFigures {
  samples: number;
  turns: number;
  feedback: string;
  /** pass@k for the printed ks (sample verdicts after the last turn). */
  passk: PassAtK[];
  /** pass@k's bootstrap intervals (src/core/uncertainty.ts: passAtKIntervals), one per printed k. */
  passkIntervals?: Array<{ k: number; overall: Interval; perLanguage: ReadonlyMap<LanguageId, Interval> }>;
  byTurn: { overall: TurnLine[]; perLanguage: Array<{ language: LanguageId; turns: TurnLine[] }> };
}

export interface ReportExtras {
  multi?: MultiFigures;
  difficulty?: BreakdownRow[];
  /** Lite vs the rest (--lite). */
  subset?: BreakdownRow[];
  /** The interval lines (src/core/uncertainty.ts), printed just before the headline. */
  uncertainty?: string[];
}

const ciOf = (l: { passed: number; total: number }) => formatRange(wilson(l.passed, l.total));
const rowLine = (r: BreakdownRow) => `${r.label} ${formatPercent(r.pass1)} (${r.passed}/${r.total}, CI ${ciOf(r)})`;

/**
 * `summary` is of the first attempts (sample 0, turn 1): the table's Pass@1 column and the
 * headline are the official single-attempt figure whatever the samples and turns.
 */
export function formatReport(summary: Summary, mode: string, extras: ReportExtras = {}): string {
  const { multi } = extras;
  const outcomes = OUTCOME_ORDER.filter((o) => summary.outcomes[o]);
  const turnColumns = multi && multi.turns > 1 ? multi.byTurn.overall.slice(1).map((t) => t.turn) : [];
  const kColumns = multi && multi.samples > 1 ? multi.passk : [];
  // pass@k's intervals go last, after Pass@1's: the columns before them keep their places.
  const kIntervals = multi && multi.samples > 1 ? (multi.passkIntervals ?? []) : [];
  const header = ['language', 'passed/total', 'Pass@1', ...turnColumns.map((t) => `turn ${t}`), ...kColumns.map((p) => `pass@${p.k}`), ...outcomes, '95% CI', ...kIntervals.map((p) => `pass@${p.k} CI`)];
  const rows = summary.perLanguage.map((l) => {
    const turnsOf = multi?.byTurn.perLanguage.find((x) => x.language === l.language)?.turns ?? [];
    return [
      LANGUAGE_NAMES[l.language],
      `${l.passed}/${l.total}`,
      formatPercent(l.pass1),
      ...turnColumns.map((t) => formatPercent(turnsOf.find((x) => x.turn === t)?.pass1 ?? NaN)),
      ...kColumns.map((p) => formatPercent(p.perLanguage.find((x) => x.language === l.language)?.value ?? NaN)),
      ...outcomes.map((o) => String(l.outcomes[o] ?? 0)),
      ciOf(l),
      ...kIntervals.map((p) => formatRange(p.perLanguage.get(l.language) ?? { low: NaN, high: NaN })),
    ];
  });
  rows.push([
    'all',
    `${summary.passed}/${summary.total}`,
    formatPercent(summary.pass1),
    ...turnColumns.map((t) => formatPercent(multi!.byTurn.overall.find((x) => x.turn === t)?.pass1 ?? NaN)),
    ...kColumns.map((p) => formatPercent(p.value)),
    ...outcomes.map((o) => String(summary.outcomes[o] ?? 0)),
    ciOf(summary),
    ...kIntervals.map((p) => formatRange(p.overall)),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const out = [line(header), ...rows.map(line)];
  if (summary.infraErrors) out.push(`${summary.infraErrors} problem(s) could not be evaluated (INFRA_ERROR): excluded from Pass@1, re-run them.`);
  if (summary.unsupported) {
    const languages = summary.perLanguage.filter((l) => l.unsupported).map((l) => `${LANGUAGE_NAMES[l.language]} (${l.unsupported})`);
    out.push(`unavailable here (no runtime; not counted as failed): ${languages.join(', ')}`);
  }
  if (extras.difficulty?.length) out.push(`difficulty: ${extras.difficulty.map(rowLine).join(', ')}`);
  if (extras.subset?.length) out.push(`subset: ${extras.subset.map(rowLine).join(', ')}`);
  out.push(`extraction: ${mode} mode`);
  if (multi) {
    const parts = ['Pass@1 = sample 0, turn 1'];
    if (multi.turns > 1) parts.push(`turn t = Pass@1 after turn t (sample 0 passed at some turn ≤ t; feedback: ${multi.feedback === 'full' ? 'public and private test output' : 'public test output only'})`);
    if (multi.samples > 1) parts.push(`pass@k = unbiased estimator over ${multi.samples} samples per problem, each sample's result after turn ${multi.turns}`);
    out.push(`figures: ${parts.join('; ')}`);
    out.push(...metricLines(multi.samples > 1 ? multi.passk : [], multi.turns > 1 ? multi.byTurn.overall : []));
  }
  if (extras.uncertainty) out.push(...extras.uncertainty);
  out.push(formatPass1(summary));
  return out.join('\n');
}
