/** The settings a new run is made with: extraction mode, parallelism, time limit, samples, turns, feedback. */
import type { ExtractionMode } from '../../core/extract';
import type { FeedbackSource } from '../../core/feedback';
import type { AnswerSources } from './sources.svelte';

export class RunSettings {
  mode = $state<ExtractionMode>('compat');
  /** Programs in parallel with the canonical/recorded models: one per core (the input allows 1–16). */
  concurrency = $state(Math.min(16, Math.max(1, globalThis.navigator?.hardwareConcurrency || 2)));
  /** Per-run time limit in seconds; null = the official limit of each language. */
  timeLimitSeconds = $state<number | null>(null);
  /** Samples per problem (n): pass@k for each k ≤ n among 1, 5, 10. */
  samples = $state(1);
  /** Refinement turns: after a failing run the model gets its answer and the test output back. */
  turns = $state(1);
  /** What is fed back between turns: the public (demo) test's output only, or the full tests'. */
  feedback = $state<FeedbackSource>('demo');

  /** The provider has settings of its own (parallel requests, completion mode). */
  constructor(private readonly sources: AnswerSources) {}

  /** Samples a new run asks for (a whole number from 1 to 100). */
  get activeSamples(): number {
    return Math.min(100, Math.max(1, Math.floor(this.samples) || 1));
  }

  /** Turns a new run allows (1 to 10); completion mode has a single turn. */
  get activeTurns(): number {
    if (this.sources.modelChoice === 'provider' && this.sources.provider.completionActive) return 1;
    return Math.min(10, Math.max(1, Math.floor(this.turns) || 1));
  }

  /** Parallel problems for the chosen source: the provider's own setting, or the general one. */
  get activeConcurrency(): number {
    const n = this.sources.modelChoice === 'provider' ? this.sources.provider.concurrency : this.concurrency;
    return Math.max(1, Math.floor(n) || 1);
  }
}
