import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_IDS, normalizeLanguage, type LanguageId } from '../../src/core/languages';
import { decideOutcome, judgeRun, languageRule, officialTimeoutMs, spliceProgram, UnsupportedSpliceError } from '../../src/core/rules';

const report = (over: Partial<Parameters<typeof decideOutcome>[0]> = {}) => ({
  exitCode: 0, stdout: '', stderr: '', timedOut: false, ...over,
});

describe('outcome order (SPEC §4)', () => {
  it('compile timeout beats compile failure beats everything else', () => {
    expect(decideOutcome(report({ compileTimedOut: true, compileFailed: true, timedOut: true }), ['x'])).toBe('TIME_LIMIT_EXCEEDED');
    expect(decideOutcome(report({ compileFailed: true, timedOut: true, stdout: 'x' }), ['x'])).toBe('COMPILATION_ERROR');
  });
  it('a run timeout beats an error substring and a non-zero exit', () => {
    expect(decideOutcome(report({ timedOut: true, stdout: 'AssertionError', exitCode: 1 }), ['AssertionError'])).toBe('TIME_LIMIT_EXCEEDED');
  });
  it('an error substring in stdout or stderr beats the exit code, even with exit 0', () => {
    expect(decideOutcome(report({ stderr: 'AssertionError', exitCode: 1 }), ['AssertionError'])).toBe('WRONG_ANSWER');
    expect(decideOutcome(report({ stdout: 'Test failed', exitCode: 0 }), ['failed'])).toBe('WRONG_ANSWER');
  });
  it('substrings are case-sensitive plain text', () => {
    expect(decideOutcome(report({ stdout: 'FAILED' }), ['failed'])).toBe('PASSED');
    expect(decideOutcome(report({ stdout: 'a.*b' }), ['.*'])).toBe('WRONG_ANSWER');
  });
  it('a non-zero exit is RUNTIME_ERROR, a clean exit PASSED', () => {
    expect(decideOutcome(report({ exitCode: 2 }), [])).toBe('RUNTIME_ERROR');
    expect(decideOutcome(report({ exitCode: null }), [])).toBe('RUNTIME_ERROR');
    expect(decideOutcome(report(), [])).toBe('PASSED');
  });
  it('uses each language\'s own substrings', () => {
    expect(judgeRun('python', report({ stdout: 'Test failed', exitCode: 0 }))).toBe('PASSED');
    expect(judgeRun('javascript', report({ stdout: 'Test failed', exitCode: 0 }))).toBe('WRONG_ANSWER');
    expect(judgeRun('typescript', report({ stderr: 'AssertionError [ERR_ASSERTION]', exitCode: 1 }))).toBe('WRONG_ANSWER');
    expect(judgeRun('python', report({ stderr: 'SyntaxError: invalid syntax', exitCode: 1 }))).toBe('RUNTIME_ERROR');
  });
});

describe('language table', () => {
  it('has a rule for every one of the 20 languages, with the official timeouts', () => {
    expect(LANGUAGE_IDS).toHaveLength(20);
    for (const id of LANGUAGE_IDS) expect(languageRule(id).timeoutSeconds).toBeGreaterThanOrEqual(30);
    expect(officialTimeoutMs('python')).toBe(30_000);
    expect(officialTimeoutMs('typescript')).toBe(31_000);
    expect(officialTimeoutMs('scala')).toBe(55_000);
  });
  it('normalises aliases and case', () => {
    expect(normalizeLanguage('C++')).toBe('cpp');
    expect(normalizeLanguage(' JS ')).toBe('javascript');
    expect(normalizeLanguage('c#')).toBe('csharp');
    expect(normalizeLanguage('Python')).toBe('python');
    expect(normalizeLanguage('cobol')).toBeNull();
  });
  it('refuses to splice a language whose rule has not landed', () => {
    expect(() => spliceProgram('java', 'class A {}', 'class T {}')).toThrow(UnsupportedSpliceError);
  });
});

describe('splicing', () => {
  it('python and typescript: solution, newline, tests', () => {
    expect(spliceProgram('python', 'def f(): pass', 'f()')).toBe('def f(): pass\nf()');
    expect(spliceProgram('typescript', 'const a = 1;', 'demoTesting();')).toBe('const a = 1;\ndemoTesting();');
  });
  it('javascript appends demoTesting() when defined, else fullTesting()', () => {
    expect(spliceProgram('javascript', 'const f = 1;', 'function demoTesting() {}')).toBe('const f = 1;\nfunction demoTesting() {}\ndemoTesting();\n');
    expect(spliceProgram('javascript', 'const f = 1;', 'async function fullTesting() {}')).toBe('const f = 1;\nasync function fullTesting() {}\nfullTesting();\n');
    expect(spliceProgram('javascript', 'x', 'const demoTesting = () => {};\nfunction fullTesting() {}')).toMatch(/\ndemoTesting\(\);\n$/);
    expect(spliceProgram('javascript', 'x', 'console.log(1)')).toBe('x\nconsole.log(1)');
  });

  // The official splicer's own output, recorded from its regression suite.
  const dir = new URL('../../bench-data/conformance/sandbox-cases/', import.meta.url);
  const spliced = readdirSync(dir)
    .map((f) => normalizeLanguage(f.replace('.jsonl', ''))!)
    .filter((l: LanguageId) => languageRule(l).splice !== null);
  it.each(spliced)('%s: equals all_code of every official conformance case', (language) => {
    const cases = readFileSync(new URL(`${language}.jsonl`, dir), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) expect(spliceProgram(language, c.code, c.assertions)).toBe(c.all_code);
  });
});
