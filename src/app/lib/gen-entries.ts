/**
 * A journal entry of the generator as the per-item view shows it: a model exchange (who was
 * asked, the prompt, the response) or an execution (the program, exit, output). Entries are
 * read as stored (src/gen/stages.ts and filters.ts give their shapes), defensively: any field
 * may be missing in an entry written by another version.
 */
import type { StoredEntry } from '../../gen/journal-idb';

export interface EntryView {
  kind: 'ask' | 'run';
  title: string;
  request: string;
  response: string;
  failed: boolean;
}

const text = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v, null, 2));

export function entryView(entry: StoredEntry): EntryView {
  const content = Array.isArray(entry.content) ? (entry.content as unknown[]) : [];
  if (entry.type === 'ask') {
    // Stages: [model id, prompt, history]; the difficulty filter: [model id, 'difficulty', question, sample].
    const difficulty = content[1] === 'difficulty';
    const value = entry.value as { text?: unknown } | string;
    return {
      kind: 'ask',
      title: `${text(content[0])}${difficulty ? ` · difficulty sample ${text(content[3])}` : ''}${entry.n ? ` · asked again (${entry.n + 1})` : ''}`,
      request: text(difficulty ? content[2] : content[1]),
      response: typeof value === 'string' ? value : text(value?.text),
      failed: false,
    };
  }
  const r = (entry.value ?? {}) as { exitCode?: number; stdout?: string; stderr?: string; timedOut?: boolean; durationMs?: number; runtime?: string; declined?: string };
  const how = r.declined ? `declined: ${r.declined}` : r.timedOut ? 'timed out' : `exit ${r.exitCode}`;
  return {
    kind: 'run',
    title: `${text(content[0])} · ${how}${r.durationMs !== undefined ? ` · ${Math.round(r.durationMs)} ms` : ''}${r.runtime ? ` · ${r.runtime}` : ''}`,
    request: text(content[1]),
    response: [r.stdout, r.stderr ? `--- stderr ---\n${r.stderr}` : ''].filter(Boolean).join('\n'),
    failed: Boolean(r.declined || r.timedOut || r.exitCode !== 0),
  };
}
