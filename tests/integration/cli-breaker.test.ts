/**
 * The CLI's provider breaker (issue #17, item 2, the page's FailureBreaker in src/models/breaker.ts):
 * against the local mock provider failing every request the same way, `npm run eval` stops after a
 * handful of requests (not problems × attempts), says why and what to do, and exits non-zero.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BREAKER_ATTEMPTS } from '../../src/models/breaker';
import { startMockProvider, type MockProvider } from '../support/mock-provider';
import { tempDirs } from '../support/temp-dirs';

const KEY = 'sk-mock-breaker-5c1e';
const LANGUAGES = 'javascript,typescript';
/** 16 problems (8 each) × 5 attempts: what the run sends for HTTP 500 without the breaker (80; 404 is not retried: 16). */
const PROBLEMS = 16;
const ATTEMPTS = 5;
const tmp = tempDirs('benchtop-breaker-')();

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider({ apiKey: KEY });
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['dist-node/cli.mjs', ...args], { timeout: 120_000, env: { ...process.env, OPENAI_API_KEY: KEY } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

const modelRequests = () => mock.requests.filter((r) => r.problem !== undefined).length;

describe('the CLI stops a run whose provider fails the same way on every request', () => {
  for (const status of [500, 404]) {
    it(`HTTP ${status} on every request: stops after ${BREAKER_ATTEMPTS} tries or so, with the fix, exit 1`, async () => {
      mock.inject({ problem: '*', fault: { kind: 'status', status }, times: Infinity });
      const out = join(tmp, `fails-${status}.jsonl`);
      const run = await cli([
        '--data', 'bench-data/demo.jsonl', '--model', 'openai:mock-coder', '--base-url', mock.baseUrl('openai'),
        '--languages', LANGUAGES, '--concurrency', '2', '--attempts', String(ATTEMPTS), '--retry-delay', '0', '--out', out,
      ]);
      const sent = modelRequests();
      console.log(`HTTP ${status}: ${sent} model requests, exit ${run.code}`);
      expect(run.code, run.stderr).toBe(1);
      // The breaker trips at its threshold; requests already in flight on the other lane may add one each.
      expect(sent).toBeGreaterThanOrEqual(BREAKER_ATTEMPTS);
      expect(sent).toBeLessThanOrEqual(BREAKER_ATTEMPTS + 2);
      expect(sent).toBeLessThan(PROBLEMS * ATTEMPTS);
      expect(run.stderr).toContain('error: the run stopped early; answers and results so far are kept in');
      expect(run.stderr).toContain('requests in a row failed the same way and none succeeded');
      expect(run.stderr).toContain(`HTTP ${status}`);
      expect(run.stderr).toContain(status === 404 ? 'Check the base URL' : 'Check that the server is up');
      expect(run.stderr).toContain('--retry-errors');
      // No CORS advice for a CLI, and no report as if the run had finished.
      expect(run.stderr).not.toContain('CORS');
      expect(run.stdout).not.toContain('Pass@1');
    });
  }
});
