/**
 * Per-language helpers of the generator: the program that prints the solution's output for each
 * input (run in the sandbox only: inputs are model-written code), and simple mutants of a solution.
 */
import type { LanguageId } from '../contracts';
import { cppOutputsProgram, goOutputsProgram } from './harness-compiled';

export const OUTPUT_MARK = '@@gen-output ';
/** Printed after the last output where the harness must fail on purpose to be heard (Go). */
export const OUTPUT_DONE = '@@gen-done';

/** Languages the generator can drive (inputs harness + test style). Go needs a runner. */
export const GEN_LANGUAGES: readonly LanguageId[] = ['python', 'javascript', 'ruby', 'cpp', 'go'];

/** Solution + one printed line per input, each marked so the solution's own prints are ignored. */
export function outputsProgram(language: LanguageId, solution: string, inputs: readonly string[]): string {
  if (language === 'python') {
    const calls = inputs.map((i) => `    lambda: (${i}),`).join('\n');
    return `${solution}\n\nfor __gen_f in [\n${calls}\n]:\n    print(${JSON.stringify(OUTPUT_MARK)} + repr(__gen_f()))\n`;
  }
  if (language === 'javascript') {
    const calls = inputs.map((i) => `  () => (${i}),`).join('\n');
    return `${solution}\n\nfor (const __genF of [\n${calls}\n]) {\n  const __genV = __genF();\n  console.log(${JSON.stringify(OUTPUT_MARK)} + (__genV === undefined ? 'undefined' : JSON.stringify(__genV)));\n}\n`;
  }
  if (language === 'ruby') {
    const calls = inputs.map((i) => `  -> { (${i}) },`).join('\n');
    return `${solution}\n\n[\n${calls}\n].each { |gen_f| puts(${JSON.stringify(OUTPUT_MARK)} + gen_f.call.inspect) }\n`;
  }
  if (language === 'cpp') return cppOutputsProgram(solution, inputs, OUTPUT_MARK);
  if (language === 'go') return goOutputsProgram(solution, inputs, OUTPUT_MARK, OUTPUT_DONE);
  throw new Error(`the generator does not support ${language} yet`);
}

/** Whether an outputs run finished: exit 0, or for Go the done line then its deliberate failure. */
export function outputsRunOk(language: LanguageId, run: { exitCode: number | null; stdout: string; compileFailed?: boolean }): boolean {
  if (language === 'go') return !run.compileFailed && run.stdout.split('\n').some((l) => l.replace(/\r$/, '') === OUTPUT_DONE);
  return run.exitCode === 0;
}

/**
 * A mutant that does not build says nothing about the tests (it is not "caught"): a compile
 * failure (C++), or for Go, whose `go test` builds and runs in one step, its build-failed line.
 */
export function mutantBuilt(language: LanguageId, run: { stdout: string; stderr: string; compileFailed?: boolean }): boolean {
  if (run.compileFailed) return false;
  if (language === 'go') return !/\[build failed\]|\[setup failed\]/.test(run.stdout + run.stderr);
  return true;
}

/** The marked output lines of a run, in order. */
export function observedOutputs(stdout: string): string[] {
  return stdout.split('\n').filter((l) => l.startsWith(OUTPUT_MARK)).map((l) => l.slice(OUTPUT_MARK.length).replace(/\r$/, ''));
}

// Negated comparisons: `<` to `<=` is often equivalent at the boundary (clamp), `<` to `>=` is not.
const FLIPS: Array<[RegExp, string]> = [
  [/ <= /, ' > '], [/ >= /, ' < '], [/ < /, ' >= '], [/ > /, ' <= '], [/ === /, ' !== '], [/ !== /, ' === '], [/ == /, ' != '], [/ != /, ' == '],
];

/**
 * Up to `limit` distinct one-edit mutants: a negated comparison (first occurrence of each
 * operator) or a changed integer constant (first few, +1). Tests that pass every mutant are too weak.
 */
export function mutants(solution: string, limit = 4): string[] {
  const out = new Set<string>();
  for (const [pattern, replacement] of FLIPS) {
    const m = pattern.exec(solution);
    if (m) out.add(solution.slice(0, m.index) + replacement + solution.slice(m.index + m[0].length));
  }
  const numbers = /(?<![\w.])\d+(?![\w.])/g;
  let m: RegExpExecArray | null;
  let constants = 0;
  while ((m = numbers.exec(solution)) && constants < 3) {
    out.add(solution.slice(0, m.index) + String(Number(m[0]) + 1) + solution.slice(m.index + m[0].length));
    constants++;
  }
  out.delete(solution);
  return [...out].slice(0, limit);
}
