/**
 * The run the page shows, as a value: the stored record it is made of, plus what only this page
 * knows (whether a tab runs it, the latest error). Its figures are read from the record, never copied.
 */
import type { Problem } from '../../contracts';
import type { Prices } from '../../models/providers';
import type { LegacyIds } from '../../store/legacy';
import type { RunRecord } from '../../store/types';

const timeLimitText = (seconds: number | null) => (seconds ? `${seconds} s per run` : 'official per language');

/**
 * `interrupted`: stored as running, but no tab runs it (the tab was closed or reloaded);
 * `elsewhere`: another tab of this browser is running it.
 */
export type RunState = 'running' | 'stopping' | 'done' | 'stopped' | 'failed' | 'interrupted' | 'elsewhere';

/** What a run asked for: a stored record, or the settings of a run that could not start. */
export type RunHead = Pick<RunRecord, 'datasetName' | 'modelId' | 'modelLabel' | 'mode' | 'timeLimitSeconds' | 'concurrency' | 'samples' | 'turns' | 'startedAt' | 'finishedAt'>;

export class Run {
  private constructor(
    /** The run as stored; null for a run that could not start (it is not stored). */
    readonly record: RunRecord | null,
    private readonly head: RunHead,
    readonly problems: Problem[],
    readonly state: RunState,
    readonly error: string | null,
    /** Set for a run stored before records that repeat a question got ids of their own (store/legacy.ts). */
    readonly legacy: LegacyIds,
  ) {}

  static of(record: RunRecord, problems: Problem[], state: RunState, legacy: LegacyIds): Run {
    return new Run(record, record, problems, state, record.error, legacy);
  }

  /** A run that could not start: shown with its reason, not stored. */
  static failed(head: RunHead, problems: Problem[], error: string): Run {
    return new Run(null, head, problems, 'failed', error, null);
  }

  /** This run with a new state, error or stored record. */
  with(patch: { state?: RunState; error?: string | null; record?: RunRecord }): Run {
    const record = patch.record ?? this.record;
    return new Run(record, record ?? this.head, this.problems, patch.state ?? this.state, patch.error !== undefined ? patch.error : this.error, this.legacy);
  }

  /** The stored run's id; null for a run that could not start. */
  get id(): string | null {
    return this.record?.id ?? null;
  }
  get datasetName(): string {
    return this.head.datasetName;
  }
  get modelId(): string {
    return this.head.modelId;
  }
  get modelLabel(): string {
    return this.head.modelLabel;
  }
  get mode(): RunHead['mode'] {
    return this.head.mode;
  }
  get timeLimit(): string {
    return timeLimitText(this.head.timeLimitSeconds);
  }
  get concurrency(): number {
    return this.head.concurrency;
  }
  /** Samples per problem and refinement turns (1 and 1 for a classic run). */
  get samples(): number {
    return this.head.samples ?? 1;
  }
  get turns(): number {
    return this.head.turns ?? 1;
  }
  get startedAt(): number {
    return this.head.startedAt;
  }
  get finishedAt(): number | null {
    return this.head.finishedAt;
  }
}

/** Live figures of the run going on: provider requests, tokens, retries. */
export interface LiveCounters {
  /** Requests in flight (retries included). */
  inFlight: number;
  /** Answers received in this page, and requests that failed after their retries. */
  received: number;
  failed: number;
  retries: number;
  /** The latest retry, for the status line. */
  lastRetry: string | null;
  /** Tokens of the whole run (answers stored before this page included). */
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  prices?: Partial<Prices>;
}

export const emptyCounters = (): LiveCounters => ({ inFlight: 0, received: 0, failed: 0, retries: 0, lastRetry: null, inputTokens: 0, outputTokens: 0, reasoningTokens: 0 });
