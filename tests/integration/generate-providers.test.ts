/**
 * `npm run generate` with its three models on three providers: the generator on an OpenAI-compatible
 * server, the critic on Anthropic Messages, the difficulty model on Gemini, each with its own base
 * URL and key variable. One real local mock (tests/support/gen-mock-provider.ts) speaks all three
 * wire formats and records which format and key each request came in with.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGenMock, type GenMock } from '../support/gen-mock-provider';
import { tempDirs } from '../support/temp-dirs';

interface Run { code: number | null; stdout: string; stderr: string }
const tmp = tempDirs('benchtop-gen-providers-')();
const KEYS = { OPENAI_API_KEY: 'sk-gen-openai-1', CRITIC_KEY: 'sk-ant-critic-2', SMALL_KEY: 'gm-small-3' };

function node(script: string, args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...KEYS };
  delete env.ANTHROPIC_API_KEY;
  delete env.GEMINI_API_KEY;
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { timeout: 590_000, env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

let mock: GenMock;
beforeAll(async () => {
  mock = await startGenMock();
});
afterAll(() => mock?.close());

describe('npm run generate, critic and difficulty models on other providers', () => {
  it('asks each model on its own provider, with its own key; the output evaluates at 100%', { timeout: 600_000 }, async () => {
    // Two of the Python seeds: count_vowels and clamp (whose first tests are sent back once).
    const seeds = join(tmp, 'seeds.jsonl');
    writeFileSync(seeds, readFileSync('bench-data/gen-seeds/python.jsonl', 'utf8').split('\n').slice(0, 2).join('\n') + '\n');
    const out = join(tmp, 'three.jsonl');
    const run = await node('dist-node/generate.mjs', [
      '--seeds', seeds, '--language', 'python', '--model', 'openai:mock-gen', '--base-url', mock.baseUrls.openai,
      '--critic-model', 'anthropic:mock-critic', '--critic-base-url', mock.baseUrls.anthropic, '--critic-api-key-env', 'CRITIC_KEY',
      '--difficulty-model', 'gemini:mock-small', '--difficulty-base-url', mock.baseUrls.gemini, '--difficulty-api-key-env', 'SMALL_KEY',
      '--samples', '3', '--out', out,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(lastLine(run.stdout)).toBe('generated: 2 of 2 seeds (none dropped)');

    const asked = mock.kinds.map((kind, i) => `${kind} ${mock.stages[i]} ${mock.keys[i]}`);
    const count = (line: string) => asked.filter((a) => a === line).length;
    // Generator: solution, tests (clamp's twice: one send-back), statement per seed; critic: once
    // per problem; difficulty: --samples times per problem. Nothing else, nowhere else.
    expect(count('openai solution sk-gen-openai-1')).toBe(2);
    expect(count('openai tests sk-gen-openai-1')).toBe(3);
    expect(count('openai statement sk-gen-openai-1')).toBe(2);
    expect(count('anthropic critic sk-ant-critic-2')).toBe(2);
    expect(count('gemini difficulty gm-small-3')).toBe(6);
    expect(asked).toHaveLength(15);

    const records = readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => [r.critic_model, r.difficulty_model, r.critic_score])).toEqual([
      ['anthropic:mock-critic', 'gemini:mock-small', 8], ['anthropic:mock-critic', 'gemini:mock-small', 8],
    ]);
    const manifest = JSON.parse(readFileSync(`${out}.manifest.json`, 'utf8')) as { models: Record<string, { id: string; kind: string; baseUrl: string }> };
    expect(Object.values(manifest.models).map((m) => [m.id, m.kind, m.baseUrl])).toEqual([
      ['openai:mock-gen', 'openai', mock.baseUrls.openai],
      ['anthropic:mock-critic', 'anthropic', mock.baseUrls.anthropic],
      ['gemini:mock-small', 'gemini', mock.baseUrls.gemini],
    ]);
    for (const file of [out, `${out}.manifest.json`, `${out}.journal.jsonl`]) {
      for (const key of Object.values(KEYS)) expect(readFileSync(file, 'utf8')).not.toContain(key);
    }

    const evaluated = await node('dist-node/cli.mjs', ['--data', out, '--model', 'canonical']);
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect(lastLine(evaluated.stdout)).toBe('Pass@1: 100.0% (2/2)');
  });

  it('refuses a critic connection flag without a critic model, and names the flag of a bad one', { timeout: 60_000 }, async () => {
    const base = ['--seeds', 'bench-data/gen-seeds/python.jsonl', '--language', 'python', '--model', 'openai:mock-gen', '--base-url', mock.baseUrls.openai, '--out', join(tmp, 'refused.jsonl')];
    const stray = await node('dist-node/generate.mjs', [...base, '--critic-base-url', mock.baseUrls.anthropic]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--critic-base-url applies only with --critic-model');
    const bad = await node('dist-node/generate.mjs', [...base, '--difficulty-model', 'gemini:small', '--difficulty-base-url', 'ftp://x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--difficulty-model: --difficulty-base-url must be an http(s) URL, got "ftp://x"');
  });
});
