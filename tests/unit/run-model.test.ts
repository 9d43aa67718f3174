import { describe, expect, it } from 'vitest';
import { Run } from '../../src/app/state/run-model';
import { emptyCounts, type RunRecord } from '../../src/store/types';

const record = (patch: Partial<RunRecord> = {}): RunRecord => ({
  id: 'run-1',
  modelId: 'replay:demo-answers.jsonl',
  modelLabel: 'Recorded demo answers',
  source: { kind: 'demo-answers' },
  datasetName: 'demo.jsonl',
  datasetSource: 'embedded demo set',
  mode: 'compat',
  timeLimitSeconds: null,
  concurrency: 2,
  problemCount: 0,
  languages: [],
  createdAt: 1,
  startedAt: 1,
  finishedAt: null,
  state: 'running',
  error: null,
  counts: emptyCounts(),
  ...patch,
});

describe('the shown run reads its figures from the stored record', () => {
  it('shows what the record holds, with the defaults of runs stored before samples and turns', () => {
    const run = Run.of(record({ timeLimitSeconds: 5 }), [], 'interrupted', null);
    expect([run.id, run.modelLabel, run.datasetName, run.mode, run.concurrency]).toEqual(['run-1', 'Recorded demo answers', 'demo.jsonl', 'compat', 2]);
    expect([run.samples, run.turns, run.timeLimit, run.state]).toEqual([1, 1, '5 s per run', 'interrupted']);
    expect(Run.of(record({ samples: 5, turns: 3 }), [], 'done', null).timeLimit).toBe('official per language');
  });

  it('follows the record the store returns when the run ends', () => {
    const running = Run.of(record(), [], 'running', null);
    const ended = running.with({ record: record({ state: 'done', finishedAt: 99 }), state: 'done' });
    expect([ended.finishedAt, ended.state, ended.record?.state]).toEqual([99, 'done', 'done']);
    // The page's own error (a key missing on Continue) does not touch the stored record.
    const noted = ended.with({ error: 'Enter your API key' });
    expect([noted.error, noted.record?.error, noted.finishedAt]).toEqual(['Enter your API key', null, 99]);
  });

  it('a run that could not start has no id and keeps what was asked', () => {
    const head = { datasetName: 'x.jsonl', modelId: 'provider', modelLabel: 'Model provider', mode: 'strict' as const, timeLimitSeconds: null, concurrency: 4, samples: 5, turns: 2, startedAt: 7, finishedAt: 7 };
    const failed = Run.failed(head, [], 'no key');
    expect([failed.id, failed.record, failed.state, failed.error, failed.samples, failed.turns]).toEqual([null, null, 'failed', 'no key', 5, 2]);
    expect(failed.with({ error: 'other' }).modelLabel).toBe('Model provider');
  });
});
