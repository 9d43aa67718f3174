/**
 * Stop in the generator's engine (src/gen/stages.ts), with a real runtime (the CLI's executor) and
 * the real local mock provider: a stopped job's run in flight is abandoned and its model request
 * aborted at once, and neither lands in the journal, even once the run ends afterwards. The page's
 * Stop button is tests/e2e/generate-stop.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileJournal } from '../../src/gen/journal-file';
import { GEN_SYSTEM } from '../../src/gen/prompts';
import { ask, runProgram, Stopped, type GenContext } from '../../src/gen/stages';
import { createProviderModel } from '../../src/models/providers';
import { startGenMock, type GenMock } from '../support/gen-mock-provider';
import { useNodeExecutor } from '../support/runtimes';
import { tempDirs } from '../support/temp-dirs';

const tmp = tempDirs('benchtop-gen-stop-')();
const executor = useNodeExecutor();
let mock: GenMock;
beforeAll(async () => {
  mock = await startGenMock();
});
afterAll(() => mock?.close());

function context(name: string, signal: AbortSignal): { ctx: GenContext; lines: (type: string) => number } {
  const path = join(tmp, `${name}.journal.jsonl`);
  const generator = createProviderModel({ kind: 'openai', baseUrl: mock.baseUrl, model: 'mock-gen', id: 'openai:mock-gen', systemPrompt: GEN_SYSTEM, retry: { attempts: 1 } });
  const ctx: GenContext = {
    language: 'javascript', generator, critic: generator, executor, journal: FileJournal.open(path, false),
    samples: 1, criticThreshold: 6, dropAlwaysSolved: false, signal,
  };
  const lines = (type: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l.startsWith(`{"type":"${type}"`)).length;
  return { ctx, lines };
}

describe('Stop in the generator engine', () => {
  it('abandons a run in flight: Stopped at once, and its result never journalled', { timeout: 120_000 }, async () => {
    // Warm the JavaScript worker first, so the timing below is the run's, not the runtime's start.
    await executor.run({ language: 'javascript', program: 'console.log(1)', timeoutMs: 30_000 });
    const controller = new AbortController();
    const { ctx, lines } = context('run', controller.signal);
    const busy = 'const t = Date.now(); while (Date.now() - t < 4000) {} console.log("ran");\n';
    const started = Date.now();
    const stopped = runProgram(ctx, busy).then(() => 'finished', (e: unknown) => e);
    setTimeout(() => controller.abort(), 300);
    expect(await stopped).toBeInstanceOf(Stopped);
    // Well before the 4 s program ends (margin for a loaded machine).
    expect(Date.now() - started).toBeLessThan(3000);
    // The abandoned run ends in the worker (the next run queues behind it); still nothing journalled.
    await executor.run({ language: 'javascript', program: 'console.log(2)', timeoutMs: 30_000 });
    expect(lines('run')).toBe(0);
  });

  it('aborts a model request in flight: Stopped at once, the server sees the client go, nothing journalled', { timeout: 60_000 }, async () => {
    mock.setDelay(5000);
    const controller = new AbortController();
    const { ctx, lines } = context('ask', controller.signal);
    // A review question (the mock answers it with a fixed score) about one of its seeds.
    const prompt = 'Stage: review\n```\nfunction square(x) { return x * x; }\n```\n';
    const started = Date.now();
    const stopped = ask(ctx, ctx.generator, 'filters', prompt).then(() => 'answered', (e: unknown) => e);
    await expect.poll(() => mock.pending(), { interval: 20 }).toBe(1);
    controller.abort();
    expect(await stopped).toBeInstanceOf(Stopped);
    expect(Date.now() - started).toBeLessThan(4000);
    await expect.poll(() => mock.aborted.has(mock.bodies.length - 1)).toBe(true);
    expect(lines('ask')).toBe(0);
    mock.setDelay(0);
  });
});
