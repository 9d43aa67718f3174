/**
 * The R runtime (webR's R in WebAssembly, runtimes/r/webr.ts), loaded directly with its files read
 * from node_modules as the Node worker does: `Rscript test.r` behaviour (output, exit codes,
 * errors, isolation), the official sandbox's regression cases and the demo set's R problems.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCatalogFiles } from '../../runtimes/host/node-files';
import { createNodeExecutor } from '../../runtimes/host/node';
import { createRRuntime } from '../../runtimes/r/webr';
import type { Executor, LanguageRuntime } from '../../src/contracts';
import { evaluateAll } from '../../src/core/engine';
import { parseDataset } from '../../src/core/records';
import { judgeRun } from '../../src/core/rules';
import { canonicalModel } from '../../src/models/canonical';
import { parseAnswers, replayAnswersModel } from '../../src/models/replay';

let R: LanguageRuntime;
let loadMs = 0;
beforeAll(async () => {
  const started = performance.now();
  R = await createRRuntime({ files: readCatalogFiles('r') });
  loadMs = performance.now() - started;
}, 120_000);

const run = (program: string) => R.run(program, 30_000);
const verdict = async (program: string) => judgeRun('r', await run(program));

/** The runtime as an Executor, for the shared conformance and engine code. */
const executor: Executor = {
  languages: () => ['r'],
  run: async (request) => ({ ...(await R.run(request.program, request.timeoutMs)), runtime: R.description }),
  dispose: async () => {},
};

describe('r (webR)', () => {
  it('loads, names itself, and runs a program like `Rscript test.r`', async () => {
    expect(R.description).toMatch(/^webR 0\.6\.0 \(R 4\.\d+\.\d+\)$/);
    const r = await run('x <- c(a = 1.5, b = 2)\nprint(x)\ncat("sum", sum(x), "\\n")\nmessage("to stderr")\ncat("no newline")');
    expect(r).toMatchObject({ exitCode: 0, stdout: '  a   b \n1.5 2.0 \nsum 3.5 \nno newline', stderr: 'to stderr\n', timedOut: false });
    // Rscript runs `R --no-echo --no-restore --file=test.r`, non-interactive, with the usual packages.
    const session = await run('print(commandArgs()[-1])\nprint(interactive())\ncat(search(), sep = "\\n")');
    expect(session.stdout).toBe([
      '[1] "--no-echo"     "--no-restore"  "--file=test.r"', '[1] FALSE', '.GlobalEnv', 'package:stats', 'package:graphics',
      'package:grDevices', 'package:utils', 'package:datasets', 'package:methods', 'Autoloads', 'package:base', '',
    ].join('\n'));
    const timed = performance.now();
    await run('cat(1)');
    const next = performance.now() - timed; // includes putting R back after the previous run
    console.log(`r: loaded in ${loadMs.toFixed(0)} ms (${R.description}); a run takes ${r.durationMs.toFixed(0)} ms, back to back ${next.toFixed(0)} ms with R put back`);
  });

  it('a failed stopifnot in the official test style: "Error …" on stderr, exit 1, RUNTIME_ERROR', async () => {
    const r = await run('add <- function(a, b) a + b\ntest_add <- function() {\n  stopifnot(add(1, 2) == 3)\n  stopifnot(add(2, 2) == 5)\n  cat("All tests passed\\n")\n}\ntest_add()');
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error in test_add() : add(2, 2) == 5 is not TRUE\nCalls: test_add -> stopifnot\nExecution halted\n');
    expect(judgeRun('r', r)).toBe('RUNTIME_ERROR');
    const top = await run('stopifnot(identical(c(1, 2), c(1, 2)))\nstopifnot("x must be 2" = 1 == 2)');
    expect([top.exitCode, top.stderr]).toEqual([1, 'Error: x must be 2\nExecution halted\n']);
    expect(await verdict('stop("boom")')).toBe('RUNTIME_ERROR');
    expect(await verdict('test <- function() { stopifnot(all.equal(0.1 + 0.2, 0.3)); cat("ok\\n") }\ntest()')).toBe('PASSED');
  });

  it('a syntax error stops the program where it is, after running what came before (as the R console does)', async () => {
    const r = await run('cat("before\\n")\nx <- (1 +\n)\ncat("after\\n")');
    expect(r).toMatchObject({ exitCode: 1, stdout: 'before\n', stderr: 'Error: unexpected \')\' in:\n"x <- (1 +\n)"\nExecution halted\n' });
    const end = await run('f <- function() {\n  1');
    expect([end.exitCode, end.stderr]).toEqual([1, 'Error: unexpected end of input\nExecution halted\n']);
  });

  it('exit codes: quit(status = 3), q() mid-program, errors caught by tryCatch', async () => {
    expect((await run('cat("a\\n")\nquit(status = 3)\ncat("b\\n")')).exitCode).toBe(3);
    const early = await run('cat("a\\n")\nq("no", 0)\ncat("b\\n")');
    expect([early.exitCode, early.stdout]).toEqual([0, 'a\n']);
    const caught = await run('r <- tryCatch(stop("inner"), error = function(e) conditionMessage(e))\ncat(r, "\\n")');
    expect([caught.exitCode, caught.stdout]).toEqual([0, 'inner \n']);
    const last = await run('.Last <- function() cat("last\\n")\nquit(status = 2, runLast = TRUE)');
    expect([last.exitCode, last.stdout]).toEqual([2, 'last\n']);
  });

  it('warnings go to stderr after the top-level call and do not change the exit code', async () => {
    const r = await run('f <- function(x) { warning("careful"); x }\nprint(f(2))\nas.integer("x")\ncat("end\\n")');
    expect(r).toMatchObject({ exitCode: 0, stdout: '[1] 2\n[1] NA\nend\n' });
    expect(r.stderr).toBe('Warning message:\nIn f(2) : careful\nWarning message:\nNAs introduced by coercion \n');
    expect(judgeRun('r', r)).toBe('PASSED');
  });

  it('writes UTF-8 output', async () => {
    const r = await run('cat("é 漢字\\n")\nprint("é 漢字")\nmessage("ü")\ncat(nchar("漢字"), toupper("é"), "\\n")');
    expect(r).toMatchObject({ exitCode: 0, stdout: 'é 漢字\n[1] "é 漢字"\n2 É \n', stderr: 'ü\n' });
  });

  it('reads an empty stdin', async () => {
    const r = await run('print(readLines(file("stdin")))\nx <- readline("? ")\nprint(x)');
    expect(r.stdout).toBe('character(0)\n? \n[1] ""\n');
  });

  it('has the base packages, LAPACK, time zones and the usual printing', async () => {
    const r = await run([
      'print(solve(matrix(c(2, 0, 0, 4), 2)))', 'print(round(det(matrix(c(1, 2, 3, 4), 2)), 6))', 'print(median(c(5, 3, 1)))',
      'print(head(letters, 3))', 'df <- data.frame(x = 1:2, y = c("a", "b"))', 'print(df)', 'str(list(a = 1L, b = "s"))',
      'setClass("P", representation(name = "character"))', 'p <- new("P", name = "n")', 'print(isVirtualClass("P"))',
      'library(tools)', 'print(toTitleCase("hello world"))', 'library(parallel)', 'print(unlist(mclapply(1:3, function(i) i^2)))',
      'print(format(as.POSIXct("2024-07-02 03:04:05", tz = "UTC"), tz = "America/New_York", usetz = TRUE))', 'set.seed(42)',
      'print(sample(1:10, 3))', 'print(sprintf("%5.2f|%-4s|%03d", pi, "ab", 7L))', 'print(regmatches("a1b22", gregexpr("[0-9]+", "a1b22"))[[1]])',
    ].join('\n'));
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe([
      '     [,1] [,2]', '[1,]  0.5 0.00', '[2,]  0.0 0.25', '[1] -2', '[1] 3', '[1] "a" "b" "c"', '  x y', '1 1 a', '2 2 b',
      'List of 2', ' $ a: int 1', ' $ b: chr "s"', '[1] FALSE', '[1] "Hello World"', '[1] 1 4 9', '[1] "2024-07-01 23:04:05 EDT"',
      '[1]  1  5 10', '[1] " 3.14|ab  |007"', '[1] "1"  "22"', '',
    ].join('\n'));
    // Reference classes work; without the recommended package codetools (webR has none), methods
    // says so on stderr, which Rscript with r-recommended installed does not.
    const refClass = await run('A <- setRefClass("A", fields = list(v = "numeric"), methods = list(inc = function() { v <<- v + 1; invisible(.self) }))\na <- A$new(v = 1)\na$inc()\nprint(a$v)');
    expect(refClass).toMatchObject({ exitCode: 0, stdout: '[1] 2\n' });
    expect(refClass.stderr).toMatch(/^(code for methods in class “A” was not checked for suspicious field assignments \(recommended package ‘codetools’ not available\?\)\n)?$/);
  });

  it('has no network and no shell: both fail as R errors a program can catch', async () => {
    const r = await run([
      'a <- try(download.file("http://127.0.0.1:9/x", "x", quiet = TRUE), silent = TRUE)',
      'b <- try(readLines(url("http://127.0.0.1:9/")), silent = TRUE)',
      'c <- try(socketConnection("127.0.0.1", 9, timeout = 1), silent = TRUE)',
      'd <- try(system("echo hi", intern = TRUE), silent = TRUE)',
      'cat(class(a), class(b), class(c), class(d), "\\n")',
    ].join('\n'));
    expect(r).toMatchObject({ exitCode: 0, stdout: 'try-error try-error try-error try-error \n' });
  });

  it('recursion is not cut at webR\'s 400 nested expressions', async () => {
    const depth = await run('f <- function(n) if (n == 0) 0 else 1 + f(n - 1)\nprint(getOption("expressions"))\nprint(f(300))');
    expect(depth.stdout).toBe('[1] 20000\n[1] 300\n');
  });

  it('keeps nothing between programs: variables, functions, classes, options, packages, files, environment', async () => {
    const first = await run([
      'leaked <- 1', 'helper <- function() 42', 'setClass("Leaky", representation(x = "numeric"))', 'options(digits = 3, leak = TRUE)',
      'library(tools)', 'library(splines)', 'Sys.setenv(LEAK = "1")', 'writeLines("x", "left.txt")', 'writeLines("x", file.path(tempdir(), "t.txt"))',
      'writeLines("x", "/tmp/left.txt")', 'dir.create("made")', 'con <- file("open.txt", "w")', 'writeLines("unclosed", con)',
      'assign("T", FALSE, envir = globalenv())', 'assignInNamespace("nchar", function(x, ...) -1L, "base")', 'set.seed(1)', 'setwd("/tmp")',
      'cat("written\\n")',
    ].join('\n'));
    expect(first).toMatchObject({ exitCode: 0, stdout: 'written\n' });
    const second = await run([
      'cat(exists("leaked"), exists("helper"), isClass("Leaky"), getOption("digits"), is.null(getOption("leak")),',
      '    "package:tools" %in% search(), Sys.getenv("LEAK"), file.exists("left.txt"), T, length(list.files(tempdir())), "\\n")',
      'cat(file.exists("/tmp/left.txt"), dir.exists("made"), file.exists("open.txt"), nchar("abc"), exists(".Random.seed"), getwd(), "\\n")',
      'cat(nrow(showConnections()), list.files(), "\\n")', 'library(splines)', 'print(dim(bs(1:5, df = 3)))',
    ].join('\n'));
    expect(second).toMatchObject({
      exitCode: 0,
      stdout: 'FALSE FALSE FALSE 7 TRUE FALSE  FALSE TRUE 0 \nFALSE FALSE FALSE 3 FALSE /home/user \n0 test.r \n[1] 5 3\n',
      stderr: '',
    });
  });

  it('a program that leaves what cannot be put back gets a new R: a crash, a changed R installation, a large memory', async () => {
    // tempdir() names the R instance: the same R is reused after an ordinary program.
    const session = async () => (await run('cat(tempdir())')).stdout;
    const a = await session();
    await run('x <- 1:10\nstop("an ordinary error")');
    expect(await session()).toBe(a);
    // R's installation is read-only; changed anyway (chmod first), the next program gets a new R.
    const denied = await run('cat(file.create(file.path(R.home("etc"), "x.R"), showWarnings = FALSE), "\\n")');
    expect(denied.stdout).toBe('FALSE \n');
    const changed = await run('Sys.chmod(R.home("etc"), "777")\nwriteLines("leak", file.path(R.home("etc"), "leak.R"))\ncat("ok")');
    expect(changed.stdout).toBe('ok');
    const b = await session();
    expect(b).not.toBe(a);
    expect((await run('cat(file.exists(file.path(R.home("etc"), "leak.R")))')).stdout).toBe('FALSE');
    // A large allocation leaves a large memory: a new R rather than 300 MB to clear after every run.
    expect((await run('x <- numeric(4e7)\ncat(length(x))')).stdout).toBe('40000000');
    const c = await session();
    expect(c).not.toBe(b);
    // A crash inside R (here the JavaScript engine's stack, small in this test process).
    const crash = await run('f <- function(n) f(n + 1)\nf(1)');
    expect(crash.exitCode).toBe(1);
    expect(crash.stderr).toMatch(/^benchtop: R stopped: |^Error: (evaluation nested too deeply|C stack usage)/);
    expect(await session()).not.toBe(c);
    expect((await run('cat(6 * 7)')).stdout).toBe('42');
  });

  describe('demo set', () => {
    const dataset = parseDataset(readFileSync('bench-data/demo.jsonl', 'utf8'));
    const problems = dataset.problems.filter((p) => p.language === 'r');
    const answersText = readFileSync('bench-data/demo-answers.jsonl', 'utf8');
    const expected = new Map(answersText.trim().split('\n').map((l) => JSON.parse(l) as { id: string; expected: { demo: string; full: string } }).map((a) => [a.id, a.expected]));

    it('canonical solutions pass, demo and full tests', async () => {
      expect(problems.length).toBeGreaterThanOrEqual(5);
      const results = await evaluateAll(problems, canonicalModel, executor, { concurrency: 1 });
      const failures = results.filter((r) => r.verdict !== 'passed').map((r) => `${r.id} ${r.demo?.outcome}/${r.full?.outcome}\n${r.demo?.stderr}${r.full?.stderr}`);
      expect(failures).toEqual([]);
    }, 300_000);

    it('recorded answers give the outcomes recorded for them', async () => {
      const model = replayAnswersModel('demo-answers.jsonl', parseAnswers(answersText).answers);
      const results = await evaluateAll(problems, model, executor, { concurrency: 1 });
      expect(results.map((r) => ({ id: r.id, outcome: { demo: r.demo?.outcome, full: r.full?.outcome } }))).toEqual(
        problems.map((p) => ({ id: p.id, outcome: expected.get(p.id) })),
      );
    }, 300_000);
  });

  it('runs in the Node worker pool as the CLI does: deep recursion, and a runaway program stopped at the time limit', async () => {
    const pool = createNodeExecutor({ poolSize: 1 });
    try {
      const hello = await pool.run({ language: 'r', program: 'cat("hi\\n")', timeoutMs: 30_000 });
      expect(hello).toMatchObject({ exitCode: 0, stdout: 'hi\n', runtime: R.description });
      // The worker's large stack lets R recurse as deep as Rscript (about 5000 calls) and stop at
      // its own limits with R's own error.
      const deep = await pool.run({ language: 'r', program: 'f <- function(n) if (n == 0) 0 else 1 + f(n - 1)\nprint(f(3000))\nprint(f(1e5))', timeoutMs: 30_000 });
      expect(deep).toMatchObject({ exitCode: 1, stdout: '[1] 3000\n' });
      expect(deep.stderr).toMatch(/^Error: (evaluation nested too deeply: infinite recursion \/ options\(expressions=\)\?|C stack usage +\d+ is too close to the limit|protect\(\): protection stack overflow)\n/);
      const loop = await pool.run({ language: 'r', program: 'repeat {}', timeoutMs: 3000 });
      expect(loop.timedOut).toBe(true);
      expect(judgeRun('r', loop)).toBe('TIME_LIMIT_EXCEEDED');
      expect((await pool.run({ language: 'r', program: 'cat(6 * 7)', timeoutMs: 30_000 })).stdout).toBe('42');
    } finally {
      await pool.dispose();
    }
  }, 180_000);
});
