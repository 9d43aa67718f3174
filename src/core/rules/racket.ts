const isLang = (line: string) => line.trimStart().startsWith('#lang');

/**
 * Racket (SPEC §5): the solution's first `#lang` line (default `#lang racket`) goes on top once;
 * all `#lang` lines leave both parts. Unlike the hoisting splices, nothing is trimmed: the blank
 * line that followed a removed `#lang` stays (the recorded all_code starts `#lang racket\n\n\n`),
 * and the program ends with a newline (recorded all_code; SPEC §5 does not say).
 */
export function racketSplice(solution: string, tests: string): string {
  const lang = solution.split('\n').find(isLang)?.trim() ?? '#lang racket';
  const drop = (code: string) => code.split('\n').filter((l) => !isLang(l)).join('\n');
  return lang + '\n\n' + drop(solution) + '\n\n' + drop(tests) + '\n';
}
