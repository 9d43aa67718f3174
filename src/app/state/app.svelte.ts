/**
 * The page's state: one store per job, composed here and handed to components through Svelte
 * context (App.svelte calls provideApp, every component below it useApp). Components read the
 * stores and call their commands; they hold no state of their own beyond what is purely visual.
 */
import { getContext, setContext } from 'svelte';
import { DatasetStore } from './dataset.svelte';
import { GenerateStore } from './generate.svelte';
import { RunHistory } from './history.svelte';
import { RunStore } from './run.svelte';
import { Runtimes } from './runtimes.svelte';
import { RunSettings } from './settings.svelte';
import { AnswerSources } from './sources.svelte';
import { ViewState } from './view.svelte';

export class AppState {
  /** The page's runtimes, the remote runner settings and the routing between them. */
  readonly runtimes = new Runtimes();
  readonly view = new ViewState();
  /** Past runs (IndexedDB), interrupted runs, comparison. */
  readonly history = new RunHistory();
  readonly sources: AnswerSources;
  readonly settings: RunSettings;
  readonly dataset: DatasetStore;
  readonly run: RunStore;
  /** The Generate tab: seeds to a benchmark, through src/gen. */
  readonly generate: GenerateStore;

  constructor() {
    this.sources = new AnswerSources(() => this.dataset.current);
    this.settings = new RunSettings(this.sources);
    this.dataset = new DatasetStore(() => this.runtimes.runnable, (d) => {
      this.sources.datasetChanged(d);
      void this.runtimes.warmAhead(d.languageCounts.map(([l]) => l));
    });
    void this.runtimes.warmAhead(this.dataset.current.languageCounts.map(([l]) => l));
    this.run = new RunStore({ dataset: this.dataset, sources: this.sources, settings: this.settings, runtimes: this.runtimes, history: this.history, view: this.view });
    this.generate = new GenerateStore({ sources: this.sources, runtimes: this.runtimes, dataset: this.dataset, view: this.view });
  }

  /** A run is going on or starting: the set-up is locked. */
  get running(): boolean {
    return this.run.running;
  }

  /**
   * Imports a file in the official format (input records with the model's answer in `output`):
   * loads it as the dataset and re-scores its answers here, offline, as a new run.
   */
  async importAnswers(file: File): Promise<void> {
    if (this.running) return;
    this.view.page = 'evaluate';
    await this.dataset.loadFile(file);
    if (this.dataset.loadError) return;
    if (!this.dataset.current.hasOutput) {
      this.dataset.loadError = `${file.name} has no "output" field: it holds no answers to re-score (it is loaded as a dataset).`;
      return;
    }
    this.sources.modelChoice = 'dataset-output';
    await this.run.start();
  }
}

const KEY = Symbol('benchtop app state');

/** Creates the page's state and hands it to the components below the caller (App.svelte). */
export function provideApp(): AppState {
  return setContext(KEY, new AppState());
}

/** The page's state, in any component below App.svelte. */
export function useApp(): AppState {
  const app = getContext<AppState | undefined>(KEY);
  if (!app) throw new Error('useApp() outside App.svelte');
  return app;
}
