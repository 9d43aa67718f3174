/**
 * The generator's funnel: each seed through stages 1–5 with bounded concurrency, then the
 * near-duplicate filter in seed order, then (optional) stage 6, each kept problem translated into
 * every --translate-to language. Returns the kept records (AutoCodeBench format plus
 * provenance) and every seed's outcome; counts() turns outcomes into the manifest's funnel.
 */
import type { BenchRecord } from '../contracts';
import { criticFilter, difficultyFilter, nearDuplicate } from './filters';
import { mutants } from './harness';
import { hashText, PROMPT_VERSION } from './prompts';
import { Drop, Stopped, outputsStage, solutionStage, STAGES, statementStage, testsStage, type GenContext, type Stage } from './stages';
import type { SeedOutcome } from './journal';
import { translateProblem, type SourceInputs, type TranslationOutcome } from './translate';

export interface Seed {
  code: string;
}

export interface SeedResult {
  outcome: SeedOutcome;
  record?: BenchRecord;
  /** The kept translations of `record` (stage 6), in --translate-to order. */
  translations?: BenchRecord[];
}

/** Seed hash: what the provenance and the journal's outcome lines name a seed by. */
export const seedHash = (language: string, code: string) => hashText(`${language}\n${code}`).slice(0, 16);

async function generateOne(ctx: GenContext, seed: Seed): Promise<{ record: BenchRecord; inputs: SourceInputs }> {
  const solved = await solutionStage(ctx, seed.code);
  const cases = await outputsStage(ctx, solved);
  const tested = await testsStage(ctx, solved.solution, cases);
  const question = await statementStage(ctx, solved.solution, tested.demo);
  const review = await criticFilter(ctx, question, tested.full);
  const record: BenchRecord = {
    question,
    canonical_solution: solved.solution,
    demo_test_func: tested.demo,
    full_test_func: tested.full,
    language: ctx.language,
    difficulty: 'medium',
  };
  const rated = ctx.difficulty ? await difficultyFilter(ctx, record) : undefined;
  const kept = {
    ...record,
    difficulty: rated?.label ?? 'medium',
    seed_hash: seedHash(ctx.language, seed.code),
    generator_model: ctx.generator.id,
    critic_model: ctx.critic.id,
    critic_score: review.score,
    category: review.category,
    difficulty_model: ctx.difficulty?.id ?? null,
    // Without a difficulty model the label is a placeholder, and says so.
    difficulty_passes: rated ? `${rated.passes}/${ctx.samples}` : 'unrated',
    // Mutants run until the tests caught one: "caught at 2 of 4".
    mutation_check: `caught at ${tested.mutants.tried} of ${mutants(solved.solution).length}`,
    prompt_version: PROMPT_VERSION,
  };
  return { record: kept, inputs: solved };
}

/**
 * Runs `job` on each index with at most `concurrency` in flight. After a failure (a refused key, a
 * Stop) no job starts, and it rejects only once the jobs in flight have ended: nothing of the run
 * goes on behind a stopped job's back.
 */
async function pool(count: number, concurrency: number, job: (index: number) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < count && !failure && !signal?.aborted) {
      try {
        await job(next++);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
  if (failure) throw failure.error;
  if (signal?.aborted) throw new Stopped();
}

/** `contextOf`: the context of one seed (the page gives each seed a journal of its own, for its item view). */
export async function runFunnel(
  ctx: GenContext, seeds: readonly Seed[], concurrency: number, onSeed?: (r: SeedResult, index: number) => void,
  onTranslation?: (t: TranslationOutcome, index: number) => void,
  contextOf: (seed: string, index: number) => GenContext = () => ctx,
): Promise<SeedResult[]> {
  const results: SeedResult[] = new Array(seeds.length);
  const inputs = new Map<number, SourceInputs>();
  await pool(seeds.length, concurrency, async (index) => {
    const seed = seeds[index]!;
    const id = seedHash(ctx.language, seed.code);
    let result: SeedResult;
    try {
      const made = await generateOne(contextOf(id, index), seed);
      inputs.set(index, made.inputs);
      result = { outcome: { seed: id, kept: true }, record: made.record };
    } catch (e) {
      if (!(e instanceof Drop)) throw e;
      result = { outcome: { seed: id, kept: false, stage: e.stage, reason: e.reason } };
    }
    results[index] = result;
    onSeed?.(result, index);
  }, ctx.signal);
  // Near duplicates, in seed order, so the first of two similar problems is the one kept.
  const kept: string[] = [];
  for (const r of results) {
    if (!r.record) continue;
    const twin = nearDuplicate(r.record.question, kept);
    if (twin === -1) kept.push(r.record.question);
    else {
      r.outcome = { seed: r.outcome.seed, kept: false, stage: 'filters', reason: 'near-duplicate question of an earlier problem' };
      delete r.record;
    }
  }
  await translateAll(ctx, results, inputs, concurrency, onTranslation, (index) => contextOf(results[index]!.outcome.seed, index));
  return results;
}

/** Stage 6 over every kept problem and target language; outcomes go on the seed's outcome. */
async function translateAll(ctx: GenContext, results: SeedResult[], inputs: Map<number, SourceInputs>, concurrency: number, onTranslation: ((t: TranslationOutcome, index: number) => void) | undefined, contextOf: (index: number) => GenContext): Promise<void> {
  const targets = (ctx.translateTo ?? []).filter((l) => l !== ctx.language);
  if (!targets.length) return;
  const jobs = results.flatMap((r, index) => (r.record ? targets.map((to) => ({ index, to })) : []));
  const done: Array<{ outcome: TranslationOutcome; record?: BenchRecord }> = new Array(jobs.length);
  await pool(jobs.length, concurrency, async (j) => {
    const { index, to } = jobs[j]!;
    try {
      const record = await translateProblem(contextOf(index), results[index]!.record!, inputs.get(index)!, to);
      done[j] = { outcome: { to, kept: true }, record };
    } catch (e) {
      if (!(e instanceof Drop)) throw e;
      done[j] = { outcome: { to, kept: false, stage: e.stage, reason: e.reason } };
    }
    onTranslation?.(done[j]!.outcome, index);
  }, ctx.signal);
  // In seed order and target order, whatever order they finished in.
  jobs.forEach(({ index }, j) => {
    const r = results[index]!;
    (r.outcome.translations ??= []).push(done[j]!.outcome);
    if (done[j]!.record) (r.translations ??= []).push(done[j]!.record!);
  });
}

/** The output JSONL's records: each kept problem, then its kept translations (CLI and page alike). */
export function outputRecords(results: readonly SeedResult[]): BenchRecord[] {
  return results.flatMap((r) => (r.record ? [r.record, ...(r.translations ?? [])] : []));
}

/** The manifest's dropped translations: seed, target language, step and reason. */
export function translationDrops(outcomes: readonly SeedOutcome[]): Array<{ seed: string } & NonNullable<SeedOutcome['translations']>[number]> {
  return outcomes.flatMap((o) => (o.translations ?? []).filter((t) => !t.kept).map((t) => ({ seed: o.seed, ...t })));
}

export interface FunnelCounts {
  seeds: number;
  /** Seeds that got past each stage, in order. */
  passed: Record<Stage, number>;
  dropped: Record<Stage, number>;
  kept: number;
  /** Stage 6, present when translations were asked for: drops by the step the translation failed. */
  translations?: { asked: number; kept: number; dropped: Partial<Record<Stage, number>> };
}

export function funnelCounts(outcomes: readonly SeedOutcome[]): FunnelCounts {
  const dropped = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
  for (const o of outcomes) if (!o.kept && o.stage) dropped[o.stage as Stage]++;
  const passed = {} as Record<Stage, number>;
  let left = outcomes.length;
  for (const s of STAGES) passed[s] = left -= dropped[s];
  const counts: FunnelCounts = { seeds: outcomes.length, passed, dropped, kept: outcomes.filter((o) => o.kept).length };
  const translations = outcomes.flatMap((o) => o.translations ?? []);
  if (outcomes.some((o) => o.translations)) {
    const tDropped: Partial<Record<Stage, number>> = {};
    for (const t of translations) if (!t.kept && t.stage) tDropped[t.stage as Stage] = (tDropped[t.stage as Stage] ?? 0) + 1;
    counts.translations = { asked: translations.length, kept: translations.filter((t) => t.kept).length, dropped: tDropped };
  }
  return counts;
}

/** `generated: 8 of 10 seeds (dropped: outputs 1, tests 1)`. */
export function summaryLine(c: FunnelCounts): string {
  const drops = STAGES.filter((s) => c.dropped[s]).map((s) => `${s} ${c.dropped[s]}`);
  const line = `generated: ${c.kept} of ${c.seeds} seeds (${drops.length ? `dropped: ${drops.join(', ')}` : 'none dropped'})`;
  if (!c.translations) return line;
  const t = c.translations;
  const tDrops = STAGES.filter((s) => t.dropped[s]).map((s) => `${s} ${t.dropped[s]}`);
  return `${line}; translated: ${t.kept} of ${t.asked} (${tDrops.length ? `dropped: ${tDrops.join(', ')}` : 'none dropped'})`;
}
