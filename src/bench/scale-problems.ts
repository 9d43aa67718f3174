/**
 * Per-problem outcomes of the scale run (src/cli/bench-scale.ts): every problem's verdict on every
 * way, why a canonical solution did not pass, and per-language run times side by side. Every
 * problem of the scale run is answered by its canonical solution, so every one must pass (SPEC §1):
 * one that does not is either a time limit that the machine's load made it miss, or a wrong
 * verdict (a fidelity bug). The run names which, problem by problem, instead of counting it. Pure.
 */
import { quantile } from './scale-measure';

/** One problem's outcome on one way: the fields of a results line (src/core/result-file.ts) the run reads. */
export interface ProblemOutcome {
  id: string;
  language: string;
  verdict: string;
  passed: boolean;
  demo_outcome: string | null;
  full_outcome: string | null;
  error?: string;
  duration_ms: number;
  run_ms?: number;
  wait_ms?: number;
}

/** The outcome fields of a results line (which also holds the record and the code). */
export function outcomeOf(line: ProblemOutcome): ProblemOutcome {
  const { id, language, verdict, passed, demo_outcome, full_outcome, error, duration_ms, run_ms, wait_ms } = line;
  return { id, language, verdict, passed, demo_outcome, full_outcome, ...(error ? { error } : {}), duration_ms, ...(run_ms !== undefined ? { run_ms } : {}), ...(wait_ms !== undefined ? { wait_ms } : {}) };
}

/** The load average (1 min) sampled while one way ran. */
export interface LoadRange { min: number; max: number }

export function loadRange(samples: readonly number[]): LoadRange {
  return samples.length ? { min: Math.min(...samples), max: Math.max(...samples) } : { min: NaN, max: NaN };
}

const fixed = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '?');

/**
 * Why a canonical solution did not pass. A time limit is the load's when the same problem passed
 * on another way (`elsewhere`: its run time there); an INFRA_ERROR is infrastructure by definition
 * (SPEC §4); anything else is a verdict that disagrees with the canonical solution: a fidelity bug.
 */
export function causeOf(o: ProblemOutcome, load: LoadRange, elsewhere: { way: string; runMs: number } | undefined): string {
  const outcomes = `${o.demo_outcome ?? '–'} / ${o.full_outcome ?? '–'}`;
  const there = elsewhere ? `; passed ${elsewhere.way} in ${Math.round(elsewhere.runMs)} ms` : '';
  if (o.verdict === 'infra_error') return `INFRA_ERROR (not a verdict): ${o.error ?? ''}`.trim();
  if (o.demo_outcome === 'TIME_LIMIT_EXCEEDED' || o.full_outcome === 'TIME_LIMIT_EXCEEDED') {
    const note = elsewhere ? 'under load' : 'not passed on any other way: check the runtime, not only the load';
    return `TIME_LIMIT_EXCEEDED ${note} (load average ${fixed(load.min)}–${fixed(load.max)} on this way; demo / full ${outcomes}${there})`;
  }
  return `WRONG VERDICT for a canonical solution (fidelity bug): demo / full ${outcomes}${o.error ? `: ${o.error.slice(0, 160)}` : ''}${there}`;
}

export interface WayOutcomes {
  name: string;
  outcomes: readonly ProblemOutcome[];
  load: LoadRange;
}

/** One line per problem that did not pass on a way, with its cause. */
export function failureLines(way: WayOutcomes, all: readonly WayOutcomes[]): string[] {
  const passedElsewhere = (id: string) => {
    for (const other of all) {
      if (other === way) continue;
      const o = other.outcomes.find((x) => x.id === id && x.passed);
      if (o) return { way: other.name, runMs: o.run_ms ?? o.duration_ms };
    }
    return undefined;
  };
  return way.outcomes.filter((o) => !o.passed).map((o) => `${o.id} (${o.language}): ${causeOf(o, way.load, passedElsewhere(o.id))}`);
}

/** Counts of not-passed problems on a way by kind: load, infra, wrong verdict. */
export function failureKinds(lines: readonly string[]): { load: number; infra: number; wrong: number; other: number } {
  const k = { load: 0, infra: 0, wrong: 0, other: 0 };
  for (const l of lines) {
    if (l.includes('TIME_LIMIT_EXCEEDED under load')) k.load++;
    else if (l.includes('INFRA_ERROR')) k.infra++;
    else if (l.includes('WRONG VERDICT')) k.wrong++;
    else k.other++;
  }
  return k;
}

/**
 * Per language: problems, passed, and the median time the two test programs ran (run_ms, without
 * the wait for a worker) on each way, and the first way's median over the last way's. Medians of
 * passed problems only, so a time-limited run does not stand in for a run time.
 */
export function languageTable(ways: readonly WayOutcomes[]): string[] {
  const languages = [...new Set(ways.flatMap((w) => w.outcomes.map((o) => o.language)))];
  const median = (w: WayOutcomes, l: string) => quantile(w.outcomes.filter((o) => o.language === l && o.passed).map((o) => o.run_ms ?? o.duration_ms), 0.5);
  const rows = [
    `| language | ${ways.map((w) => `${w.name}: passed, run time p50`).join(' | ')} | run time ${ways[0]?.name} ÷ ${ways.at(-1)?.name} |`,
    `|---|${ways.map(() => '---|').join('')}---|`,
  ];
  for (const l of languages) {
    const cells = ways.map((w) => {
      const mine = w.outcomes.filter((o) => o.language === l);
      return mine.length ? `${mine.filter((o) => o.passed).length}/${mine.length}, ${Number.isFinite(median(w, l)) ? `${median(w, l).toFixed(0)} ms` : '–'}` : '–';
    });
    const ratio = ways.length > 1 ? median(ways[0]!, l) / median(ways.at(-1)!, l) : NaN;
    rows.push(`| ${l} | ${cells.join(' | ')} | ${Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : '–'} |`);
  }
  return rows;
}
