/** `npm run eval`: the engine, headless, with the same runtimes as the page. */
import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { evaluateAll } from '../core/engine';
import { summarize } from '../core/metrics';
import { filterProblems, formatLoadError, parseDataset } from '../core/records';
import { canonicalModel } from '../models/canonical';
import { parseAnswers, replayAnswersModel, replayOwnOutputModel } from '../models/replay';
import type { Model } from '../models/types';
import { createNodeExecutor } from '../../runtimes/host/node';
import { parseCliArgs, USAGE, UsageError, type CliOptions } from './args';
import { resultLine } from './output';
import { formatReport } from './report';

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

async function loadModel(spec: string): Promise<Model> {
  if (spec === 'canonical') return canonicalModel;
  if (spec === 'replay') return replayOwnOutputModel;
  const file = spec.slice('replay:'.length);
  const { answers, errors } = parseAnswers(await readText(file));
  for (const e of errors.slice(0, 5)) console.error(`${file}: ${e}`);
  if (!answers.length) throw new DataError(`${file} holds no answers`);
  return replayAnswersModel(basename(file), answers);
}

async function main(options: CliOptions): Promise<void> {
  const dataset = parseDataset(await readText(options.data));
  for (const e of dataset.errors.slice(0, 10)) console.error(`${options.data}: ${formatLoadError(e)}`);
  if (dataset.errors.length > 10) console.error(`${options.data}: … and ${dataset.errors.length - 10} more bad lines`);
  const unknown = Object.entries(dataset.unknownLanguages);
  if (unknown.length) console.error(`unknown language ids: ${unknown.map(([l, n]) => `${l} (${n})`).join(', ')}`);
  if (!dataset.problems.length) throw new DataError(`${options.data} holds no valid AutoCodeBench records`);

  const problems = filterProblems(dataset.problems, { languages: options.languages, difficulties: options.difficulties, limit: options.limit });
  const model = await loadModel(options.model);
  const executor = createNodeExecutor({ poolSize: Math.max(2, options.concurrency) });
  const progress = process.stderr.isTTY ? (done: number, passed: number) => {
    process.stderr.write(`\r${done}/${problems.length} evaluated, ${passed} passed`);
  } : () => {};
  let done = 0;
  let passed = 0;
  try {
    const results = await evaluateAll(problems, model, executor, {
      mode: options.mode,
      concurrency: options.concurrency,
      timeoutMs: options.timeoutSeconds ? () => options.timeoutSeconds! * 1000 : undefined,
      onResult: (r) => progress(++done, (passed += r.verdict === 'passed' ? 1 : 0)),
    });
    if (process.stderr.isTTY) process.stderr.write('\n');
    if (options.out) await writeFile(options.out, results.map((r, i) => resultLine(problems[i]!, r) + '\n').join(''));
    const runtimes = [...new Set(results.map((r) => r.demo?.runtime).filter(Boolean))];
    console.log(`${model.id} on ${basename(options.data)}: ${problems.length} problems; runtimes: ${runtimes.join('; ') || 'none'}`);
    console.log(formatReport(summarize(results), options.mode));
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
    console.error(e instanceof DataError ? `error: ${e.message}` : e.stack ?? String(e));
    process.exit(1);
  },
);
