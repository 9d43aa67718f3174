/** "concat" splice (SPEC §5): solution, a newline, then the tests. */
export function concatSplice(solution: string, tests: string): string {
  return solution + '\n' + tests;
}
