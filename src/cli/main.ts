/** `npm run eval`: the engine, headless, with the same runtimes as the page. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { chartData } from '../charts/data';
import { byDifficulty, bySubset } from '../core/breakdown';
import { evaluateAll } from '../core/engine';
import { FEEDBACK_LIMIT } from '../core/feedback';
import { buildManifest } from '../core/manifest';
import { summarize } from '../core/metrics';
import { firstAttempts, pass1ByTurn, passAtK, reportedKs } from '../core/passk';
import { SYSTEM_PROMPT } from '../core/prompt';
import { applyDuplicateChoice, DuplicateIdError, filterProblems, formatDuplicates, formatLoadError, parseDataset, subsetMembers, type LoadedDataset } from '../core/records';
import { AuthenticationError, type AnswerSource, type Problem } from '../contracts';
import { samplePerStratum, type SubsetPlan } from '../core/sample';
import { passAtKIntervals, uncertainty, uncertaintyLines } from '../core/uncertainty';
import { chainKey } from '../core/chains';
import { resultKey, sampleOf, turnOf, type AttemptResult } from '../core/results';
import { adviceFor, FailureBreaker, RepeatedFailureError } from '../models/breaker';
import { meteredModel, type Meter } from '../models/meter';
import { recordedModel } from '../models/recorded';
import { addUsage, emptyTotals } from '../models/usage';
import { parseCliArgs, USAGE, UsageError, type CliOptions } from './args';
import { journalLog, type Journal, type PriorRun } from './journal';
import { loadModel, ModelSetupError } from './model';
import { outputOf, resultFields, resultLine, storedResult } from '../core/result-file';
import { liveStatus, progressLine, usageLine, type Counters } from './progress';
import { formatReport } from './report';
import { createCliExecutor, RunnerSetupError } from './runtimes';
import { journalPath, openRun, planRun, ResumeError, type Plan } from './resume';

class DataError extends Error {}

async function readText(source: string): Promise<string> {
  if (/^https?:\/\//.test(source)) {
    let response: Response;
    try {
      response = await fetch(source);
    } catch (e) {
      throw new DataError(`could not fetch ${source}: ${(e as Error).message}`);
    }
    if (!response.ok) throw new DataError(`could not fetch ${source}: HTTP ${response.status}`);
    return response.text();
  }
  try {
    return await readFile(source, 'utf8');
  } catch (e) {
    throw new DataError(`could not read ${source}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/**
 * The --out lines of the engine's whole picture (stored turns and new ones, already in order): a
 * stored turn keeps its stored fields and answer, a new one is written from its result.
 */
function outLines(problems: readonly Problem[], results: readonly AttemptResult[], plan: Plan, prior: PriorRun | undefined, keyed: boolean): string[] {
  const byId = new Map(problems.map((p) => [p.id, p]));
  return results.map((r) => {
    const problem = byId.get(r.id)!;
    const key = resultKey(r.id, sampleOf(r), turnOf(r));
    const fields = plan.reused.get(key);
    if (!fields) return resultLine(problem, outputOf(r), resultFields(r, keyed));
    const answer = prior?.answers.get(key);
    return resultLine(problem, answer && !answer.isCode ? answer.output : undefined, keyed ? { ...fields, sample: sampleOf(r), turn: turnOf(r) } : fields);
  });
}

/** parseDataset, with a clash of own ids as a data error. */
function parse(text: string, source: string): LoadedDataset {
  try {
    return parseDataset(text);
  } catch (e) {
    if (e instanceof DuplicateIdError) throw new DataError(`${source}: ${e.message}`);
    throw e;
  }
}

async function main(options: CliOptions): Promise<void> {
  const datasetText = await readText(options.data);
  const dataset = parse(datasetText, options.data);
  for (const e of dataset.errors.slice(0, 10)) console.error(`${options.data}: ${formatLoadError(e)}`);
  if (dataset.errors.length > 10) console.error(`${options.data}: … and ${dataset.errors.length - 10} more bad lines`);
  const unknown = Object.entries(dataset.unknownLanguages);
  if (unknown.length) console.error(`unknown language ids: ${unknown.map(([l, n]) => `${l} (${n})`).join(', ')}`);
  if (!dataset.problems.length) throw new DataError(`${options.data} holds no valid AutoCodeBench records`);
  const kept = applyDuplicateChoice(dataset.problems, dataset.duplicates, options.duplicates);
  if (dataset.duplicates.length) {
    const what = options.duplicates === 'keep-all'
      ? 'each record is evaluated and counted once (--duplicates keep-first keeps only the first copy)'
      : `only the first copy is kept: ${dataset.problems.length - kept.length} record(s) left out`;
    console.error(`${options.data}: ${formatDuplicates(dataset.duplicates)}; ${what}`);
  }
  let problems = filterProblems(kept, { languages: options.languages, difficulties: options.difficulties, limit: options.limit });
  // A subset is drawn from the filtered file; its strata sizes there weight the full-benchmark estimate.
  let subset: SubsetPlan | undefined;
  if (options.sample) ({ problems, plan: subset } = samplePerStratum(problems, options.sample));
  const lite = options.lite ? subsetMembers(parse(await readText(options.lite), options.lite).problems) : undefined;
  if (lite && !lite.size) throw new DataError(`${options.lite} holds no valid AutoCodeBench records`);
  const { samples, turns } = options;
  const keyed = samples > 1 || turns > 1;
  if (samples > 1 && options.provider && !options.provider.temperature) {
    console.error(`note: ${samples} samples at temperature ${options.provider.temperature ?? 'default'}: give --temperature above 0 for samples that differ`);
  }

  const counters: Counters = { done: 0, passed: 0, retries: 0 };
  const status = liveStatus(process.stderr);
  let meter: Readonly<Meter> | undefined;
  // Progress counts (problem, sample) chains: one per problem in a single run.
  const chains = problems.length * samples;
  const redraw = () => status.show(progressLine(chains, counters, meter, prices));
  // The page's breaker: a provider that fails the same way on every request stops the run early.
  const breakerStop = new AbortController();
  let breaker: FailureBreaker | undefined;
  const noteFailure = (error: unknown, problem: string | undefined) => {
    const advice = breaker?.failure(error, problem);
    if (advice) breakerStop.abort(new RepeatedFailureError(advice));
  };
  const { model: source, prices, settings } = await loadModel(options, readText, {
    onRetry: (info, problem) => {
      counters.retries++;
      redraw();
      noteFailure(info.error, problem?.id);
    },
  });
  let model: AnswerSource = source;
  if (options.provider) {
    const baseUrl = settings!.baseUrl;
    breaker = new FailureBreaker((cls, error, tries) => adviceFor(cls, error, baseUrl, null, tries));
    ({ model, meter } = meteredModel(source, redraw));
    const metered = model;
    model = {
      id: metered.id,
      answer: async (problem, signal, context) => {
        try {
          const answer = await metered.answer(problem, signal, context);
          breaker!.success();
          return answer;
        } catch (e) {
          noteFailure(e, problem.id);
          throw e;
        }
      },
    };
  }

  // With --out, every answer and result is journaled as it arrives, and a run can be continued.
  let journal: Journal | undefined;
  let prior: PriorRun | undefined;
  let plan: Plan = { reused: new Map(), todo: problems, priorTurns: new Map() };
  if (options.out) {
    ({ journal, prior } = await openRun(options.out, { model: model.id, data: options.data }, options.resume || options.retryErrors));
    plan = planRun(problems, prior, options.retryErrors, samples, turns);
    model = recordedModel(model, journalLog(journal, prior));
    if (prior) console.error(`${options.out}: continuing: ${plan.reused.size} result(s) kept, ${plan.todo.length} to evaluate, ${prior.answers.size} stored answer(s)`);
  }

  const executor = await createCliExecutor({
    concurrency: options.concurrency, runners: options.runners, runnerToken: options.runnerToken ?? process.env.RUNNER_TOKEN, log: (line) => console.error(line),
  });
  try {
    let results: AttemptResult[];
    try {
      // Every problem goes in: chains that are over come back as stored, the others go on.
      results = await evaluateAll(problems, model, executor, {
        mode: options.mode,
        concurrency: options.concurrency,
        signal: breakerStop.signal,
        timeoutMs: options.timeoutSeconds ? () => options.timeoutSeconds! * 1000 : undefined,
        samples,
        turns,
        feedback: options.feedback,
        priorTurns: (problem, sample) => plan.priorTurns.get(chainKey(problem.id, sample)),
        onResult: (r) => {
          void journal?.result(r.id, resultFields(r, keyed));
          redraw();
        },
        onChainOver: (chain) => {
          counters.done++;
          if (chain.at(-1)!.verdict === 'passed') counters.passed++;
          redraw();
        },
      });
    } finally {
      status.end();
      await journal?.flush().catch(() => {});
    }
    const reason: unknown = breakerStop.signal.reason;
    if (reason instanceof RepeatedFailureError) {
      const kept = options.out ? `; answers and results so far are kept in ${journalPath(options.out)}` : '';
      throw new DataError(`the run stopped early${kept}. ${reason.advice}`);
    }
    if (options.out && journal) {
      const lines = outLines(problems, results, plan, prior, keyed);
      await journal.flush();
      await writeFile(options.out, lines.map((l) => l + '\n').join(''));
      await journal.end();
      await journal.flush();
    }
    const runtimes = [...new Set(results.map((r) => r.demo?.runtime).filter(Boolean))] as string[];
    const shape = keyed ? ` × ${samples} sample(s), up to ${turns} turn(s)` : '';
    console.log(`${model.id} on ${basename(options.data)}: ${problems.length} problems${shape}; runtimes: ${runtimes.join('; ') || 'none'}${options.completion ? '; completion mode' : ''}`);
    const usage = usageLine(results.reduce((t, r) => addUsage(t, r.usage), emptyTotals()), prices);
    if (usage) console.log(usage);

    const manifest = buildManifest({
      datasetSource: options.data,
      datasetText,
      problems: problems.length,
      selection: { languages: options.languages, difficulties: options.difficulties, ...(options.limit !== undefined ? { limit: options.limit } : {}) },
      duplicates: { choice: options.duplicates, questions: dataset.duplicates.length, dropped: dataset.problems.length - kept.length },
      ...(subset ? { sample: subset } : {}),
      model: model.id,
      ...(settings ? { provider: { kind: settings.kind, baseUrl: settings.baseUrl, model: settings.model } } : {}),
      settings: {
        samples,
        turns,
        feedback: options.feedback,
        feedbackChars: FEEDBACK_LIMIT,
        ...(settings?.temperature !== undefined ? { temperature: settings.temperature } : {}),
        ...(settings?.topP !== undefined ? { topP: settings.topP } : {}),
        ...(settings ? { maxTokens: settings.maxTokens ?? 8192 } : {}),
        systemPrompt: settings?.systemPrompt ?? SYSTEM_PROMPT,
        completion: options.completion,
        extractionMode: options.mode,
        timeLimitSeconds: options.timeoutSeconds ?? null,
      },
      runtimes: [...new Set(results.flatMap((r) => [r.demo?.runtime, r.full?.runtime]).filter((r): r is string => !!r && r !== 'pre-check'))].sort(),
      environment: { node: process.version, platform: `${process.platform} ${process.arch}` },
      results,
      created: new Date().toISOString(),
    });
    const manifestText = JSON.stringify(manifest, null, 2) + '\n';
    if (options.out) await writeFile(`${options.out}.manifest.json`, manifestText);
    if (options.charts) {
      const { writeCharts } = await import('./charts');
      const written = await writeCharts(options.charts, chartData(results, { title: `${model.id} on ${basename(options.data)}`, samples, turns }));
      await mkdir(options.charts, { recursive: true });
      await writeFile(join(options.charts, 'manifest.json'), manifestText);
      console.error(`charts: ${written.length} files and manifest.json in ${options.charts}`);
    }

    const first = firstAttempts(results);
    const intervals = uncertainty(results, { plan: subset, ks: samples > 1 ? reportedKs(samples) : [], turn: turns });
    console.log(formatReport(summarize(first), options.mode, {
      uncertainty: uncertaintyLines(intervals, subset),
      difficulty: byDifficulty(results),
      ...(lite ? { subset: bySubset(results, lite) } : {}),
      ...(keyed ? {
        multi: {
          samples,
          turns,
          feedback: options.feedback,
          passk: samples > 1 ? reportedKs(samples).map((k) => passAtK(results, k, { turn: turns })) : [],
          passkIntervals: samples > 1 ? reportedKs(samples).map((k) => passAtKIntervals(results, k, turns)) : [],
          byTurn: pass1ByTurn(results, turns),
        },
      } : {}),
    }));
  } catch (e) {
    if (e instanceof AuthenticationError) {
      const kept = options.out ? `\nthe run stopped; answers so far are kept in ${journalPath(options.out)}: fix the key, then continue with --resume` : '\nthe run stopped';
      throw new DataError(`${e.message}${kept}`);
    }
    throw e;
  } finally {
    await executor.dispose();
  }
}

let options: CliOptions;
try {
  options = parseCliArgs(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof UsageError)) throw e;
  console.error(`error: ${e.message}\n${USAGE}`);
  process.exit(2);
}
main(options).then(
  () => process.exit(0),
  (e: Error) => {
    const known = e instanceof DataError || e instanceof ModelSetupError || e instanceof ResumeError || e instanceof RunnerSetupError;
    console.error(known ? `error: ${e.message}` : e.stack ?? String(e));
    process.exit(1);
  },
);
