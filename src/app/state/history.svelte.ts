/**
 * The page's past runs: the run store, the run list, which runs were interrupted (a tab closed or
 * reloaded mid-run), and the comparison of two runs.
 *
 * A running run holds a Web Lock named after it for as long as it runs in some tab; a run stored
 * as running whose lock nobody holds was interrupted, and can be continued.
 */
import { firstAttempts } from '../../core/passk';
import type { AttemptResult } from '../../core/results';
import { openRunStore, type RunRecord, type RunStore } from '../../store';
import { compareResults, type Comparison } from '../lib/compare';
import type { StoredRunResults } from '../lib/leaderboard';

const lockName = (runId: string) => `benchtop-run-${runId}`;

/**
 * Takes the run's lock and holds it until `until` settles. False when another tab holds it (the
 * run is going on there); true also where the browser has no Web Locks.
 */
export async function holdRunLock(runId: string, until: Promise<unknown>): Promise<boolean> {
  const locks = globalThis.navigator?.locks;
  if (!locks) return true;
  return new Promise<boolean>((acquired) => {
    void locks.request(lockName(runId), { ifAvailable: true }, (lock) => {
      acquired(lock !== null);
      return lock ? until.catch(() => {}) : undefined;
    });
  });
}

async function heldRunLocks(): Promise<Set<string>> {
  const locks = globalThis.navigator?.locks;
  if (!locks) return new Set();
  try {
    const { held = [] } = await locks.query();
    return new Set(held.map((l) => l.name ?? '').filter((n) => n.startsWith('benchtop-run-')).map((n) => n.slice('benchtop-run-'.length)));
  } catch {
    return new Set();
  }
}

/** A result without its texts (answer, code, programs, output): enough for Pass@1 tables. */
const slim = (r: AttemptResult): AttemptResult => ({
  id: r.id,
  index: r.index,
  language: r.language,
  difficulty: r.difficulty,
  answer: null,
  extractedCode: '',
  extraction: '',
  demo: null,
  full: null,
  verdict: r.verdict,
  durationMs: r.durationMs,
  ...(r.sample !== undefined ? { sample: r.sample } : {}),
  ...(r.turn !== undefined ? { turn: r.turn } : {}),
});

export interface ComparedRuns {
  a: RunRecord;
  b: RunRecord;
  comparison: Comparison;
}

export class RunHistory {
  store: RunStore | null = null;
  /** Runs will not survive a reload (no IndexedDB), or the store failed. */
  warning = $state<string | null>(null);
  runs = $state.raw<RunRecord[]>([]);
  /** Runs that some tab is running now. */
  busy = $state.raw<Set<string>>(new Set());
  loaded = $state(false);
  /** Up to two run ids ticked for comparison. */
  picked = $state<string[]>([]);
  compared = $state.raw<ComparedRuns | null>(null);
  compareError = $state<string | null>(null);
  /** The interruption notice was dismissed for these runs. */
  dismissed = $state<string[]>([]);
  /** Every stored run with its results, for the leaderboard (loaded when it is shown). */
  boardRuns = $state.raw<StoredRunResults[]>([]);
  boardLoading = $state(false);
  boardError = $state<string | null>(null);
  /** Results already read, by run id, with the counts they were read at. */
  private boardCache = new Map<string, { signature: string; results: AttemptResult[] }>();
  readonly ready: Promise<RunStore>;

  constructor() {
    this.ready = openRunStore().then(({ store, warning }) => {
      this.store = store;
      this.warning = warning ?? null;
      void this.refresh();
      return store;
    });
  }

  /** Runs stored as running that no tab is running: closed or reloaded mid-run. */
  get interrupted(): RunRecord[] {
    return this.runs.filter((r) => r.state === 'running' && !this.busy.has(r.id));
  }

  /** Interrupted runs the page should offer to continue. */
  get offered(): RunRecord[] {
    return this.interrupted.filter((r) => !this.dismissed.includes(r.id));
  }

  async refresh(): Promise<void> {
    const store = await this.ready;
    try {
      const [runs, busy] = await Promise.all([store.listRuns(), heldRunLocks()]);
      this.runs = runs;
      this.busy = busy;
      this.picked = this.picked.filter((id) => runs.some((r) => r.id === id));
    } catch (e) {
      this.warning = `Could not read the stored runs: ${(e as Error).message}`;
    } finally {
      this.loaded = true;
    }
  }

  /** Notes that this page runs `id` now (the lock shows it to other tabs). */
  markBusy(id: string, on: boolean): void {
    const busy = new Set(this.busy);
    if (on) busy.add(id);
    else busy.delete(id);
    this.busy = busy;
  }

  dismiss(id: string): void {
    this.dismissed = [...this.dismissed, id];
  }

  async delete(id: string): Promise<void> {
    const store = await this.ready;
    await store.deleteRun(id);
    if (this.compared && (this.compared.a.id === id || this.compared.b.id === id)) this.compared = null;
    await this.refresh();
  }

  togglePick(id: string): void {
    if (this.picked.includes(id)) this.picked = this.picked.filter((p) => p !== id);
    else this.picked = [...this.picked, id].slice(-2);
  }

  /** Compares the two picked runs: the older one is A, the newer B. */
  async compare(): Promise<void> {
    this.compareError = null;
    const store = await this.ready;
    const runs = this.picked.map((id) => this.runs.find((r) => r.id === id)).filter((r): r is RunRecord => !!r);
    if (runs.length !== 2) return;
    const [a, b] = runs.sort((x, y) => x.createdAt - y.createdAt) as [RunRecord, RunRecord];
    try {
      const [ra, rb]: [AttemptResult[], AttemptResult[]] = await Promise.all([store.results(a.id), store.results(b.id)]);
      // Runs with several samples or turns are compared on their first attempts, as their Pass@1.
      this.compared = { a, b, comparison: compareResults(firstAttempts(ra), firstAttempts(rb)) };
    } catch (e) {
      this.compareError = `Could not compare: ${(e as Error).message}`;
    }
  }

  closeComparison(): void {
    this.compared = null;
  }

  /**
   * Reads every stored run's results for the leaderboard, from the store alone; a run whose counts
   * did not change since the last read is not read again.
   */
  async loadBoard(): Promise<void> {
    const store = await this.ready;
    this.boardLoading = true;
    this.boardError = null;
    try {
      await this.refresh();
      const loaded = await Promise.all(
        this.runs.map(async (run) => {
          const signature = JSON.stringify([run.counts, run.state, run.finishedAt]);
          const cached = this.boardCache.get(run.id);
          if (cached?.signature === signature) return { run, results: cached.results };
          // Only what the table needs: not the programs, answers and outputs.
          const results = (await store.results(run.id)).map(slim);
          this.boardCache.set(run.id, { signature, results });
          return { run, results };
        }),
      );
      for (const id of this.boardCache.keys()) if (!this.runs.some((r) => r.id === id)) this.boardCache.delete(id);
      this.boardRuns = loaded;
    } catch (e) {
      this.boardError = `Could not read the stored runs: ${(e as Error).message}`;
    } finally {
      this.boardLoading = false;
    }
  }
}
