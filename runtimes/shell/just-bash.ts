/**
 * Shell runtime: just-bash (bash re-implemented in TypeScript, with its own coreutils, awk, sed,
 * jq, … over an in-memory file system), run as `bash test.sh` would: a fresh shell and file
 * system per program, test.sh in the working directory. It needs no files and no network.
 *
 * Closer to GNU bash and the official image: benchtop adds `bc` (./bc/), GNU-style `sort`,
 * `uniq -c`, `mktemp`, `trap … EXIT` and option parsing for `paste`/`xargs` (./commands.ts), and
 * rewrites a few constructs that just-bash's interpreter gets wrong (./transform.ts). The program
 * runs as just-bash's top-level script (the rewrites apply there), with $0 = test.sh.
 * just-bash's safety limits (commands, loop iterations, …) are lifted to what a real bash allows,
 * and the time limit becomes its execution deadline, so a runaway program stops by itself at the
 * limit and the worker survives. Where just-bash still differs from GNU bash: docs/fidelity.md.
 */
import { Bash, defineCommand, getCommandNames } from 'just-bash';
import { runBc } from './bc';
import { mktempCommand, pasteCommand, sortCommand, stdinText, trapCommand, uniqCommand, xargsCommand, type TrapState } from './commands';
import { ProgramRewriter } from './transform';
import { packageVersion } from '../package-versions';
import { createQueue } from '../queue';
import { OutputCapture } from '../host/output';
import type { LanguageRuntime } from '../../src/contracts';

const WORK_DIR = '/tmp/benchtop';
/** Holds an EXIT handler's text while it runs (unset before the handler's first command). */
const TRAP_VARIABLE = '__benchtop_exit_trap';
/** A very large count: the limit is time, as for a real bash. */
const UNLIMITED = 2 ** 52;

export interface ShellRuntimeOptions {
  /** Unused: just-bash needs no files (kept for the common adapter shape). */
  files?: Record<string, ArrayBuffer>;
}

export async function createShellRuntime(_options: ShellRuntimeOptions = {}): Promise<LanguageRuntime> {
  const queue = createQueue();
  return {
    description: `just-bash ${packageVersion('just-bash')} (bash 5.1 in TypeScript) with benchtop's bc`,
    run: (program, timeoutMs) => queue(() => runProgram(program, timeoutMs)),
  };
}

/**
 * just-bash loads each command's module on its first use, and some of those modules `require`
 * packages (printf: sprintf-js; diff; md5sum: crypto; gzip: zlib …). Under Node the runtime
 * thread shuts module loading once its runtime is ready (runtimes/host/node-lockdown.ts), so the
 * Node loader calls this first: every command runs once (`--help`, no input), and its module is
 * then in just-bash's cache. Network commands are not registered, so they are not loaded.
 */
export async function loadEveryCommand(): Promise<void> {
  const script = getCommandNames().map((name) => `${name} --help </dev/null >/dev/null 2>&1`).join('\n');
  await runProgram(script + '\ntrue\n', 60_000);
}

async function runProgram(program: string, timeoutMs: number) {
  const started = performance.now();
  const deadline = started + timeoutMs;
  const bc = defineCommand('bc', async (args, ctx) => {
    const options = args.filter((a) => a.startsWith('-'));
    const files = args.filter((a) => !a.startsWith('-'));
    const sources: string[] = [];
    for (const file of files) {
      const path = file.startsWith('/') ? file : `${ctx.cwd}/${file}`;
      try {
        sources.push(await ctx.fs.readFile(path));
      } catch {
        return { stdout: '', stderr: `File ${file} is unavailable.\n`, exitCode: 1 };
      }
    }
    sources.push(stdinText(ctx));
    return runBc(sources, {
      mathLib: options.some((o) => o === '--mathlib' || (/^-[a-z]+$/.test(o) && o.includes('l'))),
      checkpoint: () => {
        if (performance.now() > deadline) throw new Error('bc: stopped at the time limit');
      },
    });
  });
  const trap: TrapState = { exit: null };
  const bash = new Bash({
    files: { [`${WORK_DIR}/test.sh`]: program },
    cwd: WORK_DIR,
    customCommands: [bc, sortCommand, uniqCommand, pasteCommand, xargsCommand, mktempCommand, trapCommand(trap)],
    // benchtop's own walls (sandboxed worker, lockdown) apply; just-bash's patching of globals
    // would collide with the worker's lockdown
    defenseInDepth: false,
    executionLimits: {
      maxExecutionTimeMs: timeoutMs,
      maxCommandCount: UNLIMITED,
      maxLoopIterations: UNLIMITED,
      maxAwkIterations: UNLIMITED,
      maxSedIterations: UNLIMITED,
      maxJqIterations: UNLIMITED,
      maxWorkUnits: UNLIMITED,
      maxCallDepth: 1000,
      maxOutputSize: 16 * 1024 * 1024,
    },
  });
  bash.registerTransformPlugin(new ProgramRewriter().plugin());
  const stdout = new OutputCapture();
  const stderr = new OutputCapture();
  let exitCode: number;
  try {
    const result = await bash.exec(program, { rawScript: true });
    stdout.write(result.stdout);
    stderr.write(result.stderr);
    exitCode = result.exitCode;
    // `trap … EXIT`: the handler runs when the program ends, with its exported variables and `$?`
    // the program's status. As in bash, an `exit n` in the handler sets the status; otherwise the
    // program's own stays. The handler is parsed on its own (eval of a variable), so that no text
    // of it can reach the `exit` after it: until 2026-12-02 it was spliced before that line, so
    // `trap 'cat <<EOF' EXIT` swallowed it and `exit $?` read 0 (both exit 0; bash: the status).
    const handler = trap.exit;
    if (handler && performance.now() < deadline) {
      trap.exit = null;
      const env = { ...result.env, [TRAP_VARIABLE]: handler };
      const script = `eval "unset ${TRAP_VARIABLE}; (exit ${exitCode}); $${TRAP_VARIABLE}"\nexit ${exitCode}\n`;
      const after = await bash.exec(script, { rawScript: true, env, replaceEnv: true });
      stdout.write(after.stdout);
      stderr.write(after.stderr);
      exitCode = after.exitCode;
    }
  } catch (e) {
    stderr.write(`benchtop: the shell stopped: ${(e as Error).message}\n`);
    exitCode = 1;
  }
  const durationMs = performance.now() - started;
  const stderrText = stderr.text();
  // just-bash ends a program at its deadline with exit 124 and this message.
  const timedOut = durationMs >= timeoutMs || (exitCode === 124 && stderrText.includes('execution exceeded execution deadline'));
  const result = { exitCode, stdout: stdout.text(), stderr: stderrText, timedOut, durationMs };
  return stdout.truncated || stderr.truncated ? { ...result, truncated: true } : result;
}
