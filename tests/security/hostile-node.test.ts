/**
 * The hostile answer set (bench-data/hostile) through the CLI's executor (the same runtimes in
 * Node worker_threads): every attack gets its expected outcome, runaways end within their limit
 * plus a small margin and the run goes on, floods are cut with a mark, and a local listener on
 * 127.0.0.1 sees no connection at all. The browser's walls are checked in tests/e2e/hostile.test.ts.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { evaluateAll } from '../../src/core/engine';
import { parseDataset } from '../../src/core/records';
import { problemOutcome, type ProblemResult } from '../../src/core/results';
import { replayOwnOutputModel } from '../../src/models/replay';
import { ATTACKS, hostileJsonl } from '../../bench-data/hostile/attacks';

const LIMIT_MS = 5000;
/** Killing a Pyodide worker and reporting takes a moment beyond the limit; on a loaded 2-core CI machine, more. */
const MARGIN_MS = 3000;

describe('hostile answers under Node (the CLI)', () => {
  let listener: Server;
  let connections = 0;
  let results: ProblemResult[] = [];
  let elapsedMs = 0;

  beforeAll(async () => {
    listener = createServer((socket) => socket.destroy());
    listener.on('connection', () => connections++);
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as { port: number };
    const dataset = parseDataset(hostileJsonl(`http://127.0.0.1:${port}/benchtop-listener`));
    expect(dataset.errors).toEqual([]);
    const executor = createNodeExecutor({ poolSize: 2 });
    const started = Date.now();
    try {
      results = await evaluateAll(dataset.problems, replayOwnOutputModel, executor, { concurrency: 2, timeoutMs: () => LIMIT_MS });
    } finally {
      elapsedMs = Date.now() - started;
      await executor.dispose();
    }
  }, 240_000);

  afterAll(() => new Promise<void>((resolve) => listener?.close(() => resolve())));

  it('the committed hostile.jsonl is the one attacks.mjs builds', () => {
    expect(readFileSync('bench-data/hostile/hostile.jsonl', 'utf8')).toBe(hostileJsonl());
  });

  it('every problem was evaluated: no attack stopped the run', () => {
    expect(results.map((r) => r.id)).toEqual(ATTACKS.map((a) => a.id));
    expect(results.filter((r) => r.verdict === 'infra_error').map((r) => `${r.id}: ${r.error}`)).toEqual([]);
  });

  it.each(ATTACKS.map((a) => [a.id, a] as const))('%s gets its expected outcome', (id, attack) => {
    const result = results.find((r) => r.id === id)!;
    const runs = [result.demo!, result.full!];
    const detail = runs.map((r) => `${r.outcome} exit=${r.exitCode} ${r.stderr.slice(-300)}`).join(' | ');
    expect(problemOutcome(result), detail).toBe(attack.expected);
    for (const run of runs) {
      // Within its limit plus a small margin, whatever the attack.
      expect(run.durationMs, detail).toBeLessThan(LIMIT_MS + MARGIN_MS);
      // Not before it either (timers run on a virtual clock: a timer that never stops is over at once).
      if (attack.expected === 'TIME_LIMIT_EXCEEDED' && id !== 'js-infinite-timers') expect(run.durationMs).toBeGreaterThanOrEqual(LIMIT_MS);
      // Output is capped whatever happens; a flood that finishes shows the mark. (A flood cut by the
      // time limit shows it too, unless the host had to kill the worker first: then there is no output.)
      expect(run.stdout.length).toBeLessThan((1 << 20) + 200);
      if (attack.truncated && (attack.expected === 'PASSED' || run.stdout)) {
        expect(run.truncated, detail).toBe(true);
        // The count is the worker's: what was really dropped (about 99 MB here), not the host's re-cut.
        const dropped = Number(/\n\[… truncated: (\d+) more (characters|bytes)\]$/.exec(run.stdout)?.[1]);
        expect(dropped, detail).toBeGreaterThan(attack.expected === 'PASSED' ? 90_000_000 : 0);
      }
    }
  });

  it('no connection reached the listener', () => {
    expect(connections).toBe(0);
  });

  it('took about what its time limits cost', () => {
    // Runaways cost their limit; everything else is quick. A generous bound still catches a hang.
    expect(elapsedMs).toBeLessThan(120_000);
  });
});
