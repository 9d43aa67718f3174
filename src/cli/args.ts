/** Command-line arguments of `npm run eval`. */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import type { ExtractionMode } from '../core/extract';
import type { FeedbackSource } from '../core/feedback';
import { normalizeLanguage } from '../contracts';
import { DUPLICATE_CHOICES, type DuplicateChoice } from '../core/records';
import { findPreset, PRESETS } from '../models/providers/presets';

export const USAGE = `usage: npm run eval -- --data <file-or-url> --model <model> [options]

models:
  canonical | replay | replay:<answers.jsonl>     reference solutions, or recorded answers
  openai:<model>      OpenAI-compatible chat completions (any server: give --base-url)
  anthropic:<model>   Anthropic Messages        gemini:<model>   Google Gemini
  ${PRESETS.filter((p) => !['openai', 'anthropic', 'gemini'].includes(p.id)).map((p) => `${p.id}:<model>`).join('  ')}
                      presets: their base URL and key variable (e.g. GROQ_API_KEY)

problems:
  [--languages python,javascript] [--difficulty easy,medium] [--limit N]
  [--duplicates keep-all|keep-first]   records that repeat a question: each evaluated (default), or the first only
  [--sample-per-language K [--seed S (default 1)] [--per-difficulty]]
                            a seeded random sample of K problems per language (per language and
                            difficulty); prints the full-benchmark estimate with its 95% interval
  [--mode compat|strict] [--concurrency N] [--timeout SECONDS]

provider (real models):
  [--base-url URL]          default: the provider's (OpenAI https://api.openai.com/v1, …)
  [--api-key-env VAR]       environment variable holding the key (default OPENAI_API_KEY,
                            ANTHROPIC_API_KEY, GEMINI_API_KEY, …); the key is never written anywhere
  [--temperature T] [--top-p P] [--max-tokens N (default 8192)] [--system-prompt-file FILE]
  [--stream] [--attempts N (default 5)] [--retry-delay SECONDS (default 1)]
  [--request-timeout SECONDS (default 600)] [--price-in USD] [--price-out USD] (per million tokens)

runtimes:
  [--runner URL]...         remote runner(s) (npm run runner) for languages without an in-browser
                            runtime; repeat to spread the load
  [--runner-token TOKEN]    the runners' bearer token (default: the RUNNER_TOKEN variable)

samples, refinement, completion:
  [--samples N]             N answers per problem (use --temperature above 0); prints pass@k for k = 1, 5, 10 up to N
  [--turns T]               up to T turns: a failing answer gets its test output back and another try (paper: 3);
                            prints Pass@1 after each turn
  [--feedback demo|full]    what is fed back: the public (demo) test run only (default), or the full tests too
  [--completion]            completion mode (AutoCodeBench-Complete, base models): /v1/completions, plain prompt,
                            stop string [Code Solution End]; OpenAI-compatible servers only

results:
  [--out results.jsonl]     also journals every answer and result to results.jsonl.journal.jsonl and writes
                            the run's manifest to results.jsonl.manifest.json
  [--charts DIR]            writes the charts (languages, difficulty, refinement, passk) as SVG and PNG, and manifest.json
  [--lite FILE]             a Lite dataset (e.g. autocodebench_lite.jsonl): adds Pass@1 of its problems vs the rest
  [--resume]                continue the run in --out and its journal; answered problems are not asked again
  [--retry-errors]          re-run only the problems whose result in --out is INFRA_ERROR`;

export interface ProviderChoice {
  /** A preset id (openai, anthropic, gemini, openrouter, groq, …). */
  preset: string;
  model: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  systemPromptFile?: string;
  stream: boolean;
  attempts: number;
  retryDelaySeconds: number;
  requestTimeoutSeconds: number;
  priceIn?: number;
  priceOut?: number;
}

export interface CliOptions {
  data: string;
  model: string;
  /** Set when --model names a provider. */
  provider?: ProviderChoice;
  languages: string[];
  difficulties: string[];
  limit?: number;
  mode: ExtractionMode;
  concurrency: number;
  /** Overrides the official per-language time limit. */
  timeoutSeconds?: number;
  out?: string;
  /** Remote runner base URLs (--runner, repeatable). */
  runners: string[];
  runnerToken?: string;
  resume: boolean;
  retryErrors: boolean;
  /** Answers per problem (--samples, default 1). */
  samples: number;
  /** Refinement turns (--turns, default 1). */
  turns: number;
  feedback: FeedbackSource;
  /** Completion mode (--completion). */
  completion: boolean;
  /** Directory for the charts (--charts). */
  charts?: string;
  /** A Lite dataset whose problems are compared with the rest (--lite). */
  lite?: string;
  /** Records that repeat a question: all evaluated, or only the first copy (--duplicates). */
  duplicates: DuplicateChoice;
  /** --sample-per-language K --seed S [--per-difficulty]. */
  sample?: { perStratum: number; seed: number; byDifficulty: boolean };
}

export class UsageError extends Error {}

const list = (v: string | undefined) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);

function positiveInteger(name: string, value: string | undefined, allowZero = false): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < (allowZero ? 0 : 1)) throw new UsageError(`--${name} must be a whole number${allowZero ? '' : ' above 0'}, got "${value}"`);
  return n;
}

function numberIn(name: string, value: string | undefined, min: number, max: number, minExclusive = false): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max || (minExclusive && n === min)) {
    throw new UsageError(`--${name} must be a number ${minExclusive ? 'above' : 'from'} ${min}${Number.isFinite(max) ? ` to ${max}` : ''}, got "${value}"`);
  }
  return n;
}

const PROVIDER_FLAGS = ['base-url', 'api-key-env', 'temperature', 'top-p', 'max-tokens', 'system-prompt-file', 'stream', 'attempts', 'retry-delay', 'request-timeout', 'price-in', 'price-out'] as const;

export function parseCliArgs(argv: string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        data: { type: 'string' },
        model: { type: 'string' },
        languages: { type: 'string' },
        difficulty: { type: 'string' },
        limit: { type: 'string' },
        mode: { type: 'string', default: 'compat' },
        concurrency: { type: 'string' },
        timeout: { type: 'string' },
        out: { type: 'string' },
        runner: { type: 'string', multiple: true },
        'runner-token': { type: 'string' },
        resume: { type: 'boolean', default: false },
        'retry-errors': { type: 'boolean', default: false },
        'base-url': { type: 'string' },
        'api-key-env': { type: 'string' },
        temperature: { type: 'string' },
        'top-p': { type: 'string' },
        'max-tokens': { type: 'string' },
        'system-prompt-file': { type: 'string' },
        stream: { type: 'boolean' },
        attempts: { type: 'string' },
        'retry-delay': { type: 'string' },
        'request-timeout': { type: 'string' },
        'price-in': { type: 'string' },
        'price-out': { type: 'string' },
        samples: { type: 'string', default: '1' },
        turns: { type: 'string', default: '1' },
        feedback: { type: 'string' },
        completion: { type: 'boolean', default: false },
        charts: { type: 'string' },
        lite: { type: 'string' },
        duplicates: { type: 'string', default: 'keep-all' },
        'sample-per-language': { type: 'string' },
        seed: { type: 'string' },
        'per-difficulty': { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (!values.data) throw new UsageError('--data is required');
  if (!values.model) throw new UsageError('--model is required');
  const provider = parseProvider(values);
  if (!provider && !/^(canonical|replay|replay:.+)$/.test(values.model)) throw new UsageError(`unknown --model "${values.model}"`);
  if (!provider) {
    const stray = PROVIDER_FLAGS.filter((f) => values[f] !== undefined);
    if (stray.length) throw new UsageError(`--${stray[0]} applies only to provider models such as openai:<model>`);
  }
  if (values.mode !== 'compat' && values.mode !== 'strict') throw new UsageError(`--mode must be compat or strict, got "${values.mode}"`);
  const languages = list(values.languages);
  const unknown = languages.filter((l) => !normalizeLanguage(l));
  if (unknown.length) throw new UsageError(`unknown language${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  const difficulties = list(values.difficulty);
  const badDifficulty = difficulties.filter((d) => !['easy', 'medium', 'hard'].includes(d.toLowerCase()));
  if (badDifficulty.length) throw new UsageError(`--difficulty takes easy, medium, hard; got ${badDifficulty.join(', ')}`);
  const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeout !== undefined && !(timeout > 0)) throw new UsageError(`--timeout must be a number of seconds above 0, got "${values.timeout}"`);
  const runners = values.runner ?? [];
  const badRunner = runners.find((u) => !/^https?:\/\/[^/]/.test(u));
  if (badRunner !== undefined) throw new UsageError(`--runner must be an http(s) URL, got "${badRunner}"`);
  if ((values.resume || values['retry-errors']) && !values.out) throw new UsageError(`--${values.resume ? 'resume' : 'retry-errors'} needs --out (the run to continue)`);
  const samples = positiveInteger('samples', values.samples)!;
  const turns = positiveInteger('turns', values.turns)!;
  if (values.feedback !== undefined && values.feedback !== 'demo' && values.feedback !== 'full') throw new UsageError(`--feedback must be demo or full, got "${values.feedback}"`);
  if (values.feedback !== undefined && turns < 2) throw new UsageError('--feedback applies only with --turns above 1');
  if (values.completion) {
    if (!provider) throw new UsageError('--completion applies only to provider models such as openai:<model>');
    if (findPreset(provider.preset)!.kind !== 'openai') throw new UsageError(`--completion needs an OpenAI-compatible server (/v1/completions), not ${provider.preset}`);
    if (turns > 1) throw new UsageError('--completion has no conversation: --turns above 1 needs chat mode');
  }
  if (!DUPLICATE_CHOICES.includes(values.duplicates as DuplicateChoice)) throw new UsageError(`--duplicates must be keep-all or keep-first, got "${values.duplicates}"`);
  const sample = parseSample(values);
  if (sample && values.limit !== undefined) throw new UsageError('--limit and --sample-per-language do not combine: the sample is already the subset');
  return {
    data: values.data,
    model: values.model,
    ...(provider ? { provider } : {}),
    languages,
    difficulties,
    limit: positiveInteger('limit', values.limit, true),
    mode: values.mode,
    // Default: one problem per core (each language's worker pool is further capped by memory).
    concurrency: positiveInteger('concurrency', values.concurrency) ?? availableParallelism(),
    timeoutSeconds: timeout,
    out: values.out,
    runners,
    ...(values['runner-token'] ? { runnerToken: values['runner-token'] } : {}),
    resume: values.resume === true,
    retryErrors: values['retry-errors'] === true,
    samples,
    turns,
    feedback: (values.feedback ?? 'demo') as FeedbackSource,
    completion: values.completion === true,
    ...(values.charts ? { charts: values.charts } : {}),
    ...(values.lite ? { lite: values.lite } : {}),
    duplicates: values.duplicates as DuplicateChoice,
    ...(sample ? { sample } : {}),
  };
}

function parseSample(values: Values): CliOptions['sample'] {
  const k = values['sample-per-language'] as string | undefined;
  if (k === undefined) {
    if (values.seed !== undefined || values['per-difficulty']) throw new UsageError(`--${values.seed !== undefined ? 'seed' : 'per-difficulty'} applies only with --sample-per-language`);
    return undefined;
  }
  const raw = values.seed as string | undefined;
  const seed = raw === undefined ? 1 : raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isSafeInteger(seed)) throw new UsageError(`--seed must be a whole number, got "${values.seed}"`);
  return { perStratum: positiveInteger('sample-per-language', k)!, seed, byDifficulty: values['per-difficulty'] === true };
}

export type Values = Record<string, string | boolean | string[] | undefined>;

/** `<provider>:<model>`: the provider is a preset id; the model may itself hold colons (Ollama tags). */
export function parseProvider(values: Values): ProviderChoice | undefined {
  const spec = values.model as string;
  const colon = spec.indexOf(':');
  if (colon <= 0) return undefined;
  const preset = findPreset(spec.slice(0, colon));
  if (!preset) return undefined;
  const model = spec.slice(colon + 1);
  if (!model) throw new UsageError(`--model ${spec} names no model: give ${preset.id}:<model>, e.g. ${preset.id}:${preset.exampleModel}`);
  const baseUrl = values['base-url'] as string | undefined;
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL, got "${baseUrl}"`);
  const keyEnv = values['api-key-env'] as string | undefined;
  if (keyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv)) throw new UsageError(`--api-key-env takes the NAME of an environment variable, got "${keyEnv.slice(0, 3)}…"`);
  const str = (k: string) => values[k] as string | undefined;
  return {
    preset: preset.id,
    model,
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(keyEnv !== undefined ? { apiKeyEnv: keyEnv } : {}),
    temperature: numberIn('temperature', str('temperature'), 0, 2),
    topP: numberIn('top-p', str('top-p'), 0, 1, true),
    maxTokens: positiveInteger('max-tokens', str('max-tokens')),
    systemPromptFile: str('system-prompt-file'),
    stream: values.stream === true,
    attempts: positiveInteger('attempts', str('attempts')) ?? 5,
    retryDelaySeconds: numberIn('retry-delay', str('retry-delay'), 0, 3600) ?? 1,
    requestTimeoutSeconds: numberIn('request-timeout', str('request-timeout'), 0, 86_400, true) ?? 600,
    priceIn: numberIn('price-in', str('price-in'), 0, Infinity),
    priceOut: numberIn('price-out', str('price-out'), 0, Infinity),
  };
}
