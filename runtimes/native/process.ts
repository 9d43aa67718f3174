/**
 * Native runtime: runs a program the way the official sandbox does, as a new process per program
 * (`python3 test.py`, `node test.js`, `tsx test.ts`, …) in a fresh temporary directory. Node only.
 * Used as the reference that the in-browser runtimes are checked against, and by the benchmarks.
 * It is not a sandbox: run only trusted programs with it (the remote runner adds isolation).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LanguageId } from '../../src/core/languages';
import { capOutput, type Executor, type RunRequest, type RunResult } from '../types';

interface NativeCommand {
  label: string;
  file: string;
  /** A build step run before `argv` (C++); its failure is the program's result, as officially. */
  compile?: (file: string) => [string, ...string[]];
  argv: (file: string) => [string, ...string[]];
}

/** A compiler gets this long, outside the program's own time limit. */
const COMPILE_TIMEOUT_MS = 60_000;

const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));

export const NATIVE_COMMANDS: Partial<Record<LanguageId, NativeCommand>> = {
  python: { label: 'python3', file: 'test.py', argv: (f) => ['python3', f] },
  javascript: { label: `node ${process.version}`, file: 'test.js', argv: (f) => [process.execPath, f] },
  typescript: { label: `tsx (node ${process.version})`, file: 'test.ts', argv: (f) => [process.execPath, TSX, f] },
};

/**
 * The Debian toolchains installed on the development machine, for the differential corpus
 * (scripts/differential-select.mts). Kept apart from NATIVE_COMMANDS, which the benchmarks and
 * the demo test iterate over.
 */
export const TOOLCHAIN_COMMANDS: Partial<Record<LanguageId, NativeCommand>> = {
  ...NATIVE_COMMANDS,
  ruby: { label: 'ruby', file: 'test.rb', argv: (f) => ['ruby', f] },
  php: { label: 'php', file: 'test.php', argv: (f) => ['php', f] },
  r: { label: 'Rscript', file: 'test.R', argv: (f) => ['Rscript', f] },
  perl: { label: 'perl', file: 'test.pl', argv: (f) => ['perl', f] },
  shell: { label: 'bash', file: 'test.sh', argv: (f) => ['bash', f] },
  cpp: { label: 'g++ -std=gnu++17', file: 'test.cpp', compile: (f) => ['g++', '-std=gnu++17', '-O1', '-o', 'test', f], argv: () => ['./test'] },
};

/** Runs one program as a process; the whole process group is killed at the time limit. */
export async function runNative(request: RunRequest): Promise<RunResult> {
  const command = TOOLCHAIN_COMMANDS[request.language];
  if (!command) throw new Error(`no native command for ${request.language}`);
  const dir = await mkdtemp(join(tmpdir(), 'benchtop-native-'));
  try {
    await writeFile(join(dir, command.file), request.program);
    if (command.compile) {
      const built = await spawnTimed(command.compile(command.file), dir, COMPILE_TIMEOUT_MS, command.label);
      if (built.exitCode !== 0) return built;
    }
    return await spawnTimed(command.argv(command.file), dir, request.timeoutMs, command.label);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function spawnTimed([exe, ...args]: [string, ...string[]], dir: string, timeoutMs: number, label: string): Promise<RunResult> {
  const started = performance.now();
  return new Promise<RunResult>((resolve, reject) => {
    const child = spawn(exe, args, { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
    }, timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code) => {
      clearTimeout(timer);
      const stdout = capOutput(Buffer.concat(out).toString('utf8'));
      const stderr = capOutput(Buffer.concat(err).toString('utf8'));
      resolve({
        exitCode: timedOut ? null : code,
        stdout: stdout.text,
        stderr: stderr.text,
        timedOut,
        truncated: stdout.truncated || stderr.truncated,
        durationMs: performance.now() - started,
        runtime: `native ${label}`,
      });
    });
  });
}

export function createNativeExecutor(): Executor {
  return {
    languages: () => Object.keys(NATIVE_COMMANDS) as LanguageId[],
    run: runNative,
    dispose: async () => {},
  };
}
