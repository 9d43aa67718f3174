/**
 * `npm run generate`: builds a benchmark from seed code (issue #15) with the engine in src/gen,
 * the provider clients and the CLI's routed executor. Writes the AutoCodeBench JSONL (--out), its
 * journal (<out>.journal.jsonl, for --resume) and manifest (<out>.manifest.json, never a key).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AuthenticationError, normalizeLanguage, type LanguageId } from '../contracts';
import { funnelCounts, outputRecords, runFunnel, summaryLine, translationDrops, type Seed } from '../gen/funnel';
import { GEN_LANGUAGES } from '../gen/harness';
import { FileJournal } from '../gen/journal-file';
import { GEN_SYSTEM, PROMPT_VERSION, promptHashes } from '../gen/prompts';
import type { GenContext } from '../gen/stages';
import { parseProvider, UsageError } from './args';
import { ModelSetupError, providerModel, type CliModel } from './model';
import { createCliExecutor, RunnerSetupError } from './runtimes';

const USAGE = `usage: npm run generate -- --seeds FILE --language python --model openai:<model> [options]
  --seeds FILE            JSONL of {"language", "code"} records (others' languages are skipped)
  --language L            ${GEN_LANGUAGES.join(' | ')}
  --model P:M             the generator (any provider preset, as for npm run eval)
  [--base-url URL] [--api-key-env VAR]   the generator's, and a critic's or difficulty model's on the same provider
  [--critic-model P:M]    judges statement/test consistency (default: --model); any provider (openai:, anthropic:, gemini:, …)
  [--critic-base-url URL] [--critic-api-key-env VAR]           the critic's own (default: its provider's)
  [--critic-threshold N]  keep scores at or above N of 10 (default 6)
  [--difficulty-model P:M] answers each problem --samples times: 0 solved hard, 1-5 medium, more easy
  [--difficulty-base-url URL] [--difficulty-api-key-env VAR]   the difficulty model's own
  [--samples K]           (default 10)    [--drop-always-solved]
  [--translate-to L,L]    stage 6: translate each kept problem into these languages, verified by execution
  [--runner URL]...       remote runner(s) (npm run runner) for languages without an in-page runtime (go)
  [--runner-token TOKEN]  the runners' bearer token (default: the RUNNER_TOKEN variable)
  [--concurrency N]       seeds in flight (default 2)
  [--out gen.jsonl]       also <out>.journal.jsonl and <out>.manifest.json
  [--resume]              answer from the journal: no question is asked twice`;

type Role = 'generator' | 'critic' | 'difficulty';
type ConnectionFlags = { 'base-url'?: string; 'api-key-env'?: string };

interface GenOptions {
  seeds: string;
  language: LanguageId;
  model: string;
  critic?: string;
  difficulty?: string;
  /** --base-url/--api-key-env of each model role (the generator's are the plain flags). */
  values: Record<Role, ConnectionFlags>;
  samples: number;
  criticThreshold: number;
  dropAlwaysSolved: boolean;
  concurrency: number;
  out: string;
  resume: boolean;
  translateTo: LanguageId[];
  runners: string[];
  runnerToken?: string;
}

function whole(name: string, raw: string | undefined, fallback: number, min = 1): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be a whole number of at least ${min}, got "${raw}"`);
  return n;
}

function parse(argv: string[]): GenOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      seeds: { type: 'string' }, language: { type: 'string' }, model: { type: 'string' },
      'base-url': { type: 'string' }, 'api-key-env': { type: 'string' },
      'critic-model': { type: 'string' }, 'critic-threshold': { type: 'string' },
      'critic-base-url': { type: 'string' }, 'critic-api-key-env': { type: 'string' },
      'difficulty-base-url': { type: 'string' }, 'difficulty-api-key-env': { type: 'string' },
      'difficulty-model': { type: 'string' }, samples: { type: 'string' }, 'drop-always-solved': { type: 'boolean' },
      concurrency: { type: 'string' }, out: { type: 'string' }, resume: { type: 'boolean' },
      'translate-to': { type: 'string' }, runner: { type: 'string', multiple: true }, 'runner-token': { type: 'string' },
    },
    strict: true,
  });
  if (!values.seeds || !values.language || !values.model) throw new UsageError('--seeds, --language and --model are required');
  const language = normalizeLanguage(values.language);
  if (!language || !GEN_LANGUAGES.includes(language)) throw new UsageError(`--language must be one of ${GEN_LANGUAGES.join(', ')}, got "${values.language}"`);
  const threshold = Number(values['critic-threshold'] ?? 6);
  if (!(threshold >= 0 && threshold <= 10)) throw new UsageError(`--critic-threshold must be 0 to 10, got "${values['critic-threshold']}"`);
  const translateTo: LanguageId[] = [];
  for (const name of (values['translate-to'] ?? '').split(',').map((l) => l.trim()).filter(Boolean)) {
    const to = normalizeLanguage(name);
    if (!to || !GEN_LANGUAGES.includes(to) || to === language) throw new UsageError(`--translate-to takes languages of ${GEN_LANGUAGES.join(', ')} other than --language, got "${name}"`);
    if (!translateTo.includes(to)) translateTo.push(to);
  }
  const runners = values.runner ?? [];
  const badRunner = runners.find((u) => !/^https?:\/\/[^/]/.test(u));
  if (badRunner !== undefined) throw new UsageError(`--runner must be an http(s) URL, got "${badRunner}"`);
  const runnerToken = values['runner-token'] ?? process.env.RUNNER_TOKEN;
  for (const role of ['critic', 'difficulty'] as const) {
    const stray = (['base-url', 'api-key-env'] as const).find((f) => values[`${role}-${f}`] !== undefined);
    if (stray && !values[`${role}-model`]) throw new UsageError(`--${role}-${stray} applies only with --${role}-model`);
  }
  return {
    translateTo,
    runners,
    ...(runnerToken ? { runnerToken } : {}),
    seeds: values.seeds,
    language,
    model: values.model,
    critic: values['critic-model'],
    difficulty: values['difficulty-model'],
    values: {
      generator: { 'base-url': values['base-url'], 'api-key-env': values['api-key-env'] },
      critic: { 'base-url': values['critic-base-url'], 'api-key-env': values['critic-api-key-env'] },
      difficulty: { 'base-url': values['difficulty-base-url'], 'api-key-env': values['difficulty-api-key-env'] },
    },
    samples: whole('samples', values.samples, 10),
    criticThreshold: threshold,
    dropAlwaysSolved: values['drop-always-solved'] === true,
    concurrency: whole('concurrency', values.concurrency, 2),
    out: values.out ?? 'gen.jsonl',
    resume: values.resume === true,
  };
}

const presetOf = (spec: string) => spec.slice(0, Math.max(0, spec.indexOf(':')));

/**
 * A role's model, parsed as `npm run eval` parses --model. Its connection: its own flags, else the
 * generator's when on the generator's provider, else its provider's defaults (base URL, key variable).
 */
async function model(options: GenOptions, role: Role, spec: string, systemPrompt: string | undefined): Promise<CliModel> {
  const own = options.values[role];
  const shared = role !== 'generator' && presetOf(spec) === presetOf(options.model) ? options.values.generator : {};
  const flag = role === 'generator' ? '--model' : `--${role}-model`;
  let choice;
  try {
    choice = parseProvider({ 'base-url': own['base-url'] ?? shared['base-url'], 'api-key-env': own['api-key-env'] ?? shared['api-key-env'], model: spec });
  } catch (e) {
    throw e instanceof UsageError && role !== 'generator' ? new UsageError(`${flag}: ${e.message.replace(/--(base-url|api-key-env)/, `--${role}-$1`)}`) : e;
  }
  if (!choice) throw new UsageError(`${flag} must name a provider model such as openai:<model>, anthropic:<model>, gemini:<model>, got "${spec}"`);
  return providerModel(spec, choice, {}, process.env, false, systemPrompt);
}

function readSeeds(file: string, language: LanguageId): Seed[] {
  const seeds: Seed[] = [];
  readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let r: { language?: unknown; code?: unknown };
    try {
      r = JSON.parse(line) as typeof r;
    } catch {
      throw new UsageError(`${file}:${i + 1}: not JSON`);
    }
    if (typeof r.code !== 'string' || typeof r.language !== 'string') throw new UsageError(`${file}:${i + 1}: needs string "language" and "code"`);
    if (normalizeLanguage(r.language) === language && r.code.trim()) seeds.push({ code: r.code });
  });
  return seeds;
}

async function main(options: GenOptions): Promise<void> {
  const started = new Date().toISOString();
  const seeds = readSeeds(options.seeds, options.language);
  if (!seeds.length) throw new UsageError(`${options.seeds} holds no ${options.language} seeds`);
  const generator = await model(options, 'generator', options.model, GEN_SYSTEM);
  const critic = options.critic ? await model(options, 'critic', options.critic, GEN_SYSTEM) : generator;
  // The difficulty model is asked exactly as `npm run eval` asks: the evaluation system prompt.
  const difficulty = options.difficulty ? await model(options, 'difficulty', options.difficulty, undefined) : undefined;
  const journalPath = `${options.out}.journal.jsonl`;
  // Never throw paid-for answers away by forgetting --resume.
  if (!options.resume && existsSync(journalPath) && statSync(journalPath).size > 0) {
    throw new UsageError(`${journalPath} holds an earlier run: continue it with --resume, or delete it to start again`);
  }
  // Routed as `npm run eval` routes: in-page runtimes where trusted, else a runner (Go).
  const executor = await createCliExecutor({
    concurrency: options.concurrency, runners: options.runners, ...(options.runnerToken ? { runnerToken: options.runnerToken } : {}), log: (l) => console.error(l),
  });
  const unrunnable = [options.language, ...options.translateTo].filter((l) => !executor.languages().includes(l));
  if (unrunnable.length) {
    await executor.dispose();
    throw new UsageError(`nothing here runs ${unrunnable.join(', ')}: start a runner (npm run runner) and pass --runner URL`);
  }
  // Opened once the run can go ahead: a refused run leaves no journal behind.
  const journal = FileJournal.open(journalPath, options.resume);
  const ctx: GenContext = {
    language: options.language, generator: generator.model, critic: critic.model, difficulty: difficulty?.model,
    executor, journal, samples: options.samples, criticThreshold: options.criticThreshold, dropAlwaysSolved: options.dropAlwaysSolved,
    translateTo: options.translateTo,
  };
  try {
    const results = await runFunnel(ctx, seeds, options.concurrency, (r, i) => {
      console.error(`seed ${i + 1}/${seeds.length} ${r.outcome.seed}: ${r.outcome.kept ? 'ok' : `dropped at ${r.outcome.stage}: ${r.outcome.reason}`}`);
    }, (t, i) => {
      console.error(`seed ${i + 1}/${seeds.length} translated to ${t.to}: ${t.kept ? 'ok' : `dropped at ${t.stage}: ${t.reason}`}`);
    });
    for (const r of results) journal.seed(r.outcome);
    const records = outputRecords(results);
    writeFileSync(options.out, records.map((r) => JSON.stringify(r) + '\n').join(''));
    const counts = funnelCounts(results.map((r) => r.outcome));
    const settings = (m: CliModel | undefined) => (m ? { id: m.model.id, ...m.settings } : null);
    writeFileSync(`${options.out}.manifest.json`, JSON.stringify({
      tool: 'benchtop generate',
      language: options.language,
      models: { generator: settings(generator), critic: settings(critic), difficulty: settings(difficulty) },
      settings: { translateTo: options.translateTo, runners: options.runners.length, samples: options.samples, criticThreshold: options.criticThreshold, dropAlwaysSolved: options.dropAlwaysSolved, concurrency: options.concurrency, resumed: options.resume },
      seeds: { file: options.seeds, sha256: createHash('sha256').update(readFileSync(options.seeds)).digest('hex'), count: seeds.length },
      prompts: { version: PROMPT_VERSION, sha256: promptHashes() },
      funnel: counts,
      dropped: results.filter((r) => !r.outcome.kept).map((r) => r.outcome),
      translationsDropped: translationDrops(results.map((r) => r.outcome)),
      journal: { path: journalPath, reused: journal.reused },
      started,
      finished: new Date().toISOString(),
    }, null, 2) + '\n');
    console.log(summaryLine(counts));
  } finally {
    await executor.dispose();
  }
}

let options: GenOptions;
try {
  options = parse(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof UsageError) && (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') !== true) throw e;
  console.error(`error: ${(e as Error).message}\n${USAGE}`);
  process.exit(2);
}
main(options).then(
  () => process.exit(0),
  (e: Error) => {
    const known = e instanceof UsageError || e instanceof ModelSetupError || e instanceof AuthenticationError || e instanceof RunnerSetupError;
    console.error(known ? `error: ${e.message}` : e.stack ?? String(e));
    process.exit(e instanceof UsageError ? 2 : 1);
  },
);
