/**
 * Runs stored before records that share a question got ids of their own (issue #19). Then a
 * problem's id was the content id alone, so copies of one question shared an id: one stored
 * answer and one stored result (the last written) stood for all of them, and their figures were
 * wrong. Such a run still opens and continues: its first copy of each question keeps the id and
 * what is stored under it, later copies get the ids a load gives them today (`<id>-2`, …) and,
 * having nothing stored, are evaluated when the run is continued.
 */
import { IdAssigner } from '../core/ids';
import type { Problem } from '../contracts';
import type { AttemptResult } from '../core/results';
import type { RunRecord } from './types';

/** What the run's view says about a run stored before the change; null for a current run. */
export type LegacyIds =
  | null
  | { shared: false }
  | {
      shared: true;
      /** Ids that several problems of the run shared. */
      ids: number;
      /** The ids later copies have now. */
      renamed: string[];
    };

export function legacyIds(run: RunRecord, problems: readonly Problem[]): { problems: Problem[]; legacy: LegacyIds } {
  if (run.duplicates) return { problems: [...problems], legacy: null };
  const seen = new Set<string>();
  const shared = new Set<string>();
  const assigner = new IdAssigner(problems.map((p) => p.id));
  const renamed: string[] = [];
  const rekeyed = problems.map((p) => {
    if (!seen.has(p.id)) {
      seen.add(p.id);
      return p;
    }
    shared.add(p.id);
    const id = assigner.next(p.id);
    renamed.push(id);
    return { ...p, id };
  });
  if (!shared.size) return { problems: rekeyed, legacy: { shared: false } };
  return { problems: rekeyed, legacy: { shared: true, ids: shared.size, renamed } };
}

/**
 * A shared id's stored result may have been written by a later copy, with that copy's position:
 * it now belongs to the first copy (it is under the first copy's id), so it takes its position.
 */
export function alignResults(problems: readonly Problem[], results: readonly AttemptResult[]): AttemptResult[] {
  const index = new Map(problems.map((p) => [p.id, p.index]));
  return results.map((r) => {
    const at = index.get(r.id);
    return at === undefined || at === r.index ? r : { ...r, index: at };
  });
}

/** What the run's view says; `evaluated` tells whether a problem id has a first-attempt result. */
export function describeLegacy(legacy: LegacyIds, evaluated: (id: string) => boolean): string | null {
  if (!legacy) return null;
  const before = 'Stored before records that repeat a question got ids of their own';
  if (!legacy.shared) return `${before}: every record of this run had a distinct id, so its figures stand.`;
  const { ids, renamed } = legacy;
  const pending = renamed.filter((id) => !evaluated(id)).length;
  const n = renamed.length;
  const copies = n === 1 ? 'The later copy now has its own id' : `The ${n} later copies now have their own ids`;
  const rest = pending === 0 ? (n === 1 ? ', and a result' : ', and results')
    : n === 1 ? ' and no result yet: continue the run to evaluate it'
      : `; ${pending} ${pending === 1 ? 'has' : 'have'} no result yet: continue the run to evaluate ${pending === 1 ? 'it' : 'them'}`;
  return `${before}: ${ids === 1 ? '1 id was' : `${ids} ids were`} shared by several records, so one stored result stood for all their copies and the figures stored then were wrong. ${copies}${rest}.`;
}
