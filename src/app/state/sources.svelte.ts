/**
 * The answer sources: which one answers a new run (canonical solutions, recorded answers, the
 * dataset's own outputs, an answers file, or a model provider), what a run stores about it, and
 * the model that answers for a stored run.
 */
import { IdAssigner, ownId, problemId } from '../../core/ids';
import { normalizeLanguage, type AnswerSource, type Problem } from '../../contracts';
import { canonicalModel } from '../../models/canonical';
import { createProviderModel, ProviderSettingsError, type Prices, type ProviderHooks } from '../../models/providers';
import { parseAnswers, replayAnswersModel, replayOwnOutputModel, type RecordedAnswer } from '../../models/replay';
import type { RunRecord, RunSource } from '../../store/types';
import { readFile } from '../lib/load';
import type { Dataset } from './dataset.svelte';
import { demoAnswersText, demoMultiAnswers, DEMO_ANSWERS_NAME, DEMO_MULTI_ANSWERS_NAME } from './demo';
import { ProviderForm } from './provider.svelte';

export interface AnswersFile {
  name: string;
  answers: RecordedAnswer[];
  errors: string[];
}

export type ModelChoice = 'canonical' | 'demo-answers' | 'demo-answers-multi' | 'dataset-output' | 'answers-file' | 'provider';

const MODEL_CHOICE_KEY = 'benchtop.model-choice';

/** The answer source chosen last time, when it is one that needs no file. */
function savedModelChoice(): ModelChoice | null {
  try {
    const saved = localStorage.getItem(MODEL_CHOICE_KEY);
    return saved === 'canonical' || saved === 'demo-answers' || saved === 'demo-answers-multi' || saved === 'provider' ? saved : null;
  } catch {
    return null;
  }
}

function saveModelChoice(choice: ModelChoice): void {
  try {
    if (choice === 'canonical' || choice === 'demo-answers' || choice === 'demo-answers-multi' || choice === 'provider') localStorage.setItem(MODEL_CHOICE_KEY, choice);
  } catch {
    /* storage disabled */
  }
}

function describeAnswers(name: string, text: string): AnswersFile {
  const { answers, errors } = parseAnswers(text);
  if (answers.length === 0) {
    throw new Error(`Could not load answers from ${name}: no line has an "output" text${errors[0] ? ` (${errors[0]})` : ''}`);
  }
  // A file in the official format (input records + output) has no ids: each line's problem is
  // known from its language and question, as in the dataset, so a subset still matches.
  let n = 0;
  // Copies of one question get the ids the dataset gives them (-2, -3, … by order).
  const ids = new IdAssigner(answers.flatMap((a) => (a.id ? [a.id] : [])));
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    let line: { output?: unknown; question?: unknown; language?: unknown };
    try {
      line = JSON.parse(raw) as typeof line;
    } catch {
      continue;
    }
    if (typeof line?.output !== 'string') continue;
    const answer = answers[n++];
    const language = typeof line.language === 'string' ? normalizeLanguage(line.language) : null;
    if (!answer || answer.id) continue;
    // A record's task_id is its id, as in the dataset.
    const own = ownId(line as Record<string, unknown>);
    if (own !== undefined) answer.id = own;
    else if (language && typeof line.question === 'string') answer.id = ids.next(problemId(language, line.question));
  }
  return { name, answers, errors };
}

export class AnswerSources {
  modelChoice = $state<ModelChoice>('canonical');
  answersFile = $state.raw<AnswersFile | null>(null);
  answersError = $state<string | null>(null);
  /** The recorded answers that ship with the demo set. */
  readonly demoAnswers = parseAnswers(demoAnswersText);
  /** The "Model provider" settings (the key stays in its memory). */
  readonly provider = new ProviderForm();

  /** `dataset`: the dataset in use (whose records may carry their own answers). */
  constructor(private readonly dataset: () => Dataset) {
    this.modelChoice = savedModelChoice() ?? this.modelChoice;
    $effect.root(() => {
      $effect(() => saveModelChoice(this.modelChoice));
    });
  }

  /** A new dataset is in use: its own answers cannot be chosen if it has none. */
  datasetChanged(dataset: Dataset): void {
    if (this.modelChoice === 'dataset-output' && !dataset.hasOutput) this.modelChoice = 'canonical';
  }

  get modelOptions(): Array<{ value: ModelChoice; label: string }> {
    const options: Array<{ value: ModelChoice; label: string }> = [
      { value: 'canonical', label: 'Canonical solutions (self-check)' },
      { value: 'demo-answers', label: 'Recorded demo answers' },
      { value: 'demo-answers-multi', label: 'Recorded demo answers (several samples and turns)' },
      { value: 'provider', label: 'Model provider (your API key)' },
    ];
    if (this.dataset().hasOutput) options.push({ value: 'dataset-output', label: 'Answers in the dataset (output field)' });
    if (this.answersFile) options.push({ value: 'answers-file', label: `Answers from ${this.answersFile.name} (${this.answersFile.answers.length})` });
    return options;
  }

  get modelLabel(): string {
    if (this.modelChoice === 'provider') return this.provider.label;
    return this.modelOptions.find((o) => o.value === this.modelChoice)?.label ?? this.modelChoice;
  }

  /**
   * What a new run stores about where its answers come from. Recorded answers from a file keep
   * only those of the run's problems, by problem id, so the run can be continued without the file.
   */
  sourceFor(problems: readonly Problem[]): RunSource {
    switch (this.modelChoice) {
      case 'canonical':
      case 'demo-answers':
      case 'demo-answers-multi':
      case 'dataset-output':
        return { kind: this.modelChoice };
      case 'answers-file': {
        const file = this.answersFile;
        if (!file) throw new Error('no answers file loaded');
        // Every recorded sample and turn of the run's problems (by id), else the line-order answers.
        const withIds = file.answers.some((a) => a.id);
        const wanted = new Set(problems.map((p) => p.id));
        const answers: RecordedAnswer[] = withIds
          ? file.answers.filter((a) => a.id && wanted.has(a.id)).map((a) => ({ ...a }))
          : problems
              .map((p) => ({ id: p.id, output: file.answers[p.index]?.output }))
              .filter((a): a is { id: string; output: string } => a.output !== undefined);
        return { kind: 'answers-file', name: file.name, answers };
      }
      case 'provider': {
        const why = this.provider.problems;
        if (why.length) throw new Error(why.join(' '));
        return this.provider.runSource();
      }
    }
  }

  /** The model id a new run with this source stores. */
  modelIdFor(source: RunSource): string {
    if (source.kind === 'provider') return this.provider.settings().id!;
    if (source.kind === 'demo-answers') return `replay:${DEMO_ANSWERS_NAME}`;
    if (source.kind === 'demo-answers-multi') return `replay:${DEMO_MULTI_ANSWERS_NAME}`;
    if (source.kind === 'answers-file') return `replay:${source.name}`;
    if (source.kind === 'dataset-output') return 'replay';
    return source.kind;
  }

  /** The model that answers for a stored run (a provider's with this page's key for it). */
  async modelFor(record: RunRecord, hooks: ProviderHooks): Promise<{ model: AnswerSource; prices?: Partial<Prices> }> {
    const source = record.source;
    switch (source.kind) {
      case 'canonical':
        return { model: canonicalModel };
      case 'demo-answers':
        return { model: replayAnswersModel(DEMO_ANSWERS_NAME, this.demoAnswers.answers) };
      case 'demo-answers-multi':
        return { model: replayAnswersModel(DEMO_MULTI_ANSWERS_NAME, await demoMultiAnswers()) };
      case 'dataset-output':
        return { model: replayOwnOutputModel };
      case 'answers-file':
        return { model: replayAnswersModel(source.name, source.answers) };
      case 'provider': {
        if (!this.provider.hasKeyFor(source)) {
          // Show that provider in the form, so the key typed next is the one for it.
          this.provider.applyRunSource(source);
          this.modelChoice = 'provider';
          throw new Error(`Enter your API key for ${source.presetName} in the Model panel (it is kept in memory only), then press Continue (or Retry errors) again.`);
        }
        const settings = this.provider.settingsFor(source, record.modelId);
        try {
          const model = createProviderModel(settings, hooks);
          return { model, prices: source.prices };
        } catch (e) {
          if (e instanceof ProviderSettingsError) throw new Error(`Check the provider settings: ${e.message}`);
          throw e;
        }
      }
    }
  }

  async loadAnswersFile(file: File): Promise<void> {
    this.answersError = null;
    try {
      const text = await readFile(file, () => {});
      this.answersFile = describeAnswers(file.name, text);
      this.modelChoice = 'answers-file';
    } catch (e) {
      this.answersError = (e as Error).message;
    }
  }
}
