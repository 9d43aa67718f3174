/**
 * The engine with several samples and refinement turns: which attempts are asked, what the model
 * is told after a failing turn (public test output only by default, clipped), and how results
 * are keyed. A fake executor decides from markers in the program.
 */
import { describe, expect, it } from 'vitest';
import type { AnswerContext, AnswerSource, Executor, RunRequest } from '../../src/contracts';
import { evaluateAll } from '../../src/core/engine';
import { buildFeedback, clipMiddle } from '../../src/core/feedback';
import { parseDataset } from '../../src/core/records';
import { resultKey, parseResultKey } from '../../src/core/results';
import { replayAnswersModel, parseAnswers } from '../../src/models/replay';

const SECRET = 'PRIVATE_CASE_42';
const record = (q: string) => JSON.stringify({
  question: q, canonical_solution: 'pass', language: 'python', difficulty: 'easy',
  demo_test_func: 'DEMO_TESTS', full_test_func: `FULL_TESTS ${SECRET}`,
});
const { problems } = parseDataset([record('first'), record('second')].join('\n'));

/** GOOD passes both runs; HALF passes the demo run only; anything else fails with a long traceback. */
function fakeExecutor(sent: RunRequest[] = []): Executor {
  return {
    languages: () => ['python'],
    async run(request) {
      sent.push(request);
      const full = request.program.includes('FULL_TESTS');
      const ok = request.program.includes('GOOD') || (request.program.includes('HALF') && !full);
      const noise = 'x'.repeat(3000);
      return ok
        ? { exitCode: 0, stdout: 'ok\n', stderr: '', timedOut: false, durationMs: 1, runtime: 'fake' }
        : { exitCode: 1, stdout: `START ${noise} END`, stderr: `AssertionError: ${full ? SECRET : 'demo case 1'}`, timedOut: false, durationMs: 1, runtime: 'fake' };
    },
    dispose: async () => {},
  };
}

/** Answers from a table: (problem question, sample, turn) → code; records each context it got. */
function tableModel(table: Record<string, string>, seen: AnswerContext[] = []): AnswerSource {
  return {
    id: 'table',
    async answer(problem, _signal, context) {
      seen.push(structuredClone(context!));
      const code = table[`${problem.record.question}/${context!.sample}/${context!.turn}`] ?? 'BAD';
      return { text: '```python\n' + code + '\n```' };
    },
  };
}

describe('samples and turns', () => {
  it('asks every sample, refines failing ones up to T turns, and stops a chain at its first pass', async () => {
    const seen: AnswerContext[] = [];
    const model = tableModel({ 'first/0/1': 'GOOD', 'first/1/2': 'GOOD', 'second/0/3': 'GOOD' }, seen);
    const reported: string[] = [];
    const results = await evaluateAll(problems, model, fakeExecutor(), { samples: 2, turns: 3, concurrency: 3, onResult: (r) => reported.push(resultKey(r.id, r.sample, r.turn)) });
    const shape = results.map((r) => `${r.index}/${r.sample}/${r.turn}:${r.verdict}`);
    expect(shape).toEqual([
      '0/0/1:passed',
      '0/1/1:failed', '0/1/2:passed',
      '1/0/1:failed', '1/0/2:failed', '1/0/3:passed',
      '1/1/1:failed', '1/1/2:failed', '1/1/3:failed',
    ]);
    expect(new Set(reported)).toEqual(new Set(results.map((r) => resultKey(r.id, r.sample, r.turn))));
    expect(reported).toHaveLength(9);
    // Feedback is kept on a failing turn that another turn followed, and only there.
    expect(results.filter((r) => r.feedback).map((r) => `${r.index}/${r.sample}/${r.turn}`)).toEqual(['0/1/1', '1/0/1', '1/0/2', '1/1/1', '1/1/2']);
    // Turn 3 of (second, 0) saw both earlier answers and the feedback on each.
    const third = seen.find((c) => c.sample === 0 && c.turn === 3)!;
    expect(third.history.map((h) => h.answer)).toEqual(['```python\nBAD\n```', '```python\nBAD\n```']);
    expect(third.history[1]!.feedback).toBe(results.find((r) => r.index === 1 && r.sample === 0 && r.turn === 2)!.feedback);
  });

  it('by default feeds back only the public test run, clipped to 2,000 characters (head and tail)', async () => {
    const results = await evaluateAll(problems.slice(0, 1), tableModel({}), fakeExecutor(), { turns: 2 });
    const feedback = results[0]!.feedback!;
    // Exit 1 with an AssertionError is RUNTIME_ERROR for Python (SPEC §4: the exit code comes first).
    expect(feedback).toContain('did not pass the public tests: RUNTIME_ERROR (exit code 1)');
    expect(feedback).toContain('START');
    expect(feedback).toContain('AssertionError: demo case 1');
    expect(feedback).toMatch(/characters cut/);
    expect(feedback).not.toContain(SECRET);
    expect(feedback).not.toContain('FULL_TESTS');
    expect(feedback.length).toBeLessThan(2300);
  });

  it('a program that passes the public tests but not the private ones learns only that', async () => {
    const results = await evaluateAll(problems.slice(0, 1), tableModel({ 'first/0/1': 'HALF' }), fakeExecutor(), { turns: 2 });
    expect(results[0]!.feedback).toContain('passed the public tests but failed the hidden tests');
    expect(results[0]!.feedback).not.toContain(SECRET);
  });

  it("feedback 'full' shows the private test run when the public one passed", async () => {
    const results = await evaluateAll(problems.slice(0, 1), tableModel({ 'first/0/1': 'HALF' }), fakeExecutor(), { turns: 2, feedback: 'full' });
    expect(results[0]!.feedback).toContain('did not pass the full tests');
    expect(results[0]!.feedback).toContain(SECRET);
  });

  it('a single run is unchanged: one result per problem, sample 0, turn 1, no feedback', async () => {
    const seen: AnswerContext[] = [];
    const results = await evaluateAll(problems, tableModel({}, seen), fakeExecutor());
    expect(results.map((r) => [r.index, r.sample, r.turn, r.verdict, r.feedback])).toEqual([[0, 0, 1, 'failed', undefined], [1, 0, 1, 'failed', undefined]]);
    expect(seen.every((c) => c.sample === 0 && c.turn === 1 && c.history.length === 0)).toBe(true);
  });

  it('continues stored chains (priorTurns) after their last turn, returns them with the new turns, and reports only the new', async () => {
    const first = await evaluateAll(problems.slice(0, 1), tableModel({}), fakeExecutor(), { turns: 1 });
    const seen: AnswerContext[] = [];
    const reported: string[] = [];
    const over: string[] = [];
    const more = await evaluateAll(problems.slice(0, 1), tableModel({ 'first/0/2': 'GOOD' }, seen), fakeExecutor(), {
      turns: 3, priorTurns: (_p, sample) => (sample === 0 ? first : undefined),
      onResult: (r) => reported.push(`${r.sample}/${r.turn}`),
      onChainOver: (chain) => over.push(chain.map((r) => `${r.sample}/${r.turn}:${r.verdict}`).join(' ')),
    });
    expect(more.map((r) => `${r.sample}/${r.turn}:${r.verdict}`)).toEqual(['0/1:failed', '0/2:passed']);
    expect(more[0]).toBe(first[0]);
    expect(reported).toEqual(['0/2']);
    expect(over).toEqual(['0/1:failed 0/2:passed']);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.history).toHaveLength(1);
  });

  it('a chain its stored turns already end is returned and reported over at once, without asking the model', async () => {
    // (first, 0) failed at turn 2 of 2: out of turns. (second, 0) passed at turn 1. (first, 1) is new.
    const stored = await evaluateAll(problems, tableModel({ 'second/0/1': 'GOOD' }), fakeExecutor(), { turns: 2 });
    const seen: AnswerContext[] = [];
    const over: string[] = [];
    const all = await evaluateAll(problems, tableModel({ 'first/1/1': 'GOOD' }, seen), fakeExecutor(), {
      samples: 2, turns: 2,
      priorTurns: (p, sample) => stored.filter((r) => r.id === p.id && r.sample === sample),
      onChainOver: (chain) => over.push(`${chain[0]!.index}/${chain[0]!.sample}:${chain.length}`),
    });
    expect(all.map((r) => `${r.index}/${r.sample}/${r.turn}:${r.verdict}`)).toEqual([
      '0/0/1:failed', '0/0/2:failed', '0/1/1:passed',
      '1/0/1:passed', '1/1/1:failed', '1/1/2:failed',
    ]);
    expect(seen.map((c) => `${c.sample}/${c.turn}`).sort()).toEqual(['1/1', '1/1', '1/2']);
    // Stored chains that are over are reported before any new one ends; every chain is reported once.
    expect(over.slice(0, 2)).toEqual(['0/0:2', '1/0:1']);
    expect([...over].sort()).toEqual(['0/0:2', '0/1:1', '1/0:1', '1/1:2']);
  });

  it('a stopped run still returns every stored turn, and reports no unfinished chain as over', async () => {
    const stored = await evaluateAll(problems, tableModel({}), fakeExecutor(), { turns: 1 });
    const stop = new AbortController();
    stop.abort();
    const over: number[] = [];
    const all = await evaluateAll(problems, tableModel({}), fakeExecutor(), {
      turns: 3, signal: stop.signal, priorTurns: (p) => stored.filter((r) => r.id === p.id),
      onChainOver: (chain) => over.push(chain[0]!.index),
    });
    expect(all.map((r) => `${r.index}/${r.turn}`)).toEqual(['0/1', '1/1']);
    expect(over).toEqual([]);
  });

  it('clipMiddle keeps head and tail', () => {
    expect(clipMiddle('abcdef', 10)).toBe('abcdef');
    expect(clipMiddle('0123456789', 4)).toBe('01\n… [6 characters cut] …\n89');
    expect(buildFeedback({ ...dummy(), extractedCode: '' })).toContain('No code was found');
  });

  it('result keys round-trip', () => {
    expect(resultKey('abc')).toBe('abc');
    expect(resultKey('abc', 2, 3)).toBe('abc#s2#t3');
    expect(parseResultKey('abc#s2#t3')).toEqual({ id: 'abc', sample: 2, turn: 3 });
    expect(parseResultKey('abc')).toEqual({ id: 'abc', sample: 0, turn: 1 });
  });
});

function dummy() {
  return { id: 'd', index: 0, language: 'python' as const, difficulty: 'easy', answer: '', extractedCode: 'x', extraction: '', demo: null, full: null, verdict: 'failed' as const, durationMs: 0 };
}

describe('recorded answers with samples and turns', () => {
  const id = problems[0]!.id;
  const file = [
    { id, output: 's0t1' },
    { id, sample: 0, turn: 2, output: 's0t2' },
    { id, sample: 1, output: 's1t1' },
    { id, sample: 1, turn: 3, output: 's1t3' },
  ].map((o) => JSON.stringify(o)).join('\n');
  const ask = (sample: number, turn: number) => replayAnswersModel('f', parseAnswers(file).answers).answer(problems[0]!, undefined, { sample, turn, history: [] });

  it('answers each (id, sample, turn); a missing turn repeats the latest earlier one; a missing sample is unavailable', async () => {
    expect((await ask(0, 1)).text).toBe('s0t1');
    expect((await ask(0, 2)).text).toBe('s0t2');
    expect((await ask(0, 3)).text).toBe('s0t2');
    expect((await ask(1, 2)).text).toBe('s1t1');
    expect((await ask(1, 3)).text).toBe('s1t3');
    await expect(ask(2, 1)).rejects.toThrow(/sample 2/);
  });

  it('rejects bad sample and turn numbers, and old files parse as before', () => {
    const { errors } = parseAnswers('{"id":"a","sample":-1,"output":"x"}\n{"id":"a","turn":0,"output":"x"}\n');
    expect(errors).toEqual(['line 1: "sample" must be a whole number from 0', 'line 2: "turn" must be a whole number from 1']);
    expect(parseAnswers('{"id":"a","output":"x"}\n{"output":"y"}').answers).toEqual([{ id: 'a', output: 'x' }, { id: undefined, output: 'y' }]);
  });
});
