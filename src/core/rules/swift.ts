import { concatSplice } from './concat';

// Plain substrings, as officially: `sin` also matches `using` or `since`, `exp` matches `expected`.
const NEEDS_MATH = ['pow', 'sin', 'exp', 'cos', 'sqrt', 'NSDictionary', 'NSDecimalSquareRoot'];

/**
 * Swift (SPEC §5): a solution mentioning a math/Foundation name gets `import Foundation` and
 * `import Glibc` prepended, each only if the solution lacks it, then a blank line; then concat.
 */
export function swiftSplice(solution: string, tests: string): string {
  let head = solution;
  if (NEEDS_MATH.some((name) => solution.includes(name))) {
    const missing = ['import Foundation', 'import Glibc'].filter((line) => !solution.includes(line));
    if (missing.length) head = missing.join('\n') + '\n\n' + solution;
  }
  return concatSplice(head, tests);
}
