/**
 * Under the CLI (Node worker processes locked down after load), Shell's `printf` used to kill the
 * worker: just-bash loads sprintf-js on printf's first use, after module loading is shut
 * (found by `npm run bench`, issue #16). Expected output from /usr/bin/bash.
 */
import { afterAll, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';

const executor = createNodeExecutor({ poolSize: 1 });
afterAll(() => executor.dispose());

it('printf works in the locked-down Node shell worker, also on a later program', async () => {
  for (let i = 0; i < 2; i++) {
    const result = await executor.run({ language: 'shell', program: `printf '%05.1f|%s|%x\\n' 3.14159 x 255\n`, timeoutMs: 30_000 });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('003.1|x|ff\n');
  }
});
