/** `npm run eval`: the engine, headless, with the same runtimes as the page. */
import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { evaluateAll } from '../core/engine';
import { summarize } from '../core/metrics';
import { filterProblems, formatLoadError, parseDataset, type Problem } from '../core/records';
import type { ProblemResult } from '../core/results';
import { meteredModel, type Meter } from '../models/meter';
import { AuthenticationError, type Model } from '../models/types';
import { addUsage, emptyTotals } from '../models/usage';
import { parseCliArgs, USAGE, UsageError, type CliOptions } from './args';
import type { Journal, PriorRun } from './journal';
import { loadModel, ModelSetupError } from './model';
import { outputOf, resultFields, resultLine, storedResult } from '../core/result-file';
import { liveStatus, progressLine, usageLine, type Counters } from './progress';
import { formatReport } from './report';
import { createCliExecutor, RunnerSetupError } from './runtimes';
import { journalPath, journaledModel, openRun, planRun, ResumeError, type Plan } from './resume';

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

/** Results in input order: fresh ones, else the stored ones a continued run kept; with their --out lines. */
function assemble(problems: readonly Problem[], fresh: readonly ProblemResult[], plan: Plan, prior: PriorRun | undefined) {
  const byIndex = new Map(fresh.map((r) => [r.index, r]));
  const results: ProblemResult[] = [];
  const lines: string[] = [];
  for (const problem of problems) {
    const result = byIndex.get(problem.index);
    if (result) {
      results.push(result);
      lines.push(resultLine(problem, outputOf(result), resultFields(result)));
      continue;
    }
    const fields = plan.reused.get(problem.id);
    if (!fields) continue;
    const answer = prior?.answers.get(problem.id);
    const output = answer && !answer.isCode ? answer.output : undefined;
    results.push(storedResult(problem, fields, output));
    lines.push(resultLine(problem, output, fields));
  }
  return { results, lines };
}

async function main(options: CliOptions): Promise<void> {
  const dataset = parseDataset(await readText(options.data));
  for (const e of dataset.errors.slice(0, 10)) console.error(`${options.data}: ${formatLoadError(e)}`);
  if (dataset.errors.length > 10) console.error(`${options.data}: … and ${dataset.errors.length - 10} more bad lines`);
  const unknown = Object.entries(dataset.unknownLanguages);
  if (unknown.length) console.error(`unknown language ids: ${unknown.map(([l, n]) => `${l} (${n})`).join(', ')}`);
  if (!dataset.problems.length) throw new DataError(`${options.data} holds no valid AutoCodeBench records`);
  const problems = filterProblems(dataset.problems, { languages: options.languages, difficulties: options.difficulties, limit: options.limit });

  const counters: Counters = { done: 0, passed: 0, retries: 0 };
  const status = liveStatus(process.stderr);
  let meter: Readonly<Meter> | undefined;
  const redraw = () => status.show(progressLine(problems.length, counters, meter, prices));
  const { model: source, prices } = await loadModel(options, readText, { onRetry: () => (counters.retries++, redraw()) });
  let model: Model = source;
  if (options.provider) ({ model, meter } = meteredModel(source, redraw));

  // With --out, every answer and result is journaled as it arrives, and a run can be continued.
  let journal: Journal | undefined;
  let prior: PriorRun | undefined;
  let plan: Plan = { reused: new Map(), todo: problems };
  if (options.out) {
    ({ journal, prior } = await openRun(options.out, { model: model.id, data: options.data }, options.resume || options.retryErrors));
    plan = planRun(problems, prior, options.retryErrors);
    model = journaledModel(model, journal, prior);
    if (prior) console.error(`${options.out}: continuing: ${plan.reused.size} result(s) kept, ${plan.todo.length} to evaluate, ${prior.answers.size} stored answer(s)`);
    counters.done = plan.reused.size;
    counters.passed = [...plan.reused.values()].filter((f) => f.passed).length;
  }

  const executor = await createCliExecutor({
    concurrency: options.concurrency, runners: options.runners, runnerToken: options.runnerToken ?? process.env.RUNNER_TOKEN, log: (line) => console.error(line),
  });
  try {
    let fresh: ProblemResult[];
    try {
      fresh = await evaluateAll(plan.todo, model, executor, {
        mode: options.mode,
        concurrency: options.concurrency,
        timeoutMs: options.timeoutSeconds ? () => options.timeoutSeconds! * 1000 : undefined,
        onResult: (r) => {
          void journal?.result(r.id, resultFields(r));
          counters.done++;
          if (r.verdict === 'passed') counters.passed++;
          redraw();
        },
      });
    } finally {
      status.end();
      await journal?.flush().catch(() => {});
    }
    const { results, lines } = assemble(problems, fresh, plan, prior);
    if (options.out && journal) {
      await journal.flush();
      await writeFile(options.out, lines.map((l) => l + '\n').join(''));
      await journal.end();
      await journal.flush();
    }
    const runtimes = [...new Set(results.map((r) => r.demo?.runtime).filter(Boolean))];
    console.log(`${model.id} on ${basename(options.data)}: ${problems.length} problems; runtimes: ${runtimes.join('; ') || 'none'}`);
    const usage = usageLine(results.reduce((t, r) => addUsage(t, r.usage), emptyTotals()), prices);
    if (usage) console.log(usage);
    console.log(formatReport(summarize(results), options.mode));
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
