/**
 * Persistence of runs behind one interface (docs/architecture.md): the browser keeps runs in IndexedDB
 * (indexeddb.ts), tests and pages without IndexedDB keep them in memory (memory.ts); the CLI
 * keeps its own JSONL journal (src/cli/journal.ts) with the same rule: every answer is stored
 * before it is evaluated and every result as soon as it exists, keyed by (run, problem, sample,
 * turn): the second key is `resultKey(problemId, sample, turn)` (src/core/results.ts), which is the
 * bare problem id for sample 0, turn 1, so runs stored before samples and turns existed read back
 * unchanged, as single-attempt runs.
 *
 * Nothing here ever holds an API key: a run records where its answers come from (provider,
 * base URL, settings), and the key lives only in the page's memory (or, when the user asks,
 * in localStorage — never in this store).
 */
import type { ExtractionMode } from '../core/extract';
import type { FeedbackSource } from '../core/feedback';
import type { LanguageId, Problem, TokenUsage } from '../contracts';
import type { ManifestDuplicates } from '../core/manifest';
import type { SubsetPlan } from '../core/sample';
import { sampleOf, turnOf, type AttemptResult } from '../core/results';
import type { Prices, ProviderKind } from '../models/providers';
import type { RecordedAnswer } from '../models/replay';

/** Provider settings as stored with a run: everything but the key. */
export interface StoredProviderSettings {
  kind: ProviderKind;
  baseUrl: string;
  model: string;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  /** The system prompt sent (the official one unless overridden). */
  systemPrompt: string;
  stream: boolean;
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  streamUsage?: boolean;
  /** Completion mode (AutoCodeBench-Complete): the completions endpoint with a plain prompt. */
  completion?: boolean;
}

/** Where a run's answers come from. */
export type RunSource =
  | { kind: 'canonical' }
  | { kind: 'demo-answers' }
  | { kind: 'demo-answers-multi' }
  | { kind: 'dataset-output' }
  | { kind: 'answers-file'; name: string; answers: RecordedAnswer[] }
  | {
      kind: 'provider';
      /** A preset id (`openai`, `groq`, …) or `custom`. */
      presetId: string;
      presetName: string;
      settings: StoredProviderSettings;
      prices?: Partial<Prices>;
      /** Whether requests need a key: the run was made with one (local servers may need none). */
      keyRequired: boolean;
    };

export type StoredRunState = 'running' | 'stopped' | 'done' | 'failed';

/**
 * Running totals of a run, kept up to date as results are stored. The problem counts are those of
 * each problem's first attempt (sample 0, turn 1): the headline Pass@1, as the CLI prints it.
 */
export interface RunCounts {
  /** Problems with a result. */
  evaluated: number;
  /** Problems that count for Pass@1 (not infra errors, not unsupported). */
  counted: number;
  passed: number;
  infraErrors: number;
  unsupported: number;
  /** Every stored result: one per (problem, sample, turn). Absent in runs stored before samples and turns. */
  attempts?: number;
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
}

export interface RunRecord {
  id: string;
  /** What the run list shows as the model. */
  modelId: string;
  modelLabel: string;
  source: RunSource;
  datasetName: string;
  /** "embedded demo set", a file name or a URL. */
  datasetSource: string;
  mode: ExtractionMode;
  /** Per-run time limit in seconds; null = the official limit of each language. */
  timeLimitSeconds: number | null;
  concurrency: number;
  problemCount: number;
  languages: LanguageId[];
  createdAt: number;
  /** When the run (or its latest continuation) started. */
  startedAt: number;
  finishedAt: number | null;
  state: StoredRunState;
  error: string | null;
  counts: RunCounts;
  /** Samples per problem (absent: 1). */
  samples?: number;
  /** Refinement turns (absent: 1). */
  turns?: number;
  /** Which test output is fed back between turns (absent: 'demo'). */
  feedback?: FeedbackSource;
  /** Completion mode (absent: chat). */
  completion?: boolean;
  /** sha256 (hex) of the dataset file's bytes, for the manifest (absent in older runs). */
  datasetSha256?: string;
  /** The language / difficulty / first-N filters the problems were selected with. */
  /**
   * Records of the dataset that repeated a question, and whether all or only the first copies
   * were kept. Absent in runs stored before records that share a question got ids of their own
   * (legacy.ts reads those).
   */
  duplicates?: ManifestDuplicates;
  selection?: { languages: string[]; difficulties: string[]; limit?: number; sample?: SubsetPlan; /** Only the Lite file's problems. */ liteOnly?: true };
}

/** A model answer, stored before it is evaluated. */
export interface StoredAnswer {
  output: string;
  /** A canonical solution: code, not an answer to extract from. */
  isCode?: boolean;
  usage?: TokenUsage;
  reasoning?: string;
  receivedAt: number;
}

export interface RunStore {
  /** Every run, newest first. */
  listRuns(): Promise<RunRecord[]>;
  getRun(id: string): Promise<RunRecord | undefined>;
  /** Stores a new run with the problems it evaluates (so it can be continued without the dataset). */
  createRun(run: RunRecord, problems: readonly Problem[]): Promise<void>;
  /** Changes some fields of a run; returns the run as stored. */
  updateRun(id: string, patch: Partial<Omit<RunRecord, 'id' | 'counts'>>): Promise<RunRecord>;
  deleteRun(id: string): Promise<void>;
  problems(runId: string): Promise<Problem[]>;
  /** Stores the answer of one attempt; `key` is `resultKey(problemId, sample, turn)`. */
  putAnswer(runId: string, key: string, answer: StoredAnswer): Promise<void>;
  /** The run's answers by `resultKey(problemId, sample, turn)` (the bare problem id for a first attempt). */
  answers(runId: string): Promise<Map<string, StoredAnswer>>;
  /**
   * Stores (or replaces) the result of one (problem, sample, turn) and updates the run's counts in
   * the same step. Every result of the run, in no particular order, from `results`.
   */
  putResult(runId: string, result: AttemptResult): Promise<void>;
  results(runId: string): Promise<AttemptResult[]>;
}

export const emptyCounts = (): RunCounts => ({
  evaluated: 0, counted: 0, passed: 0, infraErrors: 0, unsupported: 0, attempts: 0, inputTokens: 0, outputTokens: 0, reasoningTokens: 0,
});

/**
 * Adds (sign 1) or removes (sign -1) one result's contribution to the counts: every result's
 * tokens; the problem counts only for a first attempt (sample 0, turn 1).
 */
export function applyResult(counts: RunCounts, result: AttemptResult, sign: 1 | -1 = 1): RunCounts {
  if (counts.attempts !== undefined) counts.attempts += sign;
  if (sampleOf(result) === 0 && turnOf(result) === 1) {
    counts.evaluated += sign;
    if (result.verdict === 'infra_error') counts.infraErrors += sign;
    else if (result.verdict === 'unsupported') counts.unsupported += sign;
    else {
      counts.counted += sign;
      if (result.verdict === 'passed') counts.passed += sign;
    }
  }
  if (result.usage) {
    counts.inputTokens += sign * result.usage.inputTokens;
    counts.outputTokens += sign * result.usage.outputTokens;
    counts.reasoningTokens += sign * (result.usage.reasoningTokens ?? 0);
  }
  return counts;
}

export function countsOf(results: Iterable<AttemptResult>): RunCounts {
  const counts = emptyCounts();
  for (const r of results) applyResult(counts, r);
  return counts;
}

/** A fresh, random run id. */
export function newRunId(): string {
  return globalThis.crypto.randomUUID();
}
