/**
 * Issue #12, findings 2 and 5, end to end: `npm run eval` (dist-node/cli.mjs) over
 * bench-data/hostile/clean-slate.jsonl, where each in-page language has a hostile canonical
 * solution (it patches builtins, assert, exit, print, the test library, files; or leaves a late
 * 30 MB flood) followed by wrong solutions that must fail and right ones that must pass.
 * `--concurrency 1` runs the problems one after the other, in file order; each problem's demo and
 * full runs go to the language's pool together, and the first idle worker takes the demo run, so
 * every program after an attack runs in a worker that ran the attack. The host must be untouched.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve as resolve_ } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNative } from '../../runtimes/native/process';
import { judgeRun } from '../../src/core/rules';
import { cleanSlateJsonl, cleanSlateRecords } from '../support/hostile/clean-slate-attacks';

const DATA = resolve_('bench-data/hostile/clean-slate.jsonl');
const records = cleanSlateRecords();
/** Host paths the hostile programs write or change inside their runtimes' own file trees. */
const HOST_PATHS = ['/tmp/leak', '/tmp/benchtop', '/tmp/benchtop/test.sh', '/usr/share/benchtop', '/usr/lib/R/etc/Rprofile.site', '/home/pyodide'];
const stamp = (path: string) => {
  try {
    const s = statSync(path);
    return `${s.size} ${s.mtimeMs} ${s.mode}`;
  } catch {
    return 'absent';
  }
};

describe('a hostile eval set for findings 2 and 5 under the CLI (issue #12)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'benchtop-clean-slate-'));
  const secret = `canary-${randomUUID()}`;
  const before = new Map(HOST_PATHS.map((p) => [p, stamp(p)]));
  let cli = { status: null as number | null, output: '' };
  let results: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    mkdirSync(join(dir, 'cwd'));
    // A generous limit: nothing here runs away, and clang on a loaded 2-core machine is slow.
    const args = ['--data', DATA, '--model', 'canonical', '--out', join(dir, 'results.jsonl'), '--concurrency', '1', '--timeout', '120'];
    cli = await new Promise((resolve) => {
      const child = spawn(process.execPath, [resolve_('dist-node/cli.mjs'), ...args], {
        cwd: join(dir, 'cwd'),
        env: { ...process.env, BENCHTOP_CLEAN_SLATE_CANARY: secret },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      child.on('close', (status) => resolve({ status, output }));
    });
    results = readFileSync(join(dir, 'results.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  }, 900_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the committed clean-slate.jsonl is the one clean-slate-attacks.ts builds', () => {
    expect(readFileSync(DATA, 'utf8')).toBe(cleanSlateJsonl());
  });

  it('the CLI finished and evaluated every problem, in order, none as an infrastructure error', () => {
    expect(cli.status, cli.output.slice(-2000)).toBe(0);
    expect(results.map((r) => r.id)).toEqual(records.map((r) => r.id));
    expect(results.filter((r) => r.verdict === 'infra_error').map((r) => `${r.id}: ${r.error}`)).toEqual([]);
  });

  it.each(records.map((r) => [`${r.id} ${r.step.name}`, r] as const))('%s: its own verdict', (_label, record) => {
    const result = results.find((r) => r.id === record.id)!;
    const detail = `${result.demo_outcome}/${result.full_outcome} ${result.error ?? ''}`;
    expect(result.demo_outcome, detail).toBe(record.step.expected);
    expect(result.full_outcome, detail).toBe(record.step.expected);
    expect(result.verdict, detail).toBe(record.step.expected === 'PASSED' ? 'passed' : 'failed');
  });

  it('every wrong solution failed and every right one passed, in every language', () => {
    const verdicts = (kind: string) => records.filter((r) => r.step.name.startsWith(kind)).map((r) => [r.id, results.find((x) => x.id === r.id)?.verdict]);
    const wrong = verdicts('wrong:');
    const right = verdicts('right:');
    expect(new Set(wrong.map(([id]) => String(id).split('-')[1])).size).toBe(9);
    expect(new Set(right.map(([id]) => String(id).split('-')[1])).size).toBe(9);
    expect(wrong.filter(([, v]) => v !== 'failed')).toEqual([]);
    expect(right.filter(([, v]) => v !== 'passed')).toEqual([]);
  });

  it('the host is untouched: no file in the working folder, host paths as they were, no secret in the output', () => {
    expect(readdirSync(join(dir, 'cwd'))).toEqual([]);
    expect(new Map(HOST_PATHS.map((p) => [p, stamp(p)]))).toEqual(before);
    const everything = cli.output + readdirSync(dir).filter((f) => f.startsWith('results')).map((f) => readFileSync(join(dir, f), 'utf8')).join('');
    expect(everything).not.toContain(secret);
  });

  // The Python expectations come from python3 itself: each program on its own, in a new process.
  it('python3 gives each Python program the verdict the set expects', async () => {
    const got: string[] = [];
    for (const { id, language, step } of records) {
      if (language !== 'python') continue;
      const outcome = judgeRun('python', await runNative({ language: 'python', program: step.program, timeoutMs: 30_000 }));
      if (outcome !== step.expected) got.push(`${id} ${step.name}: python3 says ${outcome}, the set ${step.expected}`);
    }
    expect(got).toEqual([]);
  }, 120_000);
});
