/**
 * A run store in memory: for pages where IndexedDB is unavailable (some private windows) and for
 * tests. Values are cloned in and out, as IndexedDB does, so callers cannot share state with it.
 */
import type { Problem } from '../contracts';
import { resultKey, sampleOf, turnOf, type AttemptResult } from '../core/results';
import { applyResult, type RunRecord, type RunStore, type StoredAnswer } from './types';

const key = (runId: string, attempt: string) => JSON.stringify([runId, attempt]);

export class MemoryRunStore implements RunStore {
  private readonly runs = new Map<string, RunRecord>();
  private readonly problemLists = new Map<string, Problem[]>();
  private readonly answerRows = new Map<string, { runId: string; problemId: string; answer: StoredAnswer }>();
  private readonly resultRows = new Map<string, { runId: string; result: AttemptResult }>();

  async listRuns(): Promise<RunRecord[]> {
    return [...this.runs.values()].map((r) => structuredClone(r)).sort((a, b) => b.createdAt - a.createdAt);
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    const run = this.runs.get(id);
    return run && structuredClone(run);
  }

  async createRun(run: RunRecord, problems: readonly Problem[]): Promise<void> {
    if (this.runs.has(run.id)) throw new Error(`run ${run.id} exists`);
    this.runs.set(run.id, structuredClone(run));
    this.problemLists.set(run.id, structuredClone([...problems]));
  }

  async updateRun(id: string, patch: Partial<Omit<RunRecord, 'id' | 'counts'>>): Promise<RunRecord> {
    const run = this.runs.get(id);
    if (!run) throw new Error(`no run ${id}`);
    const updated = { ...run, ...structuredClone(patch), id, counts: run.counts };
    this.runs.set(id, updated);
    return structuredClone(updated);
  }

  async deleteRun(id: string): Promise<void> {
    this.runs.delete(id);
    this.problemLists.delete(id);
    for (const [k, row] of this.answerRows) if (row.runId === id) this.answerRows.delete(k);
    for (const [k, row] of this.resultRows) if (row.runId === id) this.resultRows.delete(k);
  }

  async problems(runId: string): Promise<Problem[]> {
    return structuredClone(this.problemLists.get(runId) ?? []);
  }

  async putAnswer(runId: string, attempt: string, answer: StoredAnswer): Promise<void> {
    this.answerRows.set(key(runId, attempt), { runId, problemId: attempt, answer: structuredClone(answer) });
  }

  async answers(runId: string): Promise<Map<string, StoredAnswer>> {
    const out = new Map<string, StoredAnswer>();
    for (const row of this.answerRows.values()) if (row.runId === runId) out.set(row.problemId, structuredClone(row.answer));
    return out;
  }

  async putResult(runId: string, result: AttemptResult): Promise<void> {
    const run = this.runs.get(runId);
    if (!run) throw new Error(`no run ${runId}`);
    const k = key(runId, resultKey(result.id, sampleOf(result), turnOf(result)));
    const previous = this.resultRows.get(k);
    if (previous) applyResult(run.counts, previous.result, -1);
    applyResult(run.counts, result);
    this.resultRows.set(k, { runId, result: structuredClone(result) });
  }

  async results(runId: string): Promise<AttemptResult[]> {
    return [...this.resultRows.values()].filter((r) => r.runId === runId).map((r) => structuredClone(r.result));
  }
}
