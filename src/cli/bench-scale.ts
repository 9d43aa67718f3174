/**
 * `npm run bench -- --scale` (issue #16 §3 and §4): one Lite-sized dataset (src/bench/scale-data.ts)
 * of the in-page languages, run three ways on this machine, one after the other: in Chromium (the
 * app itself, canonical answers), under the CLI (`node dist-node/cli.mjs`, a process of its own),
 * and through the runner (`node dist-node/runner.mjs`, a sandboxed process per program run, the
 * official sandbox's way); then the runner's throughput with 1, 2 and 4 runner processes behind
 * the client's spreading (runtimes/remote/client.ts), on the languages the runner offers.
 * Size: `--scale-size N` or BENCH_SCALE_SIZE (default 1,586); BENCH_SCALE_WAYS=page,cli,runner,curve
 * runs only some ways (an experiment: it prints their lines and writes no report). A benchmark: nothing here asserts;
 * tests/e2e/bench-scale-smoke.test.ts checks the printed lines on a tiny size.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { NATIVE_COMMANDS } from '../../runtimes/native/process';
import { connectRemoteExecutor } from '../../runtimes/remote/executor';
import { chooseSource, launchChromium, loadDataset, openApp, startAppServer } from '../bench/app-page';
import { LITE_SIZE, scaleDataset } from '../bench/scale-data';
import { growth, growthAfterStart, quantile, quarterMeans, startRunnerProcess, slowClicks, summarizeLongFrames, treeRss, type LongFrame, type MemorySample, type RunnerProcess, type WayFigures } from '../bench/scale-measure';
import { failureKinds, failureLines, outcomeOf, languageTable, loadRange, type ProblemOutcome, type WayOutcomes } from '../bench/scale-problems';
import { LANGUAGE_NAMES, normalizeLanguage, type BenchRecord, type LanguageId } from '../contracts';
import { evaluateAll } from '../core/engine';
import { parseDataset } from '../core/records';
import { resultFields } from '../core/result-file';
import { canonicalModel } from '../models/canonical';

const log = (text: string) => process.stderr.write(text + '\n');
const mb = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / 1024 / 1024).toFixed(0)} MB` : '–');
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const pct = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%` : '–');
const TIMEOUT_MS = 4 * 3600_000;

function wholeNumber(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number above 0, got "${raw}"`);
  return n;
}

export interface ScaleSettings {
  size: number;
  curveSize: number;
  processes: number[];
  languages: LanguageId[];
  /** BENCH_LANGUAGES was given. */
  narrowed: boolean;
  out: string;
  /** BENCH_SCALE_WAYS: the ways to run (all by default); the report is written only when all ran. */
  ways: ScaleWay[];
}

const WAYS = ['page', 'cli', 'runner', 'curve'] as const;
export type ScaleWay = (typeof WAYS)[number];

export function scaleSettings(argv: readonly string[], env: NodeJS.ProcessEnv): ScaleSettings {
  const at = argv.indexOf('--scale-size');
  const size = wholeNumber('--scale-size', at >= 0 ? argv[at + 1] : env.BENCH_SCALE_SIZE, LITE_SIZE);
  const all = Object.keys(NATIVE_COMMANDS) as LanguageId[];
  const languages = env.BENCH_LANGUAGES?.trim()
    ? env.BENCH_LANGUAGES.split(',').map((name) => {
      const id = normalizeLanguage(name);
      if (!id || !all.includes(id)) throw new Error(`BENCH_LANGUAGES: "${name}" is not one of ${all.join(', ')}`);
      return id;
    })
    : all;
  return {
    size,
    // The curve runs three times (1, 2, 4 processes): a smaller share of the size by default.
    curveSize: wholeNumber('BENCH_SCALE_CURVE_SIZE', env.BENCH_SCALE_CURVE_SIZE, Math.max(1, Math.min(size, 200))),
    processes: (env.BENCH_SCALE_PROCESSES ?? '1,2,4').split(',').map((s) => wholeNumber('BENCH_SCALE_PROCESSES', s.trim(), 1)),
    languages,
    narrowed: languages !== all,
    out: (env.BENCH_OUT ?? 'docs').replace(/\/$/, ''),
    ways: env.BENCH_SCALE_WAYS?.trim()
      ? env.BENCH_SCALE_WAYS.split(',').map((raw) => {
        const way = raw.trim();
        if (!(WAYS as readonly string[]).includes(way)) throw new Error(`BENCH_SCALE_WAYS: "${raw}" is not one of ${WAYS.join(', ')}`);
        return way as ScaleWay;
      })
      : [...WAYS],
  };
}

/** A results file (the CLI's --out, the app's export) as per-problem outcomes. */
const readOutcomes = (text: string) => text.trim().split('\n').map((l) => outcomeOf(JSON.parse(l) as ProblemOutcome));

/** The load average (1 min) every second while a way runs: a time limit missed under load says so. */
function sampleLoad(): { stop(): number[] } {
  const samples = [loadavg()[0]!];
  const timer = setInterval(() => samples.push(loadavg()[0]!), 1000).unref();
  return { stop: () => (clearInterval(timer), samples) };
}

const toJsonl = (records: readonly BenchRecord[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** In Chromium: the app loads the dataset, runs the canonical answers, and exports its results. */
async function inPage(file: string, name: string, total: number): Promise<WayFigures> {
  const server = await startAppServer(process.cwd());
  const browser = await launchChromium();
  try {
    const { page } = await openApp(browser, server.origin, { viewport: { width: 1280, height: 900 }, acceptDownloads: true, logErrors: true });
    await loadDataset(page, name, readFileSync(file));
    await page.waitForFunction((n) => document.querySelector('[data-testid=dataset-name]')?.textContent?.includes(n), name, { timeout: 120_000 });
    await chooseSource(page, { value: 'canonical' });
    // Every click on a view tab: from the input event to the first task after the next frame (its paint).
    await page.evaluate(() => {
      const w = window as unknown as { __clicks: number[]; __clickAt: number[]; __done: Array<[number, number]> };
      w.__clicks = [];
      w.__clickAt = [];
      w.__done = [];
      document.addEventListener('click', (e) => {
        if (!(e.target as Element).closest?.('[role=tab]')) return;
        const t0 = e.timeStamp;
        requestAnimationFrame(() => setTimeout(() => {
          w.__clicks.push(performance.now() - t0);
          w.__clickAt.push(t0);
        }));
      }, true);
      // What blocks the main thread: long animation frames, with the scripts they ran (Chromium).
      const loaf: Array<{ startTime: number; duration: number; renderMs: number; scripts: Array<{ what: string; duration: number }> }> = [];
      (window as unknown as { __loaf: unknown }).__loaf = loaf;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as Array<{ duration: number; renderStart: number; startTime: number; scripts: Array<{ invoker: string; sourceURL: string; sourceFunctionName: string; duration: number }> }>) {
          const scripts = e.scripts.map((s) => ({ what: `${s.invoker} (${s.sourceURL.split('/').pop()}${s.sourceFunctionName ? ` ${s.sourceFunctionName}` : ''})`, duration: s.duration }));
          loaf.push({ startTime: e.startTime, duration: e.duration, renderMs: e.renderStart ? e.startTime + e.duration - e.renderStart : 0, scripts });
        }
      }).observe({ type: 'long-animation-frame', buffered: true });
      // Completed problems over time (the progress bar's counter), every 50 ms.
      setInterval(() => {
        const done = Number(document.querySelector('[data-testid=progress]')?.getAttribute('data-done') ?? NaN);
        if (Number.isFinite(done) && done !== w.__done.at(-1)?.[1]) w.__done.push([performance.now(), done]);
      }, 50);
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const heap: MemorySample[] = [];
    const rss: MemorySample[] = [];
    const renderers = { only: /--type=renderer/ };
    const startedAt = await page.evaluate(() => performance.now());
    const started = Date.now();
    const load = sampleLoad();
    await page.getByTestId('run-button').click();
    for (let tick = 0; ; tick++) {
      await new Promise((r) => setTimeout(r, 1000));
      const { metrics } = await cdp.send('Performance.getMetrics');
      const at = Date.now() - started;
      heap.push({ at, bytes: metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN });
      rss.push({ at, bytes: treeRss([process.pid], renderers) });
      // Away to the Runs view and back: two measured clicks a second while the run goes on.
      await page.getByTestId('view-runs').click();
      await page.getByTestId('view-evaluate').click();
      const state = await page.evaluate(() => document.querySelector('[data-testid=progress]')?.getAttribute('data-state'));
      if (state === 'done' || state === 'failed') break;
      if (Date.now() - started > TIMEOUT_MS) throw new Error('the in-page run did not finish in time');
      if (tick % 30 === 29) log(`  in-page: ${await page.evaluate(() => document.querySelector('[data-testid=progress]')?.getAttribute('data-done'))}/${total} after ${sec(at)}`);
    }
    const wallMs = Date.now() - started;
    const { clicks, clickAt, done, frames } = await page.evaluate(() => {
      const w = window as unknown as { __clicks: number[]; __clickAt: number[]; __done: Array<[number, number]>; __loaf: LongFrame[] };
      return { clicks: w.__clicks, clickAt: w.__clickAt, done: w.__done, frames: w.__loaf };
    });
    const first = done.find(([, n]) => n >= 1);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-results-jsonl').click()]);
    const lines = readOutcomes(readFileSync((await download.path())!, 'utf8'));
    return {
      name: 'in-page (Chromium)', problems: lines.length, passed: lines.filter((l) => l.passed).length, outcomes: lines, load: loadRange(load.stop()), wallMs,
      firstResultMs: first ? first[0] - startedAt : NaN, perProblemMs: lines.map((l) => l.duration_ms),
      peakRss: Math.max(...rss.map((s) => s.bytes)), rssWhat: 'Chromium renderers: page and runtime workers', rssGrowth: growth(rss), rssQuarters: quarterMeans(rss),
      peakHeap: Math.max(...heap.map((s) => s.bytes)), heapGrowth: growth(heap), heapQuarters: quarterMeans(heap), clickMs: clicks, slowClicks: slowClicks(clicks, clickAt.map((t) => t - startedAt), done.map(([t, n]) => [t - startedAt, n]), frames, startedAt), longFrames: summarizeLongFrames(frames, startedAt),
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

/** Under the CLI: `node dist-node/cli.mjs --model canonical`, its own process, as a user runs it. */
async function underCli(file: string, dir: string): Promise<WayFigures> {
  const out = join(dir, 'cli-results.jsonl');
  const journal = `${out}.journal.jsonl`;
  const started = Date.now();
  const load = sampleLoad();
  const child = spawn(process.execPath, ['dist-node/cli.mjs', '--data', file, '--model', 'canonical', '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (d: Buffer) => { errors = (errors + d.toString()).slice(-4000); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const rss: MemorySample[] = [];
  let firstResultMs = NaN;
  let code: number | null | undefined;
  while (code === undefined) {
    code = await Promise.race([exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), 250))]);
    if (code !== undefined) break;
    rss.push({ at: Date.now() - started, bytes: treeRss([child.pid!], { withRoots: true }) });
    if (Number.isNaN(firstResultMs) && existsSync(journal) && readFileSync(journal, 'utf8').includes('"type":"result"')) firstResultMs = Date.now() - started;
  }
  const wallMs = Date.now() - started;
  // Exit 1 means "some problem failed"; a usage or setup error has no results file.
  if (!existsSync(out)) throw new Error(`the CLI exited ${code} without results: ${errors}`);
  const lines = readOutcomes(readFileSync(out, 'utf8'));
  return {
    name: 'CLI (Node workers)', problems: lines.length, passed: lines.filter((l) => l.passed).length, outcomes: lines, load: loadRange(load.stop()), wallMs, firstResultMs,
    perProblemMs: lines.map((l) => l.duration_ms), peakRss: Math.max(...rss.map((s) => s.bytes)), rssWhat: 'the CLI process and its workers', rssGrowth: growth(rss), rssQuarters: quarterMeans(rss),
  };
}

/**
 * Through `count` runner processes: the engine sends each spliced program to a runner, which runs
 * it as a new sandboxed process (bubblewrap), the official sandbox's way.
 */
async function throughRunners(file: string, count: number, perProcess: number): Promise<WayFigures & { languages: LanguageId[] }> {
  const runners: RunnerProcess[] = [];
  try {
    for (let i = 0; i < count; i++) runners.push(await startRunnerProcess(i, perProcess));
    const remote = await connectRemoteExecutor({ urls: runners.map((r) => r.url), maxInFlightPerUrl: 4 * perProcess });
    const offered = remote.languages();
    const problems = parseDataset(readFileSync(file, 'utf8')).problems.filter((p) => offered.includes(p.language));
    const rss: MemorySample[] = [];
    const perProblemMs: number[] = [];
    let passed = 0;
    const outcomes: ProblemOutcome[] = [];
    let firstResultMs = NaN;
    const started = Date.now();
    const load = sampleLoad();
    const sampler = setInterval(() => rss.push({ at: Date.now() - started, bytes: treeRss(runners.map((r) => r.child.pid!), { withRoots: true }) }), 250);
    try {
      await evaluateAll(problems, canonicalModel, remote, {
        concurrency: count * perProcess,
        onResult: (result) => {
          if (Number.isNaN(firstResultMs)) firstResultMs = Date.now() - started;
          perProblemMs.push(result.durationMs);
          if (result.verdict === 'passed') passed++;
          outcomes.push(outcomeOf({ id: result.id, language: result.language, ...resultFields(result) }));
        },
      });
    } finally {
      clearInterval(sampler);
      await remote.dispose();
    }
    return {
      name: `runner (${count} process${count > 1 ? 'es' : ''}, a sandboxed process per run)`, problems: problems.length, passed, outcomes, load: loadRange(load.stop()), wallMs: Date.now() - started, firstResultMs,
      perProblemMs, peakRss: Math.max(...rss.map((s) => s.bytes)), rssWhat: 'runner processes and the programs they run', rssGrowth: growth(rss), rssQuarters: quarterMeans(rss),
      languages: [...new Set(problems.map((p) => p.language))],
    };
  } finally {
    for (const r of runners) await r.stop();
  }
}

const rate = (f: WayFigures) => f.problems / (f.wallMs / 1000);
/** A way's mean memory by quarter of its run, e.g. "2905 → 3112 → 3164 → 3185 MB". */
const byQuarter = (f: WayFigures, quarters = f.rssQuarters) => `${quarters.map((b) => mb(b).replace(' MB', '')).join(' → ')} MB`;

/** The one line per way that the smoke test reads. */
function wayLine(f: WayFigures): string {
  const heap = f.peakHeap !== undefined ? `, peak page JS heap ${mb(f.peakHeap)} (last quarter ${pct(f.heapGrowth!)} vs first; by quarter ${byQuarter(f, f.heapQuarters)})` : '';
  const clicks = f.clickMs ? `, clicks answered p95 ${quantile(f.clickMs, 0.95).toFixed(0)} ms / max ${Math.max(...f.clickMs).toFixed(0)} ms over ${f.clickMs.length} clicks` : '';
  return `scale ${f.name}: ${f.problems} problems, passed ${f.passed}/${f.problems}, wall ${sec(f.wallMs)}, first result ${sec(f.firstResultMs)}, ` +
    `${rate(f).toFixed(2)} problems/s, per problem p50 ${quantile(f.perProblemMs, 0.5).toFixed(0)} ms / p95 ${quantile(f.perProblemMs, 0.95).toFixed(0)} ms, ` +
    `peak memory ${mb(f.peakRss)} (${f.rssWhat}; last quarter ${pct(f.rssGrowth)} vs first; by quarter ${byQuarter(f)})${heap}${clicks}`;
}

export async function scaleMain(argv: readonly string[]): Promise<void> {
  const settings = scaleSettings(argv, process.env);
  const demo = readFileSync('bench-data/demo.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l) as BenchRecord);
  const dir = mkdtempSync(join(tmpdir(), 'benchtop-scale-'));
  const load = loadavg()[0]!;
  try {
    const inPageFile = join(dir, 'scale-in-page.jsonl');
    writeFileSync(inPageFile, toJsonl(scaleDataset(demo, settings.languages, settings.size)));
    log(`scale: ${settings.size} problems over ${settings.languages.join(', ')} (${inPageFile}); load average ${load.toFixed(1)} on ${availableParallelism()} cores`);
    const perProcess = availableParallelism();
    const runs = (way: ScaleWay) => settings.ways.includes(way);
    let page: WayFigures | undefined;
    let cli: WayFigures | undefined;
    let runner: WayFigures | undefined;
    if (runs('page')) {
      log('scale: in Chromium…');
      page = await inPage(inPageFile, 'scale-in-page.jsonl', settings.size);
      log(wayLine(page));
      log(`  the page's main thread during the run: ${page.longFrames}`);
      log(`  clicks over 200 ms: ${page.slowClicks}`);
    }
    if (runs('cli')) {
      log('scale: under the CLI…');
      cli = await underCli(inPageFile, dir);
      log(wayLine(cli));
    }
    if (runs('runner')) {
      log('scale: through one runner process…');
      runner = await throughRunners(inPageFile, 1, perProcess);
      log(wayLine(runner));
    }
    // A partial run (an experiment on some ways) prints its lines and leaves the report alone.
    if (!page || !cli || !runner || !runs('curve')) {
      if (page && runner) log(`scale throughput in-page ÷ runner: ${(rate(page) / rate(runner)).toFixed(2)}x`);
      return;
    }

    // The curve: every language the runner offers (the demo set has), in Lite proportions.
    const probe = await startRunnerProcess(0, perProcess);
    const probeExecutor = await connectRemoteExecutor({ urls: [probe.url] });
    // BENCH_LANGUAGES narrows the curve too (CI's smoke run); by default it has every runner language.
    const offered = probeExecutor.languages().filter((l) => !settings.narrowed || settings.languages.includes(l));
    // Untimed: one program per language first fills the runners' shared compile caches (Rust
    // crates, Go packages), so the first point of the curve does not pay for all of them.
    log(`scale: warming the runner's caches (one problem of each of ${offered.join(', ')})…`);
    const warmUp = parseDataset(toJsonl(scaleDataset(demo, offered, offered.length))).problems;
    await evaluateAll(warmUp, canonicalModel, probeExecutor, { concurrency: perProcess });
    await probeExecutor.dispose();
    await probe.stop();
    const curveFile = join(dir, 'scale-runner.jsonl');
    writeFileSync(curveFile, toJsonl(scaleDataset(demo, offered, settings.curveSize)));
    const curve: WayFigures[] = [];
    for (const count of settings.processes) {
      log(`scale: curve, ${count} runner process(es) on ${settings.curveSize} problems…`);
      curve.push(await throughRunners(curveFile, count, perProcess));
      log(wayLine(curve.at(-1)!));
    }
    report(settings, load, [page, cli, runner], curve, offered);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(settings: ScaleSettings, load: number, ways: WayFigures[], curve: WayFigures[], offered: readonly LanguageId[]): void {
  const [page, , runner] = ways as [WayFigures, WayFigures, WayFigures];
  const ratio = rate(page) / rate(runner);
  const lines: string[] = [];
  const out = (s = '') => lines.push(s);
  out('## Scale run');
  out();
  out(`Measured by \`npm run bench -- --scale --scale-size ${settings.size}\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${mb(totalmem())} memory, load average ${load.toFixed(1)} when it started (each way's range is in the table; a way's own workers count in it). ` +
    `${settings.size} problems over ${settings.languages.map((l) => LANGUAGE_NAMES[l]).join(', ')} in AutoCodeBench-Lite's language proportions (equal shares: src/bench/scale-data.ts says why), copies of the demo set's problems with questions of their own, answered by their canonical solutions (each must pass). The three ways ran one after the other on the same dataset.`);
  out();
  out('| way | problems | passed | wall | first result | problems/s | per problem p50 / p95 | peak memory | memory, last quarter vs first | load average during |');
  out('|---|---|---|---|---|---|---|---|---|---|');
  for (const f of ways) {
    out(`| ${f.name} | ${f.problems} | ${f.passed} | ${sec(f.wallMs)} | ${sec(f.firstResultMs)} | ${rate(f).toFixed(2)} | ${quantile(f.perProblemMs, 0.5).toFixed(0)} / ${quantile(f.perProblemMs, 0.95).toFixed(0)} ms | ${mb(f.peakRss)} (${f.rssWhat})${f.peakHeap !== undefined ? `; page JS heap ${mb(f.peakHeap)}` : ''} | ${pct(f.rssGrowth)}${f.heapGrowth !== undefined ? `; JS heap ${pct(f.heapGrowth)}` : ''} | ${f.load.min.toFixed(1)}–${f.load.max.toFixed(1)} |`);
  }
  out();
  out(`**Throughput in-page ÷ runner (process per run): ${ratio.toFixed(2)}×** (target ≥ 3×: ${ratio >= 3 ? 'met' : 'not met'}).`);
  const clicks = page.clickMs ?? [];
  out(`The page answered ${clicks.length} clicks on a view tab during the run (two a second) in p95 ${quantile(clicks, 0.95).toFixed(0)} ms, at most ${Math.max(...clicks).toFixed(0)} ms, from the input event to the frame after it (target: every click within 200 ms: ${clicks.length && Math.max(...clicks) <= 200 ? 'met' : 'not met'}).`);
  out(`Memory flatness (target: last quarter within 10% of the first): Chromium renderers ${pct(page.rssGrowth)}, page JS heap ${pct(page.heapGrowth ?? NaN)}` +
    `; after start-up (last quarter against the second, the first being the runtimes' loading, which the target as written counts): renderers ${pct(growthAfterStart(page.rssQuarters))}, page JS heap ${pct(growthAfterStart(page.heapQuarters ?? []))}. Mean memory by quarter of each way's run: ${ways.map((f) => `${f.name} ${byQuarter(f)}`).join('; ')}${page.heapQuarters ? `; page JS heap ${byQuarter(page, page.heapQuarters)}` : ''}.`);
  out();
  out(`Runner processes behind the client's spreading (runtimes/remote/client.ts: least busy runner first), ${settings.curveSize} problems over the languages this machine's runner offers (${offered.join(', ')}), each process allowing ${availableParallelism()} runs at once. This machine has ${cpus().length} cores, so more processes cannot add CPU: the curve shows what spreading costs or gains here, not what more machines would give.`);
  out();
  out('| runner processes | problems | passed | wall | problems/s | vs 1 process |');
  out('|---|---|---|---|---|---|');
  for (const f of curve) out(`| ${f.name.match(/\d+/)![0]} | ${f.problems} | ${f.passed} | ${sec(f.wallMs)} | ${rate(f).toFixed(2)} | ${(rate(f) / rate(curve[0]!)).toFixed(2)}× |`);
  // Every canonical solution must pass: each one that did not, on each way, with its cause.
  const all: WayOutcomes[] = [...ways, ...curve.map((f) => ({ ...f, name: `${f.name} (curve)` }))];
  out();
  out('### Canonical solutions that did not pass');
  out();
  for (const way of all) {
    const failed = failureLines(way, all);
    const kinds = failureKinds(failed);
    out(`- ${way.name}: ${failed.length ? `${failed.length} not passed: ${kinds.load} time limits under load, ${kinds.infra} INFRA_ERROR, ${kinds.wrong} wrong verdicts${kinds.other ? `, ${kinds.other} other` : ''}` : 'every one passed'}.`);
    for (const line of failed) out(`  - ${line}`);
  }
  out();
  out('Per language, the time the two test programs of a passed problem ran (p50, without the wait for a worker), and the in-page median over the runner\'s:');
  out();
  for (const row of languageTable(ways)) out(row);
  const md = lines.join('\n') + '\n';
  // docs/bench.md keeps `npm run bench`'s report above; this section is replaced on every scale run.
  const path = `${settings.out}/bench.md`;
  const before = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const kept = before.split(/^## Scale run$/m)[0]!.trimEnd();
  writeFileSync(path, (kept ? kept + '\n\n' : '') + md);
  // Every problem's outcome on every way, for a look at one problem after the run.
  writeFileSync(`${settings.out}/scale-problems.jsonl`, all.flatMap((w) => w.outcomes.map((o) => JSON.stringify({ way: w.name, ...o }))).join('\n') + '\n');
  console.log(md);
  for (const f of ways) console.log(wayLine(f));
  console.log(`scale runner curve (problems/s): ${curve.map((f) => `${f.name.match(/\d+/)![0]} → ${rate(f).toFixed(2)}`).join(', ')}`);
  console.log(`scale throughput in-page ÷ runner: ${ratio.toFixed(2)}x`);
}
