/**
 * A run's files for download: the official format (input records with `output`, which the
 * official tools re-score), per-attempt results as JSONL (the CLI's --out lines, which the CLI can
 * replay or resume) and CSV, and a manifest that says how the run was made and lets someone else
 * reproduce its figures (src/core/manifest.ts, the CLI's shape, plus what the page knows of the
 * run). None of them holds the API key: they are built only from the stored run, which never holds it.
 */
import { version as appVersion } from '../../../package.json';
import { FEEDBACK_LIMIT } from '../../core/feedback';
import { buildManifest } from '../../core/manifest';
import { SYSTEM_PROMPT } from '../../core/prompt';
import type { Problem } from '../../contracts';
import { attemptsOf as attemptsOfProblem, orderAttempts } from '../../core/chains';
import { resultKey, sampleOf, turnOf, type AttemptResult } from '../../core/results';
import { costOf } from '../../models/usage';
import { problemTitle } from '../../core/title';
import { outputOf, resultFields, resultLine } from '../../core/result-file';
import type { RunRecord, StoredAnswer } from '../../store/types';

export interface RunData {
  run: RunRecord;
  problems: readonly Problem[];
  /** By resultKey(problem id, sample, turn): the bare problem id for a first attempt. */
  results: ReadonlyMap<string, AttemptResult>;
  /** By resultKey(problem id, sample, turn), like the results. */
  answers: ReadonlyMap<string, StoredAnswer>;
}

/** The run asked for several samples or turns: its lines name their sample and turn. */
const isMulti = (run: RunRecord) => (run.samples ?? 1) > 1 || (run.turns ?? 1) > 1;

/** Every result of a problem, by sample then turn. */
function attemptsOf(data: RunData, problem: Problem): AttemptResult[] {
  if (!isMulti(data.run)) {
    const r = data.results.get(problem.id);
    return r ? [r] : [];
  }
  return attemptsOfProblem(data.results.values(), problem.id);
}

/** Every result in input order of the problems, then by sample and turn. */
function orderedResults(data: RunData): AttemptResult[] {
  if (!isMulti(data.run)) return data.problems.map((p) => data.results.get(p.id)).filter((r): r is AttemptResult => !!r);
  return orderAttempts(data.problems, data.results.values());
}

/**
 * The answer text of a problem's first attempt (sample 0, turn 1): from its result, else the
 * stored answer (not for canonical solutions). The official format holds one answer per record.
 */
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

/**
 * One line per evaluated problem, or per (problem, sample, turn) in a run with several samples or
 * turns: record, id, output and the result fields (the CLI's --out format).
 */
export function resultsJsonl(data: RunData): string {
  const multi = isMulti(data.run);
  return data.problems
    .flatMap((p) =>
      attemptsOf(data, p).map((r) => {
        const answer = r.answer !== null ? outputOf(r) : data.answers.get(resultKey(p.id, sampleOf(r), turnOf(r)))?.output;
        return resultLine(p, multi ? answer : answerOf(data, p), resultFields(r, multi)) + '\n';
      }),
    )
    .join('');
}

const CSV_COLUMNS = [
  'id', 'index', 'title', 'language', 'difficulty', 'verdict', 'passed', 'demo_outcome', 'full_outcome', 'runtime',
  'duration_ms', 'run_ms', 'wait_ms', 'input_tokens', 'output_tokens', 'reasoning_tokens', 'error',
] as const;
/** A run with several samples or turns also names them, after `index`. */
const CSV_MULTI_COLUMNS = ['id', 'index', 'sample', 'turn', ...CSV_COLUMNS.slice(2)] as const;

/**
 * RFC 4180: quote a field that holds a comma, a quote or a line break; double the quotes. Text that
 * a spreadsheet would read as a formula (it starts with `=`, `+`, `-`, `@`, tab or CR: ids, answers'
 * error messages and runtimes come from datasets and models) gets a leading `'` and quotes, as
 * OWASP's CSV-injection advice says. Numbers are ours and stay numbers.
 */
export function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) return `"'${text.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function resultsCsv(data: RunData): string {
  const columns = isMulti(data.run) ? CSV_MULTI_COLUMNS : CSV_COLUMNS;
  const rows = data.problems
    .flatMap((p) => attemptsOf(data, p).map((r) => [p, r] as const))
    .map(([p, r]) => {
      const f = resultFields(r);
      const row: Record<(typeof CSV_MULTI_COLUMNS)[number], unknown> = {
        id: p.id,
        index: p.index,
        sample: sampleOf(r),
        turn: turnOf(r),
        title: problemTitle(p.record.question),
        language: p.language,
        difficulty: p.difficulty,
        verdict: f.verdict,
        passed: f.passed,
        demo_outcome: f.demo_outcome,
        full_outcome: f.full_outcome,
        runtime: f.runtime,
        duration_ms: f.duration_ms,
        run_ms: f.run_ms,
        wait_ms: f.wait_ms,
        input_tokens: r.usage?.inputTokens,
        output_tokens: r.usage?.outputTokens,
        reasoning_tokens: r.usage?.reasoningTokens,
        error: f.error,
      };
      return columns.map((c) => csvField(row[c])).join(',');
    });
  return [columns.join(','), ...rows].map((l) => l + '\r\n').join('');
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Where the page runs, for the manifest's `environment`. */
export function browserEnvironment(): Record<string, string> {
  const nav = (globalThis as { navigator?: { userAgent?: string } }).navigator;
  return { app: `benchtop ${appVersion} (web page)`, ...(nav?.userAgent ? { browser: nav.userAgent } : {}) };
}

/**
 * How the run was made and what it found: the shared manifest (src/core/manifest.ts, the CLI's
 * `--out … .manifest.json` shape: dataset hash, model, settings, runtimes, every figure) plus what
 * the page knows of the run (its id, the answer source, provider preset, usage and cost, dates).
 * Never the key.
 */
export function manifest(data: RunData, environment: Record<string, string> = browserEnvironment()): Record<string, unknown> {
  const { run } = data;
  const results = orderedResults(data);
  const runtimes = [...new Set(results.flatMap((r) => [r.demo?.runtime, r.full?.runtime]).filter((r): r is string => !!r && r !== 'pre-check'))].sort();
  const source = run.source;
  const ps = source.kind === 'provider' ? source.settings : null;
  const systemPrompt = ps ? ps.systemPrompt : SYSTEM_PROMPT;
  const { sample, ...selection } = run.selection ?? { languages: [...run.languages], difficulties: [] };
  const shared = buildManifest({
    datasetSource: run.datasetSource,
    // The page keeps the file's hash, not the file: the hash is put in below.
    datasetText: '',
    problems: run.problemCount,
    ...(run.duplicates ? { duplicates: run.duplicates } : {}),
    selection,
    ...(sample ? { sample } : {}),
    model: run.modelId,
    ...(ps ? { provider: { kind: ps.kind, baseUrl: ps.baseUrl, model: ps.model } } : {}),
    settings: {
      samples: run.samples ?? 1,
      turns: run.turns ?? 1,
      feedback: run.feedback ?? 'demo',
      feedbackChars: FEEDBACK_LIMIT,
      ...(ps?.temperature !== undefined ? { temperature: ps.temperature } : {}),
      ...(ps?.topP !== undefined ? { topP: ps.topP } : {}),
      ...(ps?.maxTokens !== undefined ? { maxTokens: ps.maxTokens } : {}),
      systemPrompt,
      completion: Boolean(run.completion ?? ps?.completion),
      extractionMode: run.mode,
      timeLimitSeconds: run.timeLimitSeconds,
    },
    runtimes,
    environment,
    results,
    created: iso(run.createdAt)!,
  });
  const prices = source.kind === 'provider' ? source.prices : undefined;
  const cost = costOf(run.counts, prices);
  return {
    ...shared,
    dataset: {
      ...shared.dataset,
      // null: the run was stored before the page kept dataset hashes.
      sha256: run.datasetSha256 ?? null,
      name: run.datasetName,
      languages: run.languages,
    },
    provider: ps && source.kind === 'provider' ? { ...shared.provider, preset: source.presetId, name: source.presetName } : null,
    settings: {
      ...shared.settings,
      ...(ps ? { stream: ps.stream, ...(ps.maxTokensField ? { max_tokens_field: ps.maxTokensField } : {}) } : {}),
      concurrency: run.concurrency,
    },
    run_id: run.id,
    model_label: run.modelLabel,
    answers_from: source.kind,
    ...(source.kind === 'answers-file' ? { answers_file: source.name } : {}),
    state: run.state,
    started: iso(run.startedAt),
    finished: iso(run.finishedAt),
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
