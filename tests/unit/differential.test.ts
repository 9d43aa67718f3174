/**
 * The comparison behind the differential corpus: what counts as agreement, and how the common
 * causes of disagreement are named. The reports are written out by hand from the shapes real
 * runtimes produce; the measurement itself is tests/integration/differential.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { compareDifferential, seededSample, stratifiedSample, summarizeDifferential, type DifferentialRecord } from '../../src/core/differential';

const record = (stdout: string): DifferentialRecord => ({
  language: 'python', task: 't', path: 'Task/t/python/t.py', program: 'print(1)',
  native: { exitCode: 0, stdout, stderr: 'empty', runtime: 'native python3' },
});
const ran = (stdout: string, exitCode: number | null = 0, stderr = '', timedOut = false) => ({ exitCode, stdout, stderr, timedOut });

describe('compareDifferential', () => {
  it('agrees on identical output and exit 0', () => {
    const o = compareDifferential(record('a\nb\n'), ran('a\nb\n'));
    expect([o.exitAgrees, o.stdoutExact, o.stdoutTrimmed, o.cause]).toEqual([true, true, true, null]);
  });
  it('counts trailing whitespace only in the exact figure', () => {
    const o = compareDifferential(record('a  \nb\n'), ran('a\nb'));
    expect([o.stdoutExact, o.stdoutTrimmed, o.cause]).toEqual([false, true, 'trailing whitespace']);
  });
  it('a timeout is a non-zero exit, named as such', () => {
    const o = compareDifferential(record('x\n'), ran('', null, '', true));
    expect([o.exitAgrees, o.cause]).toEqual([false, 'timeout']);
  });
  it('names missing modules and recursion limits from stderr', () => {
    expect(compareDifferential(record('x\n'), ran('', 1, "ModuleNotFoundError: No module named 'curses'")).cause).toBe('missing module');
    expect(compareDifferential(record('x\n'), ran('', 1, 'RecursionError: maximum recursion depth exceeded')).cause).toBe('recursion limit');
    expect(compareDifferential(record('x\n'), ran('', 1, "-e:1: stack level too deep (SystemStackError)")).cause).toBe('recursion limit');
  });
  it('tells number formatting from other output differences', () => {
    expect(compareDifferential(record('pi = 3.14159265358979\n'), ran('pi = 3.141592653589793\n')).cause).toBe('number formatting');
    expect(compareDifferential(record('pi = 3.1\n'), ran('pi = 3.2\n')).cause).toBe('output differs at line 1');
    expect(compareDifferential(record('a\nb\nc\n'), ran('a\n')).cause).toBe('output cut short');
    expect(compareDifferential(record('a\nb\n'), ran('b\na\n')).cause).toBe('line order (hash or sort order)');
  });
  it('summarizes shares over all programs', () => {
    const s = summarizeDifferential('python', [
      compareDifferential(record('a\n'), ran('a\n')),
      compareDifferential(record('a\n'), ran('a \n')),
      compareDifferential(record('a\n'), ran('', 1, 'boom')),
      compareDifferential(record('a\n'), ran('a\n')),
    ], 'rt');
    expect([s.programs, s.exitAgreement, s.stdoutExact, s.stdoutTrimmed, s.disagreements.length]).toEqual([4, 0.75, 0.5, 0.75, 2]);
  });
});

describe('seededSample', () => {
  it('is reproducible, seed-dependent and draws without repetition', () => {
    const items = Array.from({ length: 100 }, (_, i) => i);
    const a = seededSample(items, 15, 13);
    expect(seededSample(items, 15, 13)).toEqual(a);
    expect(seededSample(items, 15, 14)).not.toEqual(a);
    expect(new Set(a).size).toBe(15);
    expect(items).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });
});

describe('stratifiedSample', () => {
  it('takes one program from each length stratum, reproducibly', () => {
    const records = Array.from({ length: 160 }, (_, i) => ({ ...record('x\n'), path: `p${i}`, program: 'x'.repeat(i + 1) }));
    const draw = stratifiedSample(records, 16, 13);
    expect(stratifiedSample(records, 16, 13)).toEqual(draw);
    expect(new Set(draw.map((r) => r.path)).size).toBe(16);
    // Program lengths 1..160 in 16 strata of 10: the i-th pick lies in the i-th stratum.
    draw.forEach((r, i) => expect(Math.floor((r.program.length - 1) / 10)).toBe(i));
    expect(stratifiedSample(records.slice(0, 5), 16, 13)).toHaveLength(5);
  });
});

it('names output that differs only in spacing or line breaks (how a value is pretty-printed)', () => {
  expect(compareDifferential(record('[\n  1, 2,\n  3\n]\n'), ran('[ 1, 2, 3 ]\n')).cause).toBe('spacing or line breaks (e.g. how arrays are printed)');
});

it('reads the cause from stderr also when the program exited 0 with the wrong output', () => {
  expect(compareDifferential(record('x\n'), ran('', 0, "ModuleNotFoundError: No module named 'x'")).cause).toBe('missing module');
});
