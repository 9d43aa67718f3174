/**
 * The layers rule of `npm run check` (.dependency-cruiser.cjs through scripts/check-dependencies.mjs):
 * it passes on the real tree, and fails on a small tree with one injected violation each, while the
 * same tree without it passes (so each failure is that import's, not the tree's).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SCRIPT = join(ROOT, 'scripts/check-dependencies.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const scratch = mkdtempSync(join(tmpdir(), 'benchtop-layers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function check(cwd: string, folders: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [SCRIPT, '--config', CONFIG, ...folders], { cwd });
    return { code: 0, output: stdout };
  } catch (e) {
    const failed = e as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/** A tree of the project's top-level folders: files by path, each a line of TypeScript. */
function tree(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

// Layered the allowed way: everything points down to contracts, charts and gen use core.
const CLEAN = {
  'src/contracts/index.ts': "export * from './ids';\n",
  'src/contracts/ids.ts': 'export const IDS = [1, 2];\n',
  'src/core/sum.ts': "import { IDS } from '../contracts';\nexport const sum = IDS.length;\n",
  'src/charts/plot.ts': "import { sum } from '../core/sum';\nexport const width = sum;\n",
  'src/gen/make.ts': "import { sum } from '../core/sum';\nexport const made = sum;\n",
  'src/gen/text.ts': 'export const text = "x";\n',
  'src/models/source.ts': "import type { IDS } from '../contracts';\nexport type Ids = typeof IDS;\n",
};
const FOLDERS = ['src'];

describe('dependency check', () => {
  it('passes on the real tree', async () => {
    const { code, output } = await check(ROOT, ['src', 'runtimes', 'runner', 'scripts']);
    expect(output).toContain('no dependency violations');
    expect(code).toBe(0);
  });

  it('passes on a small tree layered the allowed way (the control for the cases below)', async () => {
    const { code, output } = await check(tree('clean', CLEAN), FOLDERS);
    expect(output).toContain('no dependency violations');
    expect(code).toBe(0);
  });

  it('fails when contracts import another folder', async () => {
    const dir = tree('contracts-to-core', { ...CLEAN, 'src/contracts/bad.ts': "import { sum } from '../core/sum';\nexport const bad = sum;\n" });
    const { code, output } = await check(dir, FOLDERS);
    expect(code).toBe(1);
    expect(output).toMatch(/contracts-is-a-leaf: src\/contracts\/bad\.ts → src\/core\/sum\.ts/);
  });

  it('fails when contracts import a node: module, even for a type', async () => {
    const dir = tree('contracts-to-node', { ...CLEAN, 'src/contracts/bad.ts': "import type { Stats } from 'node:fs';\nexport type S = Stats;\n" });
    const { code, output } = await check(dir, FOLDERS);
    expect(code).toBe(1);
    expect(output).toMatch(/contracts-is-a-leaf: src\/contracts\/bad\.ts → (node:)?fs/);
  });

  it('fails on a cycle between two folders that no single module closes', async () => {
    // charts/plot → core only; gen/make → core; adding charts/label → gen/text and gen/axis → charts/plot
    // makes charts ⇄ gen with no module cycle at all.
    const dir = tree('folder-cycle', {
      ...CLEAN,
      'src/charts/label.ts': "import { text } from '../gen/text';\nexport const label = text;\n",
      'src/gen/axis.ts': "import { width } from '../charts/plot';\nexport const axis = width;\n",
    });
    const { code, output } = await check(dir, FOLDERS);
    expect(code).toBe(1);
    expect(output).toContain('no-folder-cycle');
    expect(output).toMatch(/src\/charts →\s+src\/gen →\s+src\/charts/);
  });

  it('fails on a forbidden direction (core importing an answer source)', async () => {
    const dir = tree('core-to-models', { ...CLEAN, 'src/core/ask.ts': "import type { Ids } from '../models/source';\nexport type Asked = Ids;\n" });
    const { code, output } = await check(dir, FOLDERS);
    expect(code).toBe(1);
    expect(output).toMatch(/core-stays-pure: src\/core\/ask\.ts → src\/models\/source\.ts/);
  });
});
