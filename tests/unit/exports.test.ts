/** The app's run exports and run comparison: pure functions of stored data. */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/contracts';
import type { AttemptResult } from '../../src/core/results';
import { compareResults, formatDelta } from '../../src/app/lib/compare';
import { csvField, manifest, officialJsonl, resultsCsv, resultsJsonl, type RunData } from '../../src/app/lib/exports';
import { SYSTEM_PROMPT } from '../../src/core/prompt';
import { countsOf, type RunRecord } from '../../src/store/types';

const problem = (i: number, language: 'python' | 'javascript'): Problem => ({
  id: `p${i}`, index: i, line: i + 1, language, difficulty: 'easy',
  record: { question: `q${i}`, canonical_solution: 'c', demo_test_func: 'd', full_test_func: 'f', language, difficulty: 'easy', extra: i },
});
const result = (p: Problem, verdict: AttemptResult['verdict'], answer: string | null = `answer ${p.id}`): AttemptResult => ({
  id: p.id, index: p.index, language: p.language, difficulty: p.difficulty, answer, extractedCode: 'code', extraction: 'fenced block',
  demo: verdict === 'infra_error' ? null : { program: 'x', outcome: 'PASSED', exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 3, runtime: 'QuickJS-ng' },
  full: verdict === 'infra_error' ? null : { program: 'y', outcome: verdict === 'passed' ? 'PASSED' : 'RUNTIME_ERROR', exitCode: 1, stdout: '', stderr: 'a "quoted", error\nline', timedOut: false, durationMs: 3, runtime: 'QuickJS-ng' },
  verdict, durationMs: 7, ...(verdict === 'infra_error' ? {} : { runMs: 6, waitMs: 1 }), usage: { inputTokens: 100, outputTokens: 50 },
  ...(verdict === 'infra_error' ? { error: 'answer unavailable: HTTP 500, "oops"' } : {}),
});

const problems = [problem(0, 'python'), problem(1, 'python'), problem(2, 'javascript'), problem(3, 'javascript')];
const results = [result(problems[0]!, 'passed'), result(problems[1]!, 'failed'), result(problems[2]!, 'infra_error', null)];
const run: RunRecord = {
  id: 'r1', modelId: 'groq:llama', modelLabel: 'Groq: llama',
  source: { kind: 'provider', presetId: 'groq', presetName: 'Groq', settings: { kind: 'openai', baseUrl: 'https://api.groq.com/openai/v1', model: 'llama', temperature: 0, maxTokens: 8192, systemPrompt: SYSTEM_PROMPT, stream: true }, prices: { input: 1, output: 2 }, keyRequired: true },
  datasetName: 'demo.jsonl', datasetSource: 'embedded demo set', mode: 'compat', timeLimitSeconds: null, concurrency: 4, problemCount: 4,
  languages: ['python', 'javascript'], createdAt: Date.UTC(2026, 0, 2), startedAt: Date.UTC(2026, 0, 2), finishedAt: Date.UTC(2026, 0, 2, 0, 5), state: 'stopped', error: null,
  counts: countsOf(results),
};
const data: RunData = {
  run, problems,
  results: new Map(results.map((r) => [r.id, r])),
  // p3 was answered but not evaluated yet (the tab closed): its answer is exported too.
  answers: new Map([['p3', { output: 'stored answer p3', receivedAt: 1 }]]),
};

describe('run exports', () => {
  it('writes the official format: input records with output, for every answered problem', () => {
    const lines = officialJsonl(data).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.output)).toEqual(['answer p0', 'answer p1', 'stored answer p3']);
    expect(lines[0]).toEqual({ ...problems[0]!.record, output: 'answer p0' });
  });

  it('writes per-problem results as JSONL (the CLI --out format) and CSV', () => {
    const lines = resultsJsonl(data).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.id, l.verdict, l.passed])).toEqual([['p0', 'passed', true], ['p1', 'failed', false], ['p2', 'infra_error', false]]);
    expect(lines[2].demo_outcome).toBe('INFRA_ERROR');
    const csv = resultsCsv(data).split('\r\n');
    expect(csv[0]).toBe('id,index,title,language,difficulty,verdict,passed,demo_outcome,full_outcome,runtime,duration_ms,run_ms,wait_ms,input_tokens,output_tokens,reasoning_tokens,error');
    // Run time and the wait for a worker apart from the attempt's wall time; none for an attempt that never ran.
    expect(csv[1]).toBe('p0,0,q0,python,easy,passed,true,PASSED,PASSED,QuickJS-ng,7,6,1,100,50,,');
    expect(csv[3]).toBe('p2,2,q2,javascript,easy,infra_error,false,INFRA_ERROR,INFRA_ERROR,,7,,,100,50,,"answer unavailable: HTTP 500, ""oops"""');
    expect(lines[0]).toMatchObject({ duration_ms: 7, run_ms: 6, wait_ms: 1 });
    expect(csvField('a\nb')).toBe('"a\nb"');
  });

  it('escapes text a spreadsheet would run as a formula (OWASP CSV injection): a leading quote, and quotes around', () => {
    for (const payload of ['=HYPERLINK("http://evil.example","x")', '+1+cmd|\' /C calc\'!A0', '-2+3', '@SUM(A1:A9)', '\t=1+1', '\r=1+1']) {
      const field = csvField(payload);
      expect(field, payload).toBe(`"'${payload.replace(/"/g, '""')}"`);
    }
    // Harmless text and our own numbers are unchanged.
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField(-1)).toBe('-1');
    expect(csvField(' =1')).toBe(' =1');
    // Through the export: a hostile id and error message from a dataset and a provider.
    const hostile: RunData = {
      ...data,
      problems: [{ ...data.problems[2]!, id: '=1+2' }],
      results: new Map([['=1+2', { ...data.results.get(data.problems[2]!.id)!, id: '=1+2', error: '@cmd' }]]),
    };
    const row = resultsCsv(hostile).split('\r\n')[1]!;
    expect(row.startsWith(`"'=1+2",`)).toBe(true);
    expect(row.endsWith(`,"'@cmd"`)).toBe(true);
  });

  it('describes the run in a manifest: the shared shape (src/core/manifest.ts) plus provider preset, usage, cost and dates', () => {
    const m = manifest({ ...data, run: { ...run, datasetSha256: 'ab'.repeat(32) } }, { browser: 'test' }) as Record<string, any>;
    expect(m.format_version).toBe(2);
    expect(m.dataset).toMatchObject({ source: 'embedded demo set', sha256: 'ab'.repeat(32), problems: 4, name: 'demo.jsonl' });
    expect(m.provider).toEqual({ kind: 'openai', baseUrl: 'https://api.groq.com/openai/v1', model: 'llama', preset: 'groq', name: 'Groq' });
    expect(m.settings).toMatchObject({ samples: 1, turns: 1, temperature: 0, max_tokens: 8192, stream: true, top_p: null, extraction_mode: 'compat', system_prompt_is_official: true, completion: false });
    expect(m.environment).toEqual({ browser: 'test' });
    expect(m.runtimes).toEqual(['QuickJS-ng']);
    expect(m.started).toBe('2026-01-02T00:00:00.000Z');
    expect(m.figures.pass1).toMatchObject({ value: 0.5, passed: 1, total: 2, infra_errors: 1 });
    expect(m.usage).toMatchObject({ input_tokens: 300, output_tokens: 150, estimated_cost_usd: (300 * 1 + 150 * 2) / 1e6 });
    expect(JSON.stringify(m)).not.toMatch(/api_?key/i);
    // A run stored before the page kept dataset hashes says so.
    expect((manifest(data, {}) as Record<string, any>).dataset.sha256).toBeNull();
  });

  it('a seeded subset: the manifest names the seed, strata and ids, and the full-benchmark estimate', () => {
    const sample = { perStratum: 2, seed: 7, byDifficulty: false, population: { python: 10, javascript: 30 }, ids: ['p0', 'p1', 'p2', 'p3'] };
    const m = manifest({ ...data, run: { ...run, selection: { languages: [], difficulties: [], sample } } }, {}) as Record<string, any>;
    expect(m.dataset.selection).toEqual({ languages: [], difficulties: [] });
    expect(m.dataset.sample).toEqual({ per_stratum: 2, strata: 'language', seed: 7, population: { python: 10, javascript: 30 }, ids: ['p0', 'p1', 'p2', 'p3'] });
    // Python 1/2 counted (weight 10/40); JavaScript: nothing counted (p2 infra), left out → the estimate is Python's 0.5.
    expect(m.figures.full_benchmark_estimate).toMatchObject({ value: 0.5, strata: 2, left_out: ['javascript'] });
    // Wilson interval of 1/2, by hand: 0.094531–0.905469.
    expect(m.figures.pass1.ci95).toEqual([0.094531, 0.905469]);
  });

  it('writes one line per (problem, sample, turn) for a run with several samples or turns', () => {
    const p = problems[0]!;
    const attempt = (sample: number, turn: number, verdict: AttemptResult['verdict']): AttemptResult => ({ ...result(p, verdict, `s${sample} t${turn}`), sample, turn });
    const multi = [attempt(0, 1, 'failed'), attempt(0, 2, 'passed'), attempt(1, 1, 'passed')];
    const multiData: RunData = {
      run: { ...run, samples: 2, turns: 2 },
      problems: [p],
      results: new Map(multi.map((r) => [r.sample === 0 && r.turn === 1 ? r.id : `${r.id}#s${r.sample}#t${r.turn}`, r])),
      answers: new Map(),
    };
    const lines = resultsJsonl(multiData).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.sample, l.turn, l.output, l.verdict])).toEqual([[0, 1, 's0 t1', 'failed'], [0, 2, 's0 t2', 'passed'], [1, 1, 's1 t1', 'passed']]);
    const csv = resultsCsv(multiData).split('\r\n');
    expect(csv[0]!.startsWith('id,index,sample,turn,title,language')).toBe(true);
    expect(csv.slice(1, 4).map((l) => l.split(',').slice(2, 4).join(','))).toEqual(['0,1', '0,2', '1,1']);
    // The official format keeps one answer per record: the first attempt's.
    expect(JSON.parse(officialJsonl(multiData)).output).toBe('s0 t1');
    const m = manifest(multiData, {}) as Record<string, any>;
    expect(m.settings).toMatchObject({ samples: 2, turns: 2 });
    expect(m.figures.pass1_by_turn.map((t: { value: number }) => t.value)).toEqual([0, 1]);
  });
});

describe('run comparison', () => {
  it('gives per-language and overall deltas in percentage points, and the problems that changed', () => {
    const b = [result(problems[0]!, 'failed'), result(problems[1]!, 'passed'), result(problems[2]!, 'passed'), result(problems[3]!, 'passed')];
    const c = compareResults(results, b);
    expect(c.languages.map((l) => [l.language, l.delta])).toEqual([['javascript', null], ['python', 0]]);
    expect(c.overall.delta).toBeCloseTo(25);
    expect({ common: c.common, fixed: c.fixed, broken: c.broken }).toEqual({ common: 2, fixed: 1, broken: 1 });
    expect(formatDelta(25)).toBe('+25.0 pp');
    expect(formatDelta(-3.04)).toBe('−3.0 pp');
    expect(formatDelta(null)).toBe('–');
  });
});
