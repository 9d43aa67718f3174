/**
 * The official C++ command on this machine's g++ 12 (x86-64, glibc, libstdc++):
 * `g++ -o test test.cpp && ./test`, with the exit status a shell reports for a signal.
 * Tests use it to derive expectations from the real toolchain.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RunResult } from '../../src/contracts';

const exec = promisify(execFile);
export type NativeResult = Pick<RunResult, 'exitCode' | 'stdout' | 'stderr' | 'timedOut' | 'compileFailed'>;

export function createGxx(): { run(program: string): Promise<NativeResult>; dispose(): Promise<void> } {
  const root = mkdtemp(join(tmpdir(), 'benchtop-gxx-'));
  let serial = 0;
  return {
    async run(program) {
      const dir = join(await root, String(serial++));
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'test.cpp'), program);
      try {
        await exec('g++', ['-o', 'test', 'test.cpp'], { cwd: dir, timeout: 120_000 });
      } catch (e) {
        return { exitCode: 1, stdout: '', stderr: (e as { stderr?: string }).stderr ?? '', timedOut: false, compileFailed: true };
      }
      return new Promise((resolve, reject) => {
        const child = spawn('./test', [], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        child.stdout.on('data', (b: Buffer) => out.push(b));
        child.stderr.on('data', (b: Buffer) => err.push(b));
        child.on('error', reject);
        child.on('close', (code, signal) => {
          const signals: Record<string, number> = { SIGABRT: 6, SIGFPE: 8, SIGSEGV: 11 };
          resolve({ exitCode: code ?? 128 + (signals[signal ?? ''] ?? 1), stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), timedOut: false });
        });
      });
    },
    dispose: async () => rm(await root, { recursive: true, force: true }),
  };
}
