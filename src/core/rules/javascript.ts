import { concatSplice } from './concat';

// A top-level `function demoTesting(` / `async function demoTesting(` or a binding of that name.
const defines = (name: string) =>
  new RegExp(`(?:function\\s*\\*?\\s*${name}\\s*\\(|(?:const|let|var)\\s+${name}\\s*=)`);

/**
 * JavaScript (SPEC §5): concat, then call `demoTesting()` if the program defines it, else
 * `fullTesting()` if it defines that. TypeScript uses plain concat: tsx gets no automatic call.
 */
export function javascriptSplice(solution: string, tests: string): string {
  const program = concatSplice(solution, tests);
  if (defines('demoTesting').test(program)) return program + '\ndemoTesting();\n';
  if (defines('fullTesting').test(program)) return program + '\nfullTesting();\n';
  return program;
}
