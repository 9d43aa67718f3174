/**
 * The official C++ command on this machine's g++ 12 (x86-64, glibc, libstdc++):
 * `g++ -o test test.cpp && ./test`, with the exit status a shell reports for a signal.
 * Tests use it to derive expectations from the real toolchain.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResult } from '../../src/contracts';

export type NativeResult = Pick<RunResult, 'exitCode' | 'stdout' | 'stderr' | 'timedOut' | 'compileFailed'>;

/**
 * `run` starts g++ before it returns (no await before the spawn): a test can start the native
 * run, then compile the same program in-page, and g++ uses the other core meanwhile.
 */
export function createGxx(): { run(program: string): Promise<NativeResult>; dispose(): Promise<void> } {
  const root = mkdtempSync(join(tmpdir(), 'benchtop-gxx-'));
  let serial = 0;
  return {
    run(program) {
      const dir = join(root, String(serial++));
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'test.cpp'), program);
      return new Promise((resolve, reject) => {
        execFile('g++', ['-o', 'test', 'test.cpp'], { cwd: dir, timeout: 120_000 }, (error, _stdout, stderr) => {
          if (error) return resolve({ exitCode: 1, stdout: '', stderr, timedOut: false, compileFailed: true });
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
      });
    },
    dispose: async () => rmSync(root, { recursive: true, force: true }),
  };
}
