/**
 * A run's files for download: the official format (input records with `output`, which the
 * official tools re-score), per-problem results as JSONL (the CLI's --out lines, which the CLI can
 * replay or resume) and CSV, and a manifest that says how the run was made. None of them holds
 * the API key: they are built only from the stored run, which never holds it.
 */
import { version as appVersion } from '../../../package.json';
import { SYSTEM_PROMPT } from '../../core/prompt';
import { summarize } from '../../core/metrics';
import type { Problem } from '../../core/records';
import type { ProblemResult } from '../../core/results';
import { costOf } from '../../models/usage';
import { outputOf, resultFields, resultLine } from '../../core/result-file';
import type { RunRecord, StoredAnswer } from '../../store/types';

export interface RunData {
  run: RunRecord;
  problems: readonly Problem[];
  /** By problem id. */
  results: ReadonlyMap<string, ProblemResult>;
  /** By problem id. */
  answers: ReadonlyMap<string, StoredAnswer>;
}

/** The answer text of a problem: from its result, else the stored answer (not for canonical solutions). */
function answerOf(data: RunData, problem: Problem): string | undefined {
  const result = data.results.get(problem.id);
  if (result) return outputOf(result);
  const stored = data.answers.get(problem.id);
  return stored && !stored.isCode ? stored.output : undefined;
}

/** Input records with the model's answer in `output`, in input order (problems without an answer are left out). */
export function officialJsonl(data: RunData): string {
  return data.problems
    .map((p) => [p, answerOf(data, p)] as const)
    .filter(([, output]) => output !== undefined)
    .map(([p, output]) => JSON.stringify({ ...p.record, output }) + '\n')
    .join('');
}

/** One line per evaluated problem: record, id, output and the result fields (the CLI's --out format). */
export function resultsJsonl(data: RunData): string {
  return data.problems
    .filter((p) => data.results.has(p.id))
    .map((p) => resultLine(p, answerOf(data, p), resultFields(data.results.get(p.id)!)) + '\n')
    .join('');
}

const CSV_COLUMNS = [
  'id', 'index', 'language', 'difficulty', 'verdict', 'passed', 'demo_outcome', 'full_outcome', 'runtime',
  'duration_ms', 'input_tokens', 'output_tokens', 'reasoning_tokens', 'error',
] as const;

/** RFC 4180: quote a field that holds a comma, a quote or a line break; double the quotes. */
export function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function resultsCsv(data: RunData): string {
  const rows = data.problems
    .filter((p) => data.results.has(p.id))
    .map((p) => {
      const r = data.results.get(p.id)!;
      const f = resultFields(r);
      const row: Record<(typeof CSV_COLUMNS)[number], unknown> = {
        id: p.id,
        index: p.index,
        language: p.language,
        difficulty: p.difficulty,
        verdict: f.verdict,
        passed: f.passed,
        demo_outcome: f.demo_outcome,
        full_outcome: f.full_outcome,
        runtime: f.runtime,
        duration_ms: f.duration_ms,
        input_tokens: r.usage?.inputTokens,
        output_tokens: r.usage?.outputTokens,
        reasoning_tokens: r.usage?.reasoningTokens,
        error: f.error,
      };
      return CSV_COLUMNS.map((c) => csvField(row[c])).join(',');
    });
  return [CSV_COLUMNS.join(','), ...rows].map((l) => l + '\r\n').join('');
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** How the run was made and what it found. Never the key. */
export function manifest(data: RunData): Record<string, unknown> {
  const { run } = data;
  const results = [...data.results.values()];
  const summary = summarize(results);
  const runtimes = [...new Set(results.flatMap((r) => [r.demo?.runtime, r.full?.runtime]).filter((r): r is string => !!r && r !== 'pre-check'))].sort();
  const source = run.source;
  const provider =
    source.kind === 'provider'
      ? {
          preset: source.presetId,
          name: source.presetName,
          wire_format: source.settings.kind,
          base_url: source.settings.baseUrl,
          model: source.settings.model,
        }
      : null;
  const settings =
    source.kind === 'provider'
      ? {
          temperature: source.settings.temperature ?? null,
          top_p: source.settings.topP ?? null,
          max_tokens: source.settings.maxTokens ?? null,
          stream: source.settings.stream,
          ...(source.settings.maxTokensField ? { max_tokens_field: source.settings.maxTokensField } : {}),
        }
      : null;
  const systemPrompt = source.kind === 'provider' ? source.settings.systemPrompt : SYSTEM_PROMPT;
  const prices = source.kind === 'provider' ? source.prices : undefined;
  const cost = costOf(run.counts, prices);
  return {
    format: 'benchtop run manifest',
    format_version: 1,
    app: `benchtop ${appVersion}`,
    run_id: run.id,
    model: run.modelId,
    model_label: run.modelLabel,
    answers_from: source.kind,
    ...(source.kind === 'answers-file' ? { answers_file: source.name } : {}),
    provider,
    settings,
    system_prompt: systemPrompt,
    system_prompt_is_official: systemPrompt === SYSTEM_PROMPT,
    concurrency: run.concurrency,
    mode: run.mode,
    time_limit_seconds: run.timeLimitSeconds,
    dataset: { name: run.datasetName, source: run.datasetSource, problems: run.problemCount, languages: run.languages },
    runtimes,
    created: iso(run.createdAt),
    started: iso(run.startedAt),
    finished: iso(run.finishedAt),
    state: run.state,
    summary: {
      pass1: Number.isNaN(summary.pass1) ? null : summary.pass1,
      passed: summary.passed,
      counted: summary.total,
      evaluated: results.length,
      infra_errors: summary.infraErrors,
      unsupported: summary.unsupported,
      per_language: summary.perLanguage.map((l) => ({
        language: l.language,
        pass1: Number.isNaN(l.pass1) ? null : l.pass1,
        passed: l.passed,
        counted: l.total,
        infra_errors: l.infraErrors,
      })),
    },
    usage: {
      input_tokens: run.counts.inputTokens,
      output_tokens: run.counts.outputTokens,
      reasoning_tokens: run.counts.reasoningTokens,
      ...(prices ? { prices_per_million_tokens: prices } : {}),
      estimated_cost_usd: cost ?? null,
    },
  };
}

/** A file name stem for a run: `benchtop-<model>-<dataset>-<date>`. */
export function fileStem(run: RunRecord): string {
  const safe = (s: string) => s.replace(/\.jsonl?$/i, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  const date = new Date(run.createdAt).toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return `benchtop-${safe(run.modelId)}-${safe(run.datasetName)}-${date}`;
}

/** Saves text as a file through the browser's download. */
export function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
