/**
 * The generator's funnel: each seed through stages 1–5 with bounded concurrency, then the
 * near-duplicate filter in seed order. Returns the kept records (AutoCodeBench format plus
 * provenance) and every seed's outcome; counts() turns outcomes into the manifest's funnel.
 */
import type { BenchRecord } from '../contracts';
import { criticFilter, difficultyFilter, nearDuplicate } from './filters';
import { mutants } from './harness';
import { hashText, PROMPT_VERSION } from './prompts';
import { Drop, outputsStage, solutionStage, STAGES, statementStage, testsStage, type GenContext, type Stage } from './stages';
import type { SeedOutcome } from './journal';

export interface Seed {
  code: string;
}

export interface SeedResult {
  outcome: SeedOutcome;
  record?: BenchRecord;
}

/** Seed hash: what the provenance and the journal's outcome lines name a seed by. */
export const seedHash = (language: string, code: string) => hashText(`${language}\n${code}`).slice(0, 16);

async function generateOne(ctx: GenContext, seed: Seed): Promise<BenchRecord> {
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
  return {
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
}

/** `contextOf`: the context of one seed (the page gives each seed a journal of its own, for its item view). */
export async function runFunnel(ctx: GenContext, seeds: readonly Seed[], concurrency: number, onSeed?: (r: SeedResult, index: number) => void, contextOf: (seed: string, index: number) => GenContext = () => ctx): Promise<SeedResult[]> {
  const results: SeedResult[] = new Array(seeds.length);
  let next = 0;
  const worker = async () => {
    while (next < seeds.length) {
      const index = next++;
      const seed = seeds[index]!;
      const id = seedHash(ctx.language, seed.code);
      let result: SeedResult;
      try {
        result = { outcome: { seed: id, kept: true }, record: await generateOne(contextOf(id, index), seed) };
      } catch (e) {
        if (!(e instanceof Drop)) throw e;
        result = { outcome: { seed: id, kept: false, stage: e.stage, reason: e.reason } };
      }
      results[index] = result;
      onSeed?.(result, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, seeds.length)) }, worker));
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
  return results;
}

export interface FunnelCounts {
  seeds: number;
  /** Seeds that got past each stage, in order. */
  passed: Record<Stage, number>;
  dropped: Record<Stage, number>;
  kept: number;
}

export function funnelCounts(outcomes: readonly SeedOutcome[]): FunnelCounts {
  const dropped = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
  for (const o of outcomes) if (!o.kept && o.stage) dropped[o.stage as Stage]++;
  const passed = {} as Record<Stage, number>;
  let left = outcomes.length;
  for (const s of STAGES) passed[s] = left -= dropped[s];
  return { seeds: outcomes.length, passed, dropped, kept: outcomes.filter((o) => o.kept).length };
}

/** `generated: 8 of 10 seeds (dropped: outputs 1, tests 1)`. */
export function summaryLine(c: FunnelCounts): string {
  const drops = STAGES.filter((s) => c.dropped[s]).map((s) => `${s} ${c.dropped[s]}`);
  return `generated: ${c.kept} of ${c.seeds} seeds (${drops.length ? `dropped: ${drops.join(', ')}` : 'none dropped'})`;
}
