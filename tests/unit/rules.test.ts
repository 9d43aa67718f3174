import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_IDS, normalizeLanguage, type Executor, type LanguageId, type RunRequest } from '../../src/contracts';
import { evaluateProblem } from '../../src/core/engine';
import { parseDataset } from '../../src/core/records';
import { decideOutcome, judgeRun, languageRule, officialTimeoutMs, precheckProgram, spliceProgram } from '../../src/core/rules';

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
  it('the exit code comes before the substrings (corrected 2026-12-01): non-zero exit is RUNTIME_ERROR whatever it printed', () => {
    expect(decideOutcome(report({ stderr: 'AssertionError', exitCode: 1 }), ['AssertionError'])).toBe('RUNTIME_ERROR');
    expect(decideOutcome(report({ stdout: 'Test failed', exitCode: null }), ['failed'])).toBe('RUNTIME_ERROR');
  });
  it('exit 0 with an error substring in stdout or stderr is WRONG_ANSWER', () => {
    expect(decideOutcome(report({ stdout: 'Test failed', exitCode: 0 }), ['failed'])).toBe('WRONG_ANSWER');
    expect(decideOutcome(report({ stderr: 'Test failed', exitCode: 0 }), ['failed'])).toBe('WRONG_ANSWER');
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
    expect(judgeRun('python', report({ stdout: 'AssertionError', exitCode: 0 }))).toBe('PASSED');
    expect(judgeRun('python', report({ stderr: 'AssertionError', exitCode: 1 }))).toBe('RUNTIME_ERROR');
    expect(judgeRun('perl', report({ stdout: 'Test failed', exitCode: 0 }))).toBe('PASSED');
    expect(judgeRun('javascript', report({ stdout: 'Test failed', exitCode: 0 }))).toBe('WRONG_ANSWER');
    expect(judgeRun('javascript', report({ stdout: 'AssertionError', exitCode: 0 }))).toBe('PASSED');
    expect(judgeRun('typescript', report({ stderr: 'AssertionError [ERR_ASSERTION]', exitCode: 0 }))).toBe('WRONG_ANSWER');
    expect(judgeRun('typescript', report({ stderr: 'AssertionError [ERR_ASSERTION]', exitCode: 1 }))).toBe('RUNTIME_ERROR');
    expect(judgeRun('python', report({ stderr: 'SyntaxError: invalid syntax', exitCode: 1 }))).toBe('RUNTIME_ERROR');
  });
});

// SPEC §5's table (corrected 2026-12-01), copied by hand: the timeout column and the error substrings.
const SPEC_TABLE: Record<LanguageId, [number, string[]]> = {
  python: [30, []], cpp: [33, []], java: [33, []], javascript: [30, ['failed']], go: [31, []],
  shell: [30, []], csharp: [40, ['Assertion failed']], dart: [30, []], elixir: [30, []], julia: [30, []],
  kotlin: [40, []], perl: [30, []], php: [30, ['assert()', 'failed']], racket: [30, ['FAILURE', 'ERROR']],
  r: [30, []], ruby: [30, []], rust: [40, []], scala: [55, []], swift: [30, []],
  typescript: [31, ['failed', 'AssertionError']],
};

describe('language table', () => {
  it('has a rule for every one of the 20 languages, with the official timeouts', () => {
    expect(LANGUAGE_IDS).toHaveLength(20);
    for (const id of LANGUAGE_IDS) {
      expect(officialTimeoutMs(id), id).toBe(SPEC_TABLE[id][0] * 1000);
      expect([...languageRule(id).errorSubstrings], id).toEqual(SPEC_TABLE[id][1]);
    }
  });
  it('normalises aliases and case', () => {
    expect(normalizeLanguage('C++')).toBe('cpp');
    expect(normalizeLanguage(' JS ')).toBe('javascript');
    expect(normalizeLanguage('c#')).toBe('csharp');
    expect(normalizeLanguage('Python')).toBe('python');
    expect(normalizeLanguage('cobol')).toBeNull();
  });
  it('has a splice for every language; only PHP has a pre-check', () => {
    for (const id of LANGUAGE_IDS) expect(languageRule(id).splice, id).not.toBeNull();
    expect(LANGUAGE_IDS.filter((id) => languageRule(id).precheck)).toEqual(['php']);
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

const conformanceCases = (language: string) =>
  readFileSync(new URL(`../../bench-data/conformance/sandbox-cases/${language}.jsonl`, import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { code: string; assertions: string; all_code: string; exec_outcome: string });

describe('splice details beyond the recorded cases', () => {
  it('csharp: usings sorted by code unit, bare static made public, RunTests renamed only without a Main', () => {
    const solution = 'using System;\nusing System.Linq;\nclass A {\n        static int F() => 1;\n    private static int G() => 2;\n}';
    const tests = 'using System.Diagnostics;\nusing System;\nclass T {\n    public static void RunTests() { Debug.Assert(A.F() == 1); }\n}';
    expect(spliceProgram('csharp', solution, tests)).toBe(
      'using System.Diagnostics;\nusing System.Linq;\nusing System;\n\nclass A {\n    public static int F() => 1;\n    private static int G() => 2;\n}\n\n' +
        'class T {\n    public static void Main() { Debug.Assert(A.F() == 1); }\n}',
    );
    const withMain = spliceProgram('csharp', 'class A { public static void Main() {} }', 'class T { public static void RunTests() {} }');
    expect(withMain).toContain('static void RunTests(');
    const asyncTests = spliceProgram('csharp', 'class A {}', 'class T { public static async Task RunTests() {} }');
    expect(asyncTests).toContain('async Task RunTests(');
    expect(spliceProgram('csharp', 'class A {\n  void F() { using (var r = new R()) {} }\n}', 'class T {}')).toContain('using (var r');
  });

  it('dart and kotlin: sorted, de-duplicated imports on top, blank line between solution and tests', () => {
    expect(spliceProgram('dart', "import 'dart:math';\nint f() => 1;", "import 'dart:collection';\nimport 'dart:math';\nvoid main() {}")).toBe(
      "import 'dart:collection';\nimport 'dart:math';\n\nint f() => 1;\n\nvoid main() {}",
    );
    expect(spliceProgram('kotlin', 'import kotlin.math.sqrt\nfun f() = 1', 'fun main() {}')).toBe('import kotlin.math.sqrt\n\nfun f() = 1\n\nfun main() {}');
    expect(spliceProgram('kotlin', 'fun f() = 1', 'f()')).toBe('fun f() = 1\n\nf()');
  });

  it('racket: default #lang racket, the solution\'s own #lang kept, every #lang removed from the parts', () => {
    expect(spliceProgram('racket', '(define x 1)', '#lang racket\n(x)')).toBe('#lang racket\n\n(define x 1)\n\n(x)\n');
    expect(spliceProgram('racket', '#lang racket/base\n(define x 1)', '#lang racket\n(x)')).toBe('#lang racket/base\n\n(define x 1)\n\n(x)\n');
  });

  it('swift: Foundation/Glibc only when the solution names a math function, each only if absent', () => {
    expect(spliceProgram('swift', 'let x = 1', 'print(x)')).toBe('let x = 1\nprint(x)');
    expect(spliceProgram('swift', 'let x = sqrt(2.0)', 'T')).toBe('import Foundation\nimport Glibc\n\nlet x = sqrt(2.0)\nT');
    expect(spliceProgram('swift', 'import Foundation\nlet x = pow(2.0, 3)', 'T')).toBe('import Glibc\n\nimport Foundation\nlet x = pow(2.0, 3)\nT');
    // Plain substrings, as officially: "using" contains "sin"; the tests never count.
    expect(spliceProgram('swift', '// using a loop', 'T')).toMatch(/^import Foundation\n/);
    expect(spliceProgram('swift', 'let x = 1', 'let y = sqrt(2.0)')).toBe('let x = 1\nlet y = sqrt(2.0)');
  });

  it('php: ?> leaves the solution, <?php the tests, a missing <?php is added, one final newline', () => {
    expect(spliceProgram('php', 'function f() { return 1; }', '<?php\nassert(f() === 1);\n?>')).toBe('<?php\nfunction f() { return 1; }\nassert(f() === 1);\n?>\n');
    expect(spliceProgram('php', '<?php\nfunction f() {}\n?>\n', '<?php\n\nf();')).toBe('<?php\nfunction f() {}\nf();\n');
  });
});

describe('PHP pre-check (SPEC §5)', () => {
  it('agrees with the official verdict on every recorded case: SYNTAX_ERROR exactly where recorded', () => {
    const cases = conformanceCases('php');
    const expected = cases.map((c) => (c.exec_outcome === 'SYNTAX_ERROR' ? 'SYNTAX_ERROR' : null));
    expect(expected.filter(Boolean).length).toBeGreaterThan(0);
    expect(cases.map((c) => precheckProgram('php', c.all_code))).toEqual(expected);
  });

  it('needs exactly one <?php, <?php as the first line, ?> as the last non-empty line', () => {
    expect(precheckProgram('php', '<?php\necho 1;\n?>\n\n')).toBeNull();
    expect(precheckProgram('php', '<?php\necho 1;\n')).toBe('SYNTAX_ERROR');
    expect(precheckProgram('php', '\n<?php\necho 1;\n?>')).toBe('SYNTAX_ERROR');
    expect(precheckProgram('php', '<?php echo 1;\n?>')).toBe('SYNTAX_ERROR');
    // Official quirk: a second <?php counts even inside a string.
    expect(precheckProgram('php', '<?php\n$s = "<?php";\n?>')).toBe('SYNTAX_ERROR');
  });

  it('other languages have no pre-check', () => {
    expect(precheckProgram('python', '')).toBeNull();
    expect(precheckProgram('cpp', '<?php')).toBeNull();
  });

  it('the engine records a pre-checked run without sending it to the executor', async () => {
    const line = (demo: string, full: string) =>
      JSON.stringify({ question: 'q', canonical_solution: '<?php\nfunction f() { return 1; }\n?>', demo_test_func: demo, full_test_func: full, language: 'php', difficulty: 'easy' });
    const { problems } = parseDataset(line('<?php\nassert(f() === 1);\n?>', '<?php\nassert(f() === 1);') + '\n');
    const sent: RunRequest[] = [];
    const executor: Executor = {
      languages: () => ['php'],
      run: async (request) => {
        sent.push(request);
        return { exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 5, runtime: 'fake php' };
      },
      dispose: async () => {},
    };
    const model = { id: 'canonical', answer: async () => ({ text: problems[0]!.record.canonical_solution, isCode: true }) };
    const result = await evaluateProblem(problems[0]!, model, executor);
    expect(sent.map((r) => r.program)).toEqual([result.demo!.program]);
    expect(result.demo).toMatchObject({ outcome: 'PASSED', runtime: 'fake php' });
    expect(result.full).toEqual({
      program: '<?php\nfunction f() { return 1; }\nassert(f() === 1);\n',
      outcome: 'SYNTAX_ERROR', exitCode: null, stdout: '', stderr: '', timedOut: false, durationMs: 0, runtime: 'pre-check',
    });
    expect(result.verdict).toBe('failed');
  });
});

describe('language ids from untrusted data', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('%s is not a language', (id) => {
    expect(normalizeLanguage(id)).toBeNull();
  });
});
