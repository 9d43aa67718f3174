/** `npm run eval` as a user runs it: the bundled CLI in a child process. */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedInPage } from '../../runtimes/host/catalog';
import { WORKER_LANGUAGES } from '../../runtimes/host/languages';
import { LANGUAGE_NAMES, type LanguageId } from '../../src/contracts';
import { parseDataset } from '../../src/core/records';
import { tempDirs } from '../support/temp-dirs';

interface CliRun { code: number | null; stdout: string; stderr: string }

function cli(...args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['dist-node/cli.mjs', ...args], { timeout: 590_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);
const tmp = tempDirs('benchtop-cli-')();
const demo = readFileSync('bench-data/demo.jsonl', 'utf8');
// Problems per language, in first-seen order; the CLI without --runner runs only the languages
// with an in-process runtime that `auto` trusts (runtimes/host/catalog.ts) and reports the others
// as unavailable (never as failed).
const perLanguage = new Map<LanguageId, number>();
for (const p of parseDataset(demo).problems) perLanguage.set(p.language, (perLanguage.get(p.language) ?? 0) + 1);
const inPage = (language: LanguageId) => WORKER_LANGUAGES.includes(language) && trustedInPage(language);
const runnable = [...perLanguage].filter(([language]) => inPage(language));
const unavailable = [...perLanguage].filter(([language]) => !inPage(language));
const count = (entries: [LanguageId, number][]) => entries.reduce((sum, [, n]) => sum + n, 0);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/demo.jsonl') res.end(demo);
    else if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><body>Not JSONL</body></html>');
    else res.writeHead(404).end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('npm run eval', () => {
  it('canonical solutions of the demo set: a per-language table, Pass@1 100% over the runnable languages, the rest unavailable', { timeout: 600_000 }, async () => {
    expect(perLanguage.size).toBe(20);
    expect(runnable.length).toBeGreaterThan(0);
    const run = await cli('--data', 'bench-data/demo.jsonl', '--model', 'canonical');
    expect(run.code).toBe(0);
    const total = count(runnable);
    expect(lastLine(run.stdout)).toBe(`Pass@1: 100.0% (${total}/${total})`);
    for (const [language, n] of runnable) {
      expect(run.stdout).toMatch(new RegExp(`^${escape(LANGUAGE_NAMES[language])}\\s+${n}/${n}\\s+100\\.0%`, 'm'));
    }
    // Languages without a runtime here are listed as unavailable and excluded from the denominator.
    const note = run.stdout.split('\n').find((l) => l.startsWith('unavailable here'));
    if (unavailable.length) expect(note).toBeDefined();
    for (const [language, n] of unavailable) expect(note).toContain(`${LANGUAGE_NAMES[language]} (${n})`);
  });

  it('with --languages limited to runnable languages, nothing is reported unavailable', async () => {
    const some = runnable.slice(0, 3);
    const run = await cli('--data', 'bench-data/demo.jsonl', '--model', 'canonical', '--languages', some.map(([language]) => language).join(','));
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('unavailable here');
    expect(lastLine(run.stdout)).toBe(`Pass@1: 100.0% (${count(some)}/${count(some)})`);
  });

  it('replays recorded answers with filters, and writes --out records in input order', async () => {
    const out = join(tmp, 'results.jsonl');
    const run = await cli('--data', 'bench-data/demo.jsonl', '--model', 'replay:bench-data/demo-answers.jsonl',
      '--languages', 'js,typescript', '--limit', '10', '--timeout', '3', '--out', out);
    expect(run.code).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(10);
    expect(lines.map((l) => l.language)).toEqual([...Array(8).fill('javascript'), 'typescript', 'typescript']);
    const answers = readFileSync('bench-data/demo-answers.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const byId = new Map(answers.map((a) => [a.id, a]));
    for (const l of lines) {
      for (const field of ['question', 'canonical_solution', 'demo_test_func', 'full_test_func', 'language', 'difficulty', 'id', 'extracted_code', 'output']) {
        expect(l, field).toHaveProperty(field);
      }
      expect(typeof l.duration_ms).toBe('number');
      expect(l.output).toBe(byId.get(l.id).output);
      expect({ demo: l.demo_outcome, full: l.full_outcome }).toEqual(byId.get(l.id).expected);
      expect(l.passed).toBe(l.demo_outcome === 'PASSED' && l.full_outcome === 'PASSED');
    }
    const passed = lines.filter((l) => l.passed).length;
    expect(lastLine(run.stdout)).toBe(`Pass@1: ${((passed / 10) * 100).toFixed(1)}% (${passed}/10)`);
  });

  it('re-scores an --out file with replay (its own output fields), matched by id', async () => {
    const out = join(tmp, 'first.jsonl');
    // JavaScript: its runtime loads in a fraction of Pyodide's time, and re-scoring is the same for every language.
    await cli('--data', 'bench-data/demo.jsonl', '--model', 'replay:bench-data/demo-answers.jsonl', '--languages', 'javascript', '--timeout', '3', '--out', out);
    // One after the other: each CLI run already uses both cores (side by side they were slower in CI).
    const again = await cli('--data', out, '--model', 'replay', '--timeout', '3');
    const first = await cli('--data', 'bench-data/demo.jsonl', '--model', `replay:${out}`, '--languages', 'javascript', '--timeout', '3');
    expect(again.code).toBe(0);
    expect(lastLine(again.stdout)).toMatch(/^Pass@1: \d+\.\d% \(\d+\/8\)$/);
    expect(lastLine(first.stdout)).toBe(lastLine(again.stdout));
  });

  it('loads a dataset from a URL', async () => {
    const run = await cli('--data', `${base}/demo.jsonl`, '--model', 'canonical', '--languages', 'python', '--limit', '2');
    expect(run.code).toBe(0);
    expect(lastLine(run.stdout)).toBe('Pass@1: 100.0% (2/2)');
  });

  it('reports bad lines by number and still evaluates the rest', async () => {
    const file = join(tmp, 'mixed.jsonl');
    writeFileSync(file, demo.split('\n')[0] + '\n{broken\n' + JSON.stringify({ question: 'q' }) + '\n');
    const run = await cli('--data', file, '--model', 'canonical');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('line 2: not valid JSON');
    expect(run.stderr).toContain('line 3: missing fields');
    expect(lastLine(run.stdout)).toBe('Pass@1: 100.0% (1/1)');
  });

  it.each([
    [['--model', 'canonical'], '--data is required'],
    [['--data', 'x.jsonl'], '--model is required'],
    [['--data', 'x', '--model', 'gpt'], 'unknown --model "gpt"'],
    [['--data', 'x', '--model', 'canonical', '--limit', 'ten'], '--limit must be a whole number'],
    [['--data', 'x', '--model', 'canonical', '--languages', 'cobol'], 'unknown language: cobol'],
    [['--data', 'x', '--model', 'canonical', '--mode', 'loose'], '--mode must be compat or strict'],
    [['--data', 'x', '--model', 'canonical', '--frobnicate'], "Unknown option '--frobnicate'"],
  ])('bad arguments %j exit 2 with a clear message and the usage', async (args, message) => {
    const run = await cli(...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('usage: npm run eval');
  });

  it.each([
    [() => join(tmp, 'missing.jsonl'), 'could not read', 'ENOENT'],
    [() => `${base}/missing.jsonl`, 'HTTP 404', ''],
    [() => `${base}/page.html`, 'holds no valid AutoCodeBench records', 'line 1: not valid JSON'],
  ])('unreadable data exits 1 and names the problem', async (source, message, detail) => {
    const run = await cli('--data', source(), '--model', 'canonical');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain(detail);
  });
});
