/**
 * The generator's prompts, in one place: our own wording of the AutoCodeGen stages (solution and
 * inputs, tests from observed outputs, statement, critic). Bump PROMPT_VERSION on any change; the
 * manifest records the version and each text's hash, so a generated set names what produced it.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { LANGUAGE_NAMES, type LanguageId } from '../contracts';

export const PROMPT_VERSION = 'gen-2';

/** Sent as the system prompt of every generator request (not of the difficulty model's, which uses the evaluation prompt). */
export const GEN_SYSTEM = 'You help build a programming benchmark. Follow the requested answer format exactly: each requested part in its own fenced code block directly under its heading line.';

export const CATEGORIES = ['strings', 'math', 'arrays', 'data-structures', 'algorithms', 'parsing', 'simulation', 'other'] as const;

/** How inputs are written per language: one call expression per line, evaluated by the harness. */
const INPUT_STYLE: Partial<Record<LanguageId, string>> = {
  python: 'a Python expression calling the solution, e.g. `my_func(3, [1, 2])`',
  javascript: 'a JavaScript expression calling the solution, e.g. `myFunc(3, [1, 2])`',
  ruby: 'a Ruby expression calling the solution, e.g. `my_func(3, [1, 2])`',
  cpp: 'a C++ expression calling the solution, e.g. `myFunc(3, {1, 2})`, returning a number, bool, char, string, or a vector, set, map, pair or tuple of those (for a class, an immediately invoked lambda: `[] { Counter c; c.add(2); return c.total(); }()`)',
  go: 'a Go expression calling the solution, e.g. `MyFunc(3, []int{1, 2})`',
};

const TEST_STYLE: Partial<Record<LanguageId, string>> = {
  python: 'Python: `def test():` with plain `assert` statements, then `if __name__ == "__main__":\\n    test()`. Name both parts `demo_test` / `full_test` in the text, but each is its own program.',
  javascript: "JavaScript: `const assert = require('assert');` then `function demoTesting()` (public tests) or `function fullTesting()` (private tests) using `assert.deepStrictEqual` / `assert.strictEqual`. Do not call the function yourself.",
  ruby: 'Ruby: `def test` with `raise "Test failed" unless <condition>` lines, then a top-level `test` call.',
  cpp: 'C++: `#include <cassert>` and the headers the tests use, `using namespace std;`, a `void test()` with plain `assert(...)` lines (compare floating point within 1e-6), then `int main() { test(); return 0; }`. Do not repeat the solution.',
  go: 'Go: `package main`, `import "testing"` (and `reflect` for slices and maps), then `func TestDemo(t *testing.T)` (public tests) or `func TestFull(t *testing.T)` (private tests) calling `t.Errorf` on each mismatch. Do not repeat the solution.',
};

export function inputStyle(language: LanguageId): string | undefined {
  return INPUT_STYLE[language];
}

export const TEMPLATES = {
  solution: `Stage: solution and inputs.
Turn the seed code below into a self-contained, deterministic {LANG} reference solution with a clear function interface (no input reading, no printing, no randomness, no clock, no network). Then write test inputs.

Answer with exactly these three headings, each followed by one fenced code block:
### SOLUTION
### PUBLIC_INPUTS
(at most 3 basic cases, one per line, each {INPUT_STYLE})
### PRIVATE_INPUTS
(7 or more cases, one per line, same form, including edge and boundary cases)

Seed code:
\`\`\`
{SEED}
\`\`\``,
  tests: `Stage: tests.
Here is a {LANG} reference solution and the outputs it produced when executed on each input.

\`\`\`
{SOLUTION}
\`\`\`

Public cases (input => observed output):
{PUBLIC}

Private cases (input => observed output):
{PRIVATE}

Write two test programs in the official style: {TEST_STYLE}
The public test program checks the public cases only; the private one checks all cases. Use the observed outputs exactly as given.
Answer with exactly these headings, each followed by one fenced code block:
### DEMO_TEST
### FULL_TEST`,
  testsRetry: `The tests did not pass against the reference solution. The run printed:
{OUTPUT}
Fix the tests (not the solution) and answer again with the same two headings and blocks.`,
  statement: `Stage: problem statement.
Write the problem statement for a {LANG} programming problem whose reference solution and public tests are below. Name the language, state the task unambiguously, give the exact function names and signatures, the input and output types and ranges, and show the public test cases as examples. Do not hint at how the solution works. Answer with the statement only, in Markdown, under the heading:
### QUESTION

Solution:
\`\`\`
{SOLUTION}
\`\`\`

Public tests:
\`\`\`
{DEMO}
\`\`\``,
  critic: `Stage: review.
Judge whether this {LANG} problem statement and its tests agree: function signatures, reproducibility, precision of expected values, exception handling, requirements the statement does not state, and how well the tests cover the task. Reply with a line \`SCORE: <0-10>\`, a line \`CATEGORY: <one of ${CATEGORIES.join(', ')}>\` and then your reasons.

Statement:
{QUESTION}

Private tests:
\`\`\`
{FULL}
\`\`\``,
  translate: `Stage: translation.
Translate this verified {FROM} programming problem into {LANG}: the statement, the reference solution and both test programs, keeping the same behaviour, the same test cases and the same expected values. Use {LANG}'s usual naming. The statement must name {LANG} and the new function names.
Also list the test inputs below, in the same order, each as {INPUT_STYLE}.

Answer with exactly these headings: QUESTION followed by the statement in Markdown (not fenced as a whole), each other one followed by one fenced code block:
### QUESTION
### SOLUTION
### INPUTS
### DEMO_TEST
### FULL_TEST
Test style for {LANG}: {TEST_STYLE}

Statement:
{QUESTION}

Solution:
\`\`\`
{SOLUTION}
\`\`\`

Inputs:
\`\`\`
{INPUTS}
\`\`\`

Public tests:
\`\`\`
{DEMO}
\`\`\`

Private tests:
\`\`\`
{FULL}
\`\`\``,
} as const;

export type TemplateName = keyof typeof TEMPLATES;

/** Fills `{NAME}` slots in one pass, so text inserted from a seed is never itself expanded. */
export function fill(name: TemplateName, values: Record<string, string>): string {
  return TEMPLATES[name].replace(/\{([A-Z_]+)\}/g, (whole, key: string) => values[key] ?? whole);
}

export const languageName = (language: LanguageId) => LANGUAGE_NAMES[language];

export const hashText = (text: string) => bytesToHex(sha256(utf8ToBytes(text)));

/** Every prompt text's sha256, for the manifest. */
export function promptHashes(): Record<string, string> {
  const out: Record<string, string> = { system: hashText(GEN_SYSTEM) };
  for (const [name, text] of Object.entries(TEMPLATES)) out[name] = hashText(text);
  for (const [language, text] of Object.entries(TEST_STYLE)) out[`testStyle.${language}`] = hashText(text);
  for (const [language, text] of Object.entries(INPUT_STYLE)) out[`inputStyle.${language}`] = hashText(text);
  return out;
}

export function testStyle(language: LanguageId): string | undefined {
  return TEST_STYLE[language];
}
