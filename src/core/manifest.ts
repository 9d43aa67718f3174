/**
 * The run manifest: what someone else needs to reproduce every printed figure — the dataset
 * file's sha256, the model, every setting that changes answers or verdicts, the runtimes and the
 * benchtop version — together with the figures themselves, computed from the results.
 * Shared by the CLI (`--out`, `--charts`) and the page's export. Never holds a key.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { version } from '../../package.json';
import { byDifficulty, byOutcome } from './breakdown';
import type { ExtractionMode } from './extract';
import type { FeedbackSource } from './feedback';
import { summarize } from './metrics';
import { curveKs, firstAttempts, pass1ByTurn, passAtK, reportedKs } from './passk';
import { SYSTEM_PROMPT } from './prompt';
import type { DuplicateChoice } from './records';
import type { AttemptResult } from './results';
import type { SubsetPlan } from './sample';
import { wilson } from './stats';
import { fullSetEstimate, passAtKIntervals, uncertainty, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED } from './uncertainty';

export const BENCHTOP_VERSION: string = version;

export function sha256Hex(data: string | Uint8Array): string {
  return bytesToHex(sha256(typeof data === 'string' ? utf8ToBytes(data) : data));
}

export interface ManifestSettings {
  samples: number;
  turns: number;
  feedback: FeedbackSource;
  /** Characters of test output fed back per turn. */
  feedbackChars: number;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  /** The system prompt sent (hashed in the manifest, and included when it is not the official one). */
  systemPrompt: string;
  /** Completion mode (AutoCodeBench-Complete) instead of chat. */
  completion: boolean;
  extractionMode: ExtractionMode;
  /** null: the official limit of each language. */
  timeLimitSeconds: number | null;
}

export interface ManifestInput {
  /** A path, a URL, "embedded demo set", … */
  datasetSource: string;
  /** The dataset file as loaded (its bytes are hashed). */
  datasetText: string | Uint8Array;
  /** Problems selected for the run. */
  problems: number;
  selection: { languages: string[]; difficulties: string[]; limit?: number; liteOnly?: true };
  /** Records that repeat a question, and what was done with them (absent: not known, e.g. an older stored run). */
  duplicates?: ManifestDuplicates;
  /** A seeded stratified subset (--sample-per-language): its seed, strata sizes and chosen ids. */
  sample?: SubsetPlan;
  model: string;
  provider?: { kind: string; baseUrl: string; model: string };
  settings: ManifestSettings;
  runtimes: string[];
  /** e.g. { node: process.version, platform: 'linux x64' } or { browser: navigator.userAgent }. */
  environment: Record<string, string>;
  results: readonly AttemptResult[];
  /** ISO date. */
  created: string;
}

export interface ManifestDuplicates {
  choice: DuplicateChoice;
  /** Questions that more than one record of the file holds. */
  questions: number;
  /** Records left out as later copies (keep-first), else 0. */
  dropped: number;
}

const figure = (v: number) => (Number.isNaN(v) ? null : Math.round(v * 1e6) / 1e6);
/** A 95% interval as [low, high], null when there is none. */
const ci = (i: { low: number; high: number }) => (Number.isNaN(i.low) ? null : [figure(i.low), figure(i.high)]);
const wilsonCi = (passed: number, total: number) => ci(wilson(passed, total));

export interface RunManifest {
  format: 'benchtop run manifest';
  format_version: 2;
  benchtop: string;
  created: string;
  dataset: { source: string; sha256: string; problems: number; selection: ManifestInput['selection']; duplicates: ManifestDuplicates | null; sample?: Record<string, unknown> };
  model: string;
  provider: ManifestInput['provider'] | null;
  settings: Record<string, unknown>;
  runtimes: string[];
  environment: Record<string, string>;
  figures: Record<string, unknown>;
}

export function buildManifest(input: ManifestInput): RunManifest {
  const { settings: s, results } = input;
  const first = summarize(firstAttempts(results));
  const ks = [...new Set([...reportedKs(s.samples), ...curveKs(s.samples)])].sort((a, b) => a - b);
  const passk = ks.map((k) => passAtK(results, k, { turn: s.turns }));
  const turns = pass1ByTurn(results, s.turns);
  const official = s.systemPrompt === SYSTEM_PROMPT;
  const u = uncertainty(results, { ks, turn: s.turns });
  const passkIntervals = ks.map((k) => passAtKIntervals(results, k, s.turns));
  const plan = input.sample;
  const estimate = plan ? fullSetEstimate(results, plan) : undefined;
  return {
    format: 'benchtop run manifest',
    format_version: 2,
    benchtop: BENCHTOP_VERSION,
    created: input.created,
    dataset: {
      source: input.datasetSource,
      sha256: sha256Hex(input.datasetText),
      problems: input.problems,
      selection: input.selection,
      duplicates: input.duplicates ?? null,
      ...(plan ? { sample: { per_stratum: plan.perStratum, strata: plan.byDifficulty ? 'language/difficulty' : 'language', seed: plan.seed, population: plan.population, ids: plan.ids } } : {}),
    },
    model: input.model,
    provider: input.provider ?? null,
    settings: {
      samples: s.samples,
      turns: s.turns,
      feedback: s.feedback,
      feedback_chars: s.feedbackChars,
      temperature: s.temperature ?? null,
      top_p: s.topP ?? null,
      max_tokens: s.maxTokens ?? null,
      mode: s.completion ? 'completion' : 'chat',
      completion: s.completion,
      extraction_mode: s.extractionMode,
      time_limit_seconds: s.timeLimitSeconds,
      system_prompt_sha256: sha256Hex(s.systemPrompt),
      system_prompt_is_official: official,
      ...(official ? {} : { system_prompt: s.systemPrompt }),
    },
    runtimes: input.runtimes,
    environment: input.environment,
    figures: {
      definitions: {
        pass1: 'sample 0, turn 1 of each problem; passed = demo and full tests PASSED; INFRA_ERROR and unsupported problems excluded',
        pass_at_k: `Chen et al. 2021 unbiased estimator, mean over problems; a sample's verdict after turn ${s.turns}; INFRA_ERROR samples left out of n; problems with n < k left out`,
        pass1_by_turn: 'share of problems whose sample 0 passed at some turn <= t',
        ci95: 'pass1 and its breakdowns: Wilson score interval; pass_at_k: percentile bootstrap over problems (' + BOOTSTRAP_RESAMPLES + ' resamples, seed ' + BOOTSTRAP_SEED + ')',
        ...(plan ? { full_benchmark_estimate: 'stratified estimate: strata weighted by their share of the sampled file, variance with the finite population correction; ci95 = value ± 1.96 se' } : {}),
      },
      pass1: { passed: first.passed, total: first.total, value: figure(first.pass1), ci95: wilsonCi(first.passed, first.total), infra_errors: first.infraErrors, unsupported: first.unsupported },
      ...(estimate ? { full_benchmark_estimate: { value: figure(estimate.value), se: figure(estimate.se), ci95: ci(estimate), strata: estimate.strata, left_out: estimate.leftOut } } : {}),
      pass_at_k: passk.map((p, i) => ({ k: p.k, value: figure(p.value), ci95: ci(u.passk[i]!), problems: p.problems, left_out: p.leftOut })),
      pass1_by_turn: turns.overall.map((t) => ({ turn: t.turn, passed: t.passed, total: t.total, value: figure(t.pass1) })),
      per_language: first.perLanguage.map((l) => ({
        language: l.language,
        passed: l.passed,
        total: l.total,
        pass1: figure(l.pass1),
        ci95: wilsonCi(l.passed, l.total),
        pass_at_k: passk.map((p, i) => {
          const line = p.perLanguage.find((x) => x.language === l.language);
          const interval = passkIntervals[i]!.perLanguage.get(l.language);
          return { k: p.k, value: figure(line?.value ?? NaN), ci95: interval ? ci(interval) : null, problems: line?.problems ?? 0, left_out: line?.leftOut ?? 0 };
        }),
        pass1_by_turn: (turns.perLanguage.find((x) => x.language === l.language)?.turns ?? []).map((t) => ({ turn: t.turn, passed: t.passed, total: t.total, value: figure(t.pass1) })),
      })),
      per_difficulty: byDifficulty(results).map((d) => ({ difficulty: d.key, passed: d.passed, total: d.total, pass1: figure(d.pass1), ci95: wilsonCi(d.passed, d.total) })),
      outcomes: Object.fromEntries(byOutcome(results).map((o) => [o.outcome, o.count])),
    },
  };
}
