/**
 * One tsconfig per environment: worker code is checked without Node's types, so a Node API in a
 * runtime worker is a type error. A probe file that reads process.env is put in a worker folder:
 * `tsc -p tsconfig.worker.json` passes without it and fails on it. (The catch is not a given:
 * just-bash's types import undici, whose types load all of Node's globals; tsconfig.worker.json
 * maps undici to an empty stand-in.)
 */
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const PROBE = `runtimes/shell/env-probe-${process.pid}.ts`;
afterAll(() => rmSync(join(ROOT, PROBE), { force: true }));

async function tsc(config: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [TSC, '-p', config], { cwd: ROOT });
    return { code: 0, output: stdout };
  } catch (e) {
    const failed = e as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

it('tsc -p tsconfig.worker.json rejects process.env in a worker folder, and passes without it', async () => {
  const clean = await tsc('tsconfig.worker.json');
  expect(clean.output).toBe('');
  expect(clean.code).toBe(0);

  writeFileSync(join(ROOT, PROBE), "export const home: string | undefined = process.env.HOME;\n");
  const probed = await tsc('tsconfig.worker.json');
  expect(probed.code).not.toBe(0);
  expect(probed.output).toContain(`${PROBE}(1,41): error TS2591: Cannot find name 'process'`);
}, 300_000);
