// scripts/check-references.mjs (run by `npm run check`): it must fail on a comment or document
// naming a file or npm script that does not exist, and pass on references that do.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = new URL('../../scripts/check-references.mjs', import.meta.url).pathname;
let root = '';

/** A small repository: the files given, plus package.json with one script. */
function tree(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'benchtop-refs-'));
  execFileSync('git', ['init', '-q'], { cwd: root });
  const all = { 'package.json': JSON.stringify({ scripts: { check: 'true' } }), 'src/core/engine.ts': 'export {};\n', ...files };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function check(dir: string): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [SCRIPT, '--root', dir], { encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = '';
});

describe('scripts/check-references.mjs', () => {
  it('passes when every file and script named in comments and docs exists', () => {
    const dir = tree({
      'src/core/rules.ts': '// see src/core/engine.ts, ./engine.ts, core/engine.ts and engine.ts\nexport {};\n',
      'src/app/App.svelte': '<!-- the engine: ../core/engine.ts -->\n<p>hi</p>\n',
      'README.md': 'Run `npm run check`; the engine is [here](src/core/engine.ts); results go to `--out results.jsonl`.\n',
    });
    expect(check(dir)).toEqual({ status: 0, stderr: '' });
  });

  it('fails on a made-up file in a comment, naming where it is', () => {
    const dir = tree({ 'src/core/rules.ts': 'export {};\n/**\n * Spliced as in src/core/splice-made-up.ts.\n */\n' });
    const { status, stderr } = check(dir);
    expect(status).toBe(1);
    expect(stderr).toContain('src/core/rules.ts:3: src/core/splice-made-up.ts does not exist');
  });

  it('fails on a made-up file or npm script in a document, and on a file in another folder than named', () => {
    const dir = tree({
      'docs/architecture.md': 'Built by `npm run build:node`, tested in tests/engine.test.ts.\n',
      'tests/unit/engine.test.ts': '// covers src/engine.ts\n',
    });
    const { status, stderr } = check(dir);
    expect(status).toBe(1);
    expect(stderr).toContain('docs/architecture.md:1: npm run build:node does not exist');
    expect(stderr).toContain('docs/architecture.md:1: tests/engine.test.ts does not exist');
    expect(stderr).toContain('tests/unit/engine.test.ts:1: src/engine.ts does not exist');
  });

  it('reads comments, not code: a path in a string is not a reference', () => {
    const dir = tree({ 'src/core/load.ts': "export const file = 'src/core/generated-at-run-time.ts';\n" });
    expect(check(dir).status).toBe(0);
  });
});
