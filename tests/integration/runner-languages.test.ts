/**
 * Every language through the runner: for each one whose toolchain is installed, a correct
 * solution passes its test program and a wrong one gets the outcome the official rules give it
 * (spliced by POST /submit from func_code + main_code, as the official client sends them). A
 * language whose toolchain is missing answers "unavailable: install …".
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGE_IDS, type LanguageId, type Outcome } from '../../src/contracts';
import type { LanguagesResponse, RunnerLanguage } from '../../runtimes/remote/protocol';
import type { StartedRunner } from '../../runner/runner';
import { TOOLCHAINS } from '../../runner/toolchains';
import { get, post, startTestRunner } from '../support/runner-helpers';

interface Case {
  solution: string;
  tests: string;
  /**
   * Wrong solutions and the outcome each must get under SPEC §4 (corrected 2026-12-01): every
   * failed check here ends the official command with a non-zero exit (an uncaught assertion, a
   * failing `raco test`, JUnit's launcher exiting 1), and the exit code comes before the error
   * substrings, so each is RUNTIME_ERROR.
   */
  wrong: Array<[string, Outcome]>;
}

const JAVA_TESTS = `import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

public class SolutionTest {
    @Test
    public void adds() {
        assertEquals(5, Solution.add(2, 3));
        assertEquals(0, Solution.add(-1, 1));
    }
}`;

/** One small problem per language, in the official test style (SPEC §5). */
const CASES: Record<LanguageId, Case> = {
  python: {
    solution: 'def add(a, b):\n    return a + b',
    tests: 'def test():\n    assert add(2, 3) == 5\n\nif __name__ == "__main__":\n    test()',
    wrong: [['def add(a, b):\n    return a - b', 'RUNTIME_ERROR'], ['def add(a, b):\n    return a +', 'RUNTIME_ERROR']],
  },
  javascript: {
    solution: 'function add(a, b) { return a + b; }',
    tests: "const assert = require('assert');\nfunction demoTesting() { assert.strictEqual(add(2, 3), 5); }",
    wrong: [['function add(a, b) { return a - b; }', 'RUNTIME_ERROR']],
  },
  typescript: {
    solution: 'function add(a: number, b: number): number { return a + b; }',
    tests: "const assert = require('assert');\nfunction demoTesting() { assert.strictEqual(add(2, 3), 5); }\ndemoTesting();",
    wrong: [['function add(a: number, b: number): number { return a * b; }', 'RUNTIME_ERROR']],
  },
  shell: {
    solution: 'add() { echo $(( $1 + $2 )); }',
    tests: '[ "$(add 2 3)" = "5" ] || { echo "Test failed"; exit 1; }\n[ "$(echo "2+3" | bc)" = "5" ] || exit 1\n[ "$(echo \'{"a":5}\' | jq .a)" = "5" ] || exit 1',
    wrong: [['add() { echo $(( $1 - $2 )); }', 'RUNTIME_ERROR']],
  },
  perl: {
    solution: 'sub add { my ($a, $b) = @_; return $a + $b; }',
    tests: 'die "Test failed\\n" unless add(2, 3) == 5;\nprint "ok\\n";',
    wrong: [['sub add { my ($a, $b) = @_; return $a - $b; }', 'RUNTIME_ERROR']],
  },
  ruby: {
    solution: 'def add(a, b)\n  a + b\nend',
    tests: 'raise "Test failed" unless add(2, 3) == 5',
    wrong: [['def add(a, b)\n  a - b\nend', 'RUNTIME_ERROR']],
  },
  php: {
    solution: '<?php\nfunction add($a, $b) { return $a + $b; }\n?>',
    tests: '<?php\nassert(add(2, 3) === 5);\necho "ok\\n";\n?>',
    wrong: [['<?php\nfunction add($a, $b) { return $a - $b; }\n?>', 'RUNTIME_ERROR']],
  },
  r: {
    solution: 'add <- function(a, b) a + b',
    tests: 'stopifnot(add(2, 3) == 5)',
    wrong: [['add <- function(a, b) a - b', 'RUNTIME_ERROR']],
  },
  racket: {
    solution: '#lang racket\n(define (add a b) (+ a b))',
    tests: '(require rackunit)\n(check-equal? (add 2 3) 5)',
    wrong: [['#lang racket\n(define (add a b) (- a b))', 'RUNTIME_ERROR']],
  },
  elixir: {
    solution: 'defmodule Calc do\n  def add(a, b), do: a + b\nend',
    tests: 'ExUnit.start()\ndefmodule CalcTest do\n  use ExUnit.Case\n  test "add" do\n    assert Calc.add(2, 3) == 5\n  end\nend',
    wrong: [['defmodule Calc do\n  def add(a, b), do: a - b\nend', 'RUNTIME_ERROR']],
  },
  julia: {
    solution: 'add(a, b) = a + b',
    tests: 'using Test\n@assert add(2, 3) == 5',
    wrong: [['add(a, b) = a - b', 'RUNTIME_ERROR']],
  },
  cpp: {
    solution: 'int add(int a, int b) { return a + b; }\nint main() { return 0; }',
    tests: '#include <cassert>\nint main() {\n    assert(add(2, 3) == 5);\n    cout << "ok" << endl;\n    return 0;\n}',
    wrong: [['int add(int a, int b) { return a - b; }', 'RUNTIME_ERROR'], ['int add(int a, int b) { return a + }', 'COMPILATION_ERROR']],
  },
  java: {
    solution: 'public class Solution {\n    public static int add(int a, int b) { return a + b; }\n}',
    tests: JAVA_TESTS,
    wrong: [
      ['public class Solution {\n    public static int add(int a, int b) { return a - b; }\n}', 'RUNTIME_ERROR'],
      ['public class Solution {\n    public static int add(int a, int b) { return a + }\n}', 'COMPILATION_ERROR'],
      ['public class Solution {\n    public static int add(int a, int b) { throw new IllegalStateException("no"); }\n}', 'RUNTIME_ERROR'],
    ],
  },
  kotlin: {
    solution: 'fun add(a: Int, b: Int): Int = a + b',
    tests: 'fun main() {\n    if (add(2, 3) != 5) throw AssertionError("Test failed")\n    println("ok")\n}\nmain()',
    wrong: [['fun add(a: Int, b: Int): Int = a - b', 'RUNTIME_ERROR']],
  },
  scala: {
    solution: 'def add(a: Int, b: Int): Int = a + b',
    tests: 'assert(add(2, 3) == 5)',
    wrong: [['def add(a: Int, b: Int): Int = a - b', 'RUNTIME_ERROR']],
  },
  go: {
    solution: 'package main\n\nimport "strings"\n\nfunc Shout(s string) string { return strings.ToUpper(s) + "!" }',
    tests: 'package main\n\nimport "testing"\n\nfunc TestShout(t *testing.T) {\n\tif Shout("hi") != "HI!" {\n\t\tt.Errorf("got %q", Shout("hi"))\n\t}\n}',
    wrong: [['package main\n\nfunc Shout(s string) string { return s }', 'RUNTIME_ERROR']],
  },
  rust: {
    solution: 'use regex::Regex;\nuse rand::Rng;\n\nfn count_digits(s: &str) -> usize {\n    let _noise: u8 = rand::thread_rng().gen();\n    let _digest = md5::compute(s.as_bytes());\n    Regex::new(r"\\d").unwrap().find_iter(s).count()\n}',
    tests: '#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn counts() {\n        assert_eq!(count_digits("a1b22"), 3);\n    }\n}',
    wrong: [['fn count_digits(s: &str) -> usize { s.len() }', 'RUNTIME_ERROR']],
  },
  csharp: {
    solution: 'public class Calc {\n    public static int Add(int a, int b) => a + b;\n}',
    tests: 'public class Program {\n    public static void Main() {\n        System.Diagnostics.Debug.Assert(Calc.Add(2, 3) == 5);\n        if (Calc.Add(2, 3) != 5) throw new Exception("Assertion failed");\n    }\n}',
    wrong: [['public class Calc {\n    public static int Add(int a, int b) => a - b;\n}', 'RUNTIME_ERROR']],
  },
  dart: {
    solution: 'int add(int a, int b) => a + b;',
    tests: 'void main() {\n  assert(add(2, 3) == 5);\n}',
    wrong: [['int add(int a, int b) => a - b;', 'RUNTIME_ERROR']],
  },
  swift: {
    solution: 'func add(_ a: Int, _ b: Int) -> Int { return a + b }',
    tests: 'assert(add(2, 3) == 5)',
    wrong: [['func add(_ a: Int, _ b: Int) -> Int { return a - b }', 'RUNTIME_ERROR']],
  },
};

let runner: StartedRunner;
let languages: Map<LanguageId, RunnerLanguage>;
beforeAll(async () => {
  runner = await startTestRunner({ maxConcurrency: 2 });
  const reply = await get<LanguagesResponse>(runner.url, '/languages');
  languages = new Map(reply.body.languages.map((l) => [l.id, l]));
  const table = [...languages.values()].map((l) => `${l.id.padEnd(10)} ${l.available ? l.version : l.install}`);
  console.log(`runner languages:\n${table.join('\n')}`);
});
afterAll(() => runner.close());

const run = (lang: LanguageId, solution: string, tests: string) =>
  post(runner.url, '/submit', { src_uid: `${lang}-${Math.random().toString(36).slice(2, 8)}`, lang, func_code: solution, main_code: tests });

describe('runner languages', () => {
  it('reports every language whose toolchain is on this machine as available', () => {
    const hostHas = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
    const expected = LANGUAGE_IDS.filter((id) => TOOLCHAINS[id].requires.every(hostHas));
    const missing = expected.filter((id) => !languages.get(id)?.available);
    expect(missing).toEqual([]);
  });

  it.each(LANGUAGE_IDS)('%s: the correct solution passes, each wrong one gets its official outcome (or: unavailable, naming what to install)', async (lang) => {
    const info = languages.get(lang)!;
    const c = CASES[lang];
    if (!info.available) {
      const reply = await run(lang, c.solution, c.tests);
      expect(reply.status).toBe(501);
      expect(reply.body.exec_runtime_message).toMatch(/^unavailable: install /);
      return;
    }
    const replies = await Promise.all([run(lang, c.solution, c.tests), ...c.wrong.map(([w]) => run(lang, w, c.tests))]);
    const detail = (i: number) => JSON.stringify({ ...replies[i]!.body, all_code: undefined }).slice(0, 3000);
    expect(replies[0]!.body.exec_outcome, detail(0)).toBe('PASSED');
    c.wrong.forEach(([, outcome], i) => expect(replies[i + 1]!.body.exec_outcome, detail(i + 1)).toBe(outcome));
    expect(replies[0]!.body.response_extensions.runtime).toContain(info.version);
  });
});
