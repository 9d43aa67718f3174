/**
 * Shell under the CLI's walls: the runtime thread shuts module loading once just-bash is ready
 * (runtimes/host/node-lockdown.ts), and just-bash loads a command's module on its first use. A
 * command first used by a test program (printf needs sprintf-js, md5sum crypto, gzip zlib) must still work, with the output real bash gives.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';

const executor = createNodeExecutor({ poolSize: 1 });
afterAll(() => executor.dispose());

const PROGRAMS: Record<string, string> = {
  printf: 'printf "%05.1f|%-4s|%x\\n" 3.14159 ab 255',
  md5sum: 'printf "abc" | md5sum',
  sha256sum: 'printf "abc" | sha256sum',
  gzip: 'printf "hello\\n" | gzip | gunzip',
  base64: 'printf "benchtop" | base64',
};

for (const [command, program] of Object.entries(PROGRAMS)) {
  it(`${command}, first used by a program after the lockdown, prints what bash prints`, async () => {
    const expected = execFileSync('bash', ['-c', program], { cwd: execFileSync('mktemp', ['-d']).toString().trim() }).toString();
    const result = await executor.run({ language: 'shell', program, timeoutMs: 30_000 });
    expect(result.stderr).toBe('');
    expect(result).toMatchObject({ exitCode: 0, stdout: expected });
  });
}
