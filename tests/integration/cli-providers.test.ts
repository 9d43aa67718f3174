/**
 * `npm run eval` with real providers, against the local mock server (tests/support/mock-provider.ts):
 * Pass@1 per provider kind, retries and INFRA_ERROR, --retry-errors, a refused key stopping the
 * run, a killed run resumed without duplicate requests, and the key never leaving its header.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LanguageId } from '../../src/contracts';
import { parseDataset } from '../../src/core/records';
import { startMockProvider, type Kind, type MockProvider } from '../support/mock-provider';
import { tempDirs } from '../support/temp-dirs';

/** The provider tests run the three quickest in-page languages: they are about providers, not runtimes. */
const WORKER_LANGUAGES: readonly LanguageId[] = ['python', 'javascript', 'typescript'];

const KEY = 'sk-mock-cli-77e1d0c3b2a9';
const KEY_ENV = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY', gemini: 'GEMINI_API_KEY' } as const;
const tmp = tempDirs('benchtop-providers-')();
// The CLI without --runner runs (and asks the model about) only the languages with an in-process
// runtime; the demo set's other languages would be reported unavailable, so the runs are limited.
const problems = parseDataset(readFileSync('bench-data/demo.jsonl', 'utf8')).problems.filter((p) => WORKER_LANGUAGES.includes(p.language));
const expected = new Map(readFileSync('bench-data/demo-answers.jsonl', 'utf8').trim().split('\n')
  .map((l) => JSON.parse(l) as { id: string; expected: { demo: string; full: string } }).map((a) => [a.id, a.expected]));
const passes = (id: string) => expected.get(id)!.demo === 'PASSED' && expected.get(id)!.full === 'PASSED';

interface CliRun { code: number | null; stdout: string; stderr: string }

/** The environment of a child: none of the real key variables, only the ones given. */
function envWith(vars: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.values(KEY_ENV)) delete env[name];
  return { ...env, ...vars };
}

function cli(args: string[], vars: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['dist-node/cli.mjs', ...args], { timeout: 300_000, env: envWith(vars) }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);
const jsonl = (file: string) => readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider({ apiKey: KEY });
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const providerArgs = (kind: Kind, out: string, ...more: string[]) => [
  '--data', `${mock.url}/data/demo.jsonl`, '--model', `${kind}:mock-coder`, '--base-url', mock.baseUrl(kind), '--timeout', '3', '--out', out,
  // Concurrency fixed at 2 (the default is the machine's cores): the refused-key case counts requests in flight.
  '--languages', WORKER_LANGUAGES.join(','), '--concurrency', '2', ...more,
];

/** Every header of every request that holds the key, as "kind header". */
function keyCarriers(): string[] {
  return mock.requests.flatMap((r) => Object.entries(r.headers).filter(([, v]) => String(v).includes(KEY)).map(([h]) => `${r.kind ?? r.url} ${h}`));
}

describe('npm run eval with a provider', () => {
  it.each<[Kind, boolean]>([['openai', false], ['anthropic', true], ['gemini', true]])(
    '%s (stream: %s): the demo set gives the recorded Pass@1, and the key stays in its header',
    async (kind, stream) => {
      const out = join(tmp, `${kind}.jsonl`);
      const run = await cli(providerArgs(kind, out, ...(stream ? ['--stream'] : [])), { [KEY_ENV[kind]]: KEY });
      expect(run.stderr).not.toContain('error');
      expect(run.code).toBe(0);
      expect(lastLine(run.stdout)).toBe('Pass@1: 58.3% (14/24)');
      expect(run.stdout).toMatch(/^tokens: [\d,]+ in, [\d,]+ out/m);
      for (const p of problems) expect(mock.countFor(p.id)).toBe(1);

      const lines = jsonl(out);
      expect(lines.map((l) => l.id)).toEqual(problems.map((p) => p.id));
      for (const l of lines) {
        expect({ demo: l.demo_outcome, full: l.full_outcome }).toEqual(expected.get(l.id as string));
        expect(l.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) });
        expect(typeof l.output).toBe('string');
      }
      const journal = readFileSync(`${out}.journal.jsonl`, 'utf8');
      expect(journal.split('\n').filter((l) => l.includes('"type":"answer"'))).toHaveLength(24);
      expect(lastLine(journal)).toContain('"type":"end"');

      // The key: in the provider's header of model requests only; never in a URL, a file or the output.
      for (const text of [readFileSync(out, 'utf8'), journal, run.stdout, run.stderr]) expect(text).not.toContain(KEY);
      expect(mock.requests.some((r) => r.url === '/data/demo.jsonl')).toBe(true);
      expect(mock.requests.every((r) => !r.url.includes(KEY))).toBe(true);
      const header = { openai: 'authorization', anthropic: 'x-api-key', gemini: 'x-goog-api-key' }[kind];
      expect(new Set(keyCarriers())).toEqual(new Set([`${kind} ${header}`]));
      expect(keyCarriers()).toHaveLength(24);
    },
  );

  it('injected failures are retried; one that never clears is INFRA_ERROR after the retries, excluded from Pass@1; --retry-errors re-asks only it', async () => {
    const js = problems.filter((p) => p.language === 'javascript');
    const [p429, p500, p529, pMalformed, pDrop, pSlow, pHtml, pDropMid] = js.map((p) => p.id);
    mock.inject({ problem: p429!, fault: { kind: 'status', status: 429, retryAfter: '1' }, times: 2 });
    mock.inject({ problem: p500!, fault: { kind: 'status', status: 500 }, times: Infinity });
    mock.inject({ problem: p529!, fault: { kind: 'status', status: 529 }, times: 2 });
    mock.inject({ problem: pMalformed!, fault: { kind: 'malformed' }, times: 1 });
    mock.inject({ problem: pDrop!, fault: { kind: 'drop' }, times: 1 });
    mock.inject({ problem: pSlow!, fault: { kind: 'slow', delayMs: 5000 }, times: 1 });
    mock.inject({ problem: pHtml!, fault: { kind: 'html' }, times: 1 });
    mock.inject({ problem: pDropMid!, fault: { kind: 'drop-mid' }, times: 1 });
    const out = join(tmp, 'faults.jsonl');
    const promptFile = join(tmp, 'system.txt');
    writeFileSync(promptFile, 'Reply with one fenced code block.\n');
    const args = providerArgs('openai', out, '--languages', 'javascript', '--attempts', '3', '--retry-delay', '0.05', '--request-timeout', '2',
      '--system-prompt-file', promptFile, '--temperature', '0', '--top-p', '0.9', '--max-tokens', '4096');
    const run = await cli(args, { OPENAI_API_KEY: KEY });
    expect(run.code).toBe(0);
    const body = JSON.parse(mock.requests.find((r) => r.kind === 'openai')!.body);
    expect(body).toMatchObject({ model: 'mock-coder', temperature: 0, top_p: 0.9, max_tokens: 4096 });
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Reply with one fenced code block.' });

    expect(js.map((p) => mock.countFor(p.id))).toEqual([3, 3, 3, 2, 2, 2, 2, 2]);
    const lines = jsonl(out);
    const failed = lines.find((l) => l.id === p500)!;
    expect(failed).toMatchObject({ verdict: 'infra_error', demo_outcome: 'INFRA_ERROR', full_outcome: 'INFRA_ERROR', passed: false });
    expect(failed.error).toMatch(/answer unavailable: openai \(127\.0\.0\.1:\d+\): HTTP 500 .*gave up after 3 attempts/);
    for (const l of lines.filter((l) => l.id !== p500)) expect({ demo: l.demo_outcome, full: l.full_outcome }).toEqual(expected.get(l.id as string));
    const passedWithout = js.filter((p) => p.id !== p500 && passes(p.id)).length;
    expect(run.stdout).toContain('1 problem(s) could not be evaluated (INFRA_ERROR)');
    expect(lastLine(run.stdout)).toBe(`Pass@1: ${((passedWithout / 7) * 100).toFixed(1)}% (${passedWithout}/7)`);

    // The server recovers; --retry-errors asks again for that one problem only.
    mock.reset();
    const again = await cli([...args, '--retry-errors'], { OPENAI_API_KEY: KEY });
    expect(again.code).toBe(0);
    expect(js.map((p) => mock.countFor(p.id))).toEqual(js.map((p) => (p.id === p500 ? 1 : 0)));
    const passedAll = js.filter((p) => passes(p.id)).length;
    expect(lastLine(again.stdout)).toBe(`Pass@1: ${((passedAll / 8) * 100).toFixed(1)}% (${passedAll}/8)`);
    const fixed = jsonl(out).find((l) => l.id === p500)!;
    expect({ demo: fixed.demo_outcome, full: fixed.full_outcome }).toEqual(expected.get(p500!));
    expect(jsonl(out).map((l) => l.id)).toEqual(js.map((p) => p.id));
  });

  it.each<Kind>(['openai', 'anthropic', 'gemini'])('%s: a refused key stops the run at once with a clear message and exit 1', async (kind) => {
    const out = join(tmp, `refused-${kind}.jsonl`);
    const run = await cli(providerArgs(kind, out), { [KEY_ENV[kind]]: 'sk-wrong-0000000000' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`error: ${kind} \\(127\\.0\\.0\\.1:\\d+\\) refused the API key \\(HTTP 40[01]`));
    expect(run.stderr).toContain('continue with --resume');
    expect(run.stderr).not.toContain('sk-wrong-0000000000');
    expect(run.stdout).not.toContain('Pass@1');
    // Only the requests in flight (concurrency 2), no retries.
    expect(mock.requests.filter((r) => r.kind === kind).length).toBeLessThanOrEqual(2);
    expect(existsSync(out)).toBe(false);
  });

  it('a run killed at random points and resumed sends no duplicate request for answered problems and ends with the same Pass@1', async () => {
    const out = join(tmp, 'killed.jsonl');
    const journalFile = `${out}.journal.jsonl`;
    mock.inject({ problem: '*', fault: { kind: 'slow', delayMs: 150 }, times: Infinity });
    const args = providerArgs('anthropic', out, '--stream');
    const answered = () => (existsSync(journalFile) ? readFileSync(journalFile, 'utf8').split('\n').filter((l) => l.includes('"type":"answer"')).length : 0);
    /** Starts the CLI (resuming after the first kill) and SIGKILLs it once `target` answers are journalled. */
    const killWhenAnswered = async (target: number, resume: boolean) => {
      const child = spawn(process.execPath, ['dist-node/cli.mjs', ...args, ...(resume ? ['--resume'] : [])], { env: envWith({ ANTHROPIC_API_KEY: KEY }), stdio: 'ignore' });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_, signal) => resolve(signal)));
      const deadline = Date.now() + 120_000;
      while (answered() < target && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
    };
    // Two kills at random points (printed, so a failure can be replayed): one in the first run,
    // one in the resumed run.
    const first = 1 + Math.floor(Math.random() * 10);
    const second = first + 1 + Math.floor(Math.random() * 10);
    console.log(`killing the CLI after ${first} and then ${second} journalled answers`);
    await killWhenAnswered(first, false);
    expect(existsSync(out)).toBe(false);
    const answeredIn = (): string[] => jsonl(journalFile).filter((e) => e.type === 'answer').map((e) => e.id as string);
    const countNow = () => new Map(problems.map((p) => [p.id, mock.countFor(p.id)]));
    const afterFirst = answeredIn();
    const asked1 = countNow();
    expect(afterFirst.length).toBeGreaterThanOrEqual(first);

    mock.reset();
    await killWhenAnswered(second, true);
    expect(existsSync(out)).toBe(false);
    for (const id of afterFirst) expect(mock.countFor(id), `answered before the first kill: ${id}`).toBe(0);
    const afterSecond = answeredIn();
    const asked2 = countNow();
    expect(afterSecond.length).toBeGreaterThanOrEqual(second);
    expect(afterSecond.length).toBeLessThan(24);

    // Starting afresh over an unfinished run is refused: it would lose it.
    const fresh = await cli(args, { ANTHROPIC_API_KEY: KEY });
    expect(fresh.code).toBe(1);
    expect(fresh.stderr).toContain('holds an unfinished run: continue it with --resume');

    mock.reset();
    const resumed = await cli([...args, '--resume'], { ANTHROPIC_API_KEY: KEY });
    expect(resumed.code).toBe(0);
    expect(lastLine(resumed.stdout)).toBe('Pass@1: 58.3% (14/24)');
    for (const id of afterSecond) expect(mock.countFor(id), `answered before the second kill: ${id}`).toBe(0);
    for (const p of problems) {
      // Asked once in the run that got its answer, plus at most once in each earlier run that was
      // killed while its request was in flight.
      const total = asked1.get(p.id)! + asked2.get(p.id)! + mock.countFor(p.id);
      const allowed = afterFirst.includes(p.id) ? 1 : afterSecond.includes(p.id) ? 2 : 3;
      expect(total, p.id).toBeGreaterThanOrEqual(1);
      expect(total, p.id).toBeLessThanOrEqual(allowed);
    }
    const lines = jsonl(out);
    expect(lines.map((l) => l.id)).toEqual(problems.map((p) => p.id));
    for (const l of lines) expect({ demo: l.demo_outcome, full: l.full_outcome }).toEqual(expected.get(l.id as string));
    for (const text of [readFileSync(out, 'utf8'), readFileSync(journalFile, 'utf8')]) expect(text).not.toContain(KEY);
  });

  it.each([
    [['--model', 'openai:'], 'names no model'],
    [['--model', 'openai:m', '--temperature', '3'], '--temperature must be a number from 0 to 2'],
    [['--model', 'openai:m', '--base-url', 'ftp://x'], '--base-url must be an http(s) URL'],
    [['--model', 'openai:m', '--api-key-env', 'sk-abcdef'], '--api-key-env takes the NAME'],
    [['--model', 'openai:m', '--resume'], '--resume needs --out'],
    [['--model', 'canonical', '--stream'], '--stream applies only to provider models'],
  ])('bad provider arguments %j exit 2 with a clear message', async (args, message) => {
    const run = await cli(['--data', 'bench-data/demo.jsonl', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toContain('sk-abcdef');
  });

  it('a missing key is named by its variable', async () => {
    const run = await cli(['--data', 'bench-data/demo.jsonl', '--model', 'anthropic:claude-x']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error: no API key: set ANTHROPIC_API_KEY');
    expect(mock.requests).toHaveLength(0);
  });
});
