/**
 * Native runtime: runs a program the way the official sandbox does, as a new process per program
 * (`python3 test.py`, `node test.js`, `g++ -o test test.cpp && ./test`, …) in a fresh temporary
 * directory. Node only. Used as the reference that the in-browser runtimes are checked against, and
 * by the benchmarks. It is not a sandbox: run only trusted programs with it (the runner isolates).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Executor, LanguageId, RunRequest, RunResult } from '../../src/contracts';
import { capOutput } from '../host/output';
import { resolveBinary } from './binaries';

interface NativeCommand {
  file: string;
  /** The program on PATH (resolved to its real binary, see ./binaries.ts); null: this Node. */
  binary: string | null;
  /** Prints the version, e.g. ['--version']; its first non-empty line goes into the label. */
  versionArgs: string[];
  /** Steps run in order in the program's directory; a compile step's failure is a compile failure. */
  steps: (bin: string) => Array<{ argv: [string, ...string[]]; compile?: boolean }>;
}

const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));

/** The commands of SPEC §5 (runner/toolchains.ts runs the same ones inside its sandbox). */
export const NATIVE_COMMANDS: Partial<Record<LanguageId, NativeCommand>> = {
  python: { file: 'test.py', binary: 'python3', versionArgs: ['--version'], steps: (b) => [{ argv: [b, 'test.py'] }] },
  javascript: { file: 'test.js', binary: null, versionArgs: ['--version'], steps: (b) => [{ argv: [b, 'test.js'] }] },
  typescript: { file: 'test.ts', binary: null, versionArgs: ['--version'], steps: (b) => [{ argv: [b, TSX, 'test.ts'] }] },
  ruby: { file: 'test.rb', binary: 'ruby', versionArgs: ['--version'], steps: (b) => [{ argv: [b, 'test.rb'] }] },
  php: { file: 'test.php', binary: 'php', versionArgs: ['--version'], steps: (b) => [{ argv: [b, '-d', 'zend.assertions=1', 'test.php'] }] },
  r: { file: 'test.r', binary: 'Rscript', versionArgs: ['--version'], steps: (b) => [{ argv: [b, 'test.r'] }] },
  perl: { file: 'test.pl', binary: 'perl', versionArgs: ['-e', 'print "perl $^V"'], steps: (b) => [{ argv: [b, 'test.pl'] }] },
  shell: { file: 'test.sh', binary: 'bash', versionArgs: ['--version'], steps: (b) => [{ argv: [b, 'test.sh'] }] },
  cpp: {
    file: 'test.cpp', binary: 'g++', versionArgs: ['--version'],
    steps: (b) => [{ argv: [b, '-o', 'test', 'test.cpp'], compile: true }, { argv: ['./test'] }],
  },
};

const labels = new Map<LanguageId, { bin: string; label: string }>();

/** The real binary used for a language and its version, e.g. "/usr/bin/python3.11 (Python 3.11.2)". */
export function nativeBinary(language: LanguageId): { bin: string; label: string } {
  const known = labels.get(language);
  if (known) return known;
  const command = NATIVE_COMMANDS[language];
  if (!command) throw new Error(`no native command for ${language}`);
  const bin = command.binary === null ? process.execPath : resolveBinary(command.binary);
  // Some tools (older Rscript) print their version on stderr: read both streams.
  const probe = spawnSync(bin, command.versionArgs, { encoding: 'utf8', timeout: 10_000 });
  const version = `${probe.stdout ?? ''}\n${probe.stderr ?? ''}`.split('\n').find((l) => l.trim())?.trim() ?? 'version unknown';
  const tool = language === 'typescript' ? `tsx on ${bin}` : bin;
  const entry = { bin, label: `${tool} (${version})` };
  labels.set(language, entry);
  return entry;
}

interface StepResult { code: number | null; timedOut: boolean }

/** Runs one process; the whole process group is killed at the deadline. */
function runStep(argv: [string, ...string[]], cwd: string, deadline: number, out: Buffer[], err: Buffer[]): Promise<StepResult> {
  const [exe, ...args] = argv;
  return new Promise<StepResult>((resolve, reject) => {
    const child = spawn(exe, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
    }, Math.max(0, deadline - performance.now()));
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, timedOut }); });
  });
}

export async function runNative(request: RunRequest): Promise<RunResult> {
  const command = NATIVE_COMMANDS[request.language];
  if (!command) throw new Error(`no native command for ${request.language}`);
  const { bin, label } = nativeBinary(request.language);
  const dir = await mkdtemp(join(tmpdir(), 'benchtop-native-'));
  try {
    await writeFile(join(dir, command.file), request.program);
    const started = performance.now();
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let result: StepResult = { code: 0, timedOut: false };
    let compileFailed = false;
    let compileTimedOut = false;
    for (const step of command.steps(bin)) {
      // Each step (compile, run) has the whole limit, as in the official sandbox (SPEC §4).
      result = await runStep(step.argv, dir, performance.now() + request.timeoutMs, out, err);
      if (step.compile && result.timedOut) compileTimedOut = true;
      else if (step.compile && result.code !== 0) compileFailed = true;
      if (result.timedOut || result.code !== 0) break;
    }
    const stdout = capOutput(Buffer.concat(out).toString('utf8'));
    const stderr = capOutput(Buffer.concat(err).toString('utf8'));
    return {
      exitCode: result.timedOut ? null : result.code,
      stdout: stdout.text,
      stderr: stderr.text,
      timedOut: result.timedOut && !compileTimedOut,
      ...(compileFailed ? { compileFailed } : {}),
      ...(compileTimedOut ? { compileTimedOut } : {}),
      truncated: stdout.truncated || stderr.truncated,
      durationMs: performance.now() - started,
      runtime: `native ${label}`,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The host's cost of a new process, measured the way runNative starts one: the times (ms) of
 * `samples` runs of `/bin/true`. The native columns of the bench move with it from one day to the
 * next on the same machine, so the bench prints their median beside its ratios.
 */
export async function processStartTimes(samples = 30): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await runStep(['/bin/true'], tmpdir(), started + 10_000, [], []);
    times.push(performance.now() - started);
  }
  return times;
}

export function createNativeExecutor(): Executor {
  return {
    languages: () => Object.keys(NATIVE_COMMANDS) as LanguageId[],
    run: runNative,
    dispose: async () => {},
  };
}
