import { hoistLines, withHeader } from './hoist';

// Only one public top-level class is allowed per file, so every class loses its access modifier.
const CLASS_MODIFIER = /\b(?:public|private|protected)\s+class\b/g;
const isImport = (line: string) => line.trimStart().startsWith('import ');
// One file in the default package: `package` lines would not match the file's location.
const isPackage = (line: string) => /^\s*package\s/.test(line);

/**
 * Java (SPEC §5): `public`/`private`/`protected class` → `class`; `import` lines of both parts go
 * to the top once each (first-seen order: SPEC asks for de-duplication, not sorting); `package`
 * lines are dropped; then the solution, a blank line, the tests.
 */
export function javaSplice(solution: string, tests: string): string {
  const h = hoistLines(solution, tests, isImport, isPackage);
  const body = (h.solution + '\n\n' + h.tests).replace(CLASS_MODIFIER, 'class');
  return withHeader(h.lines, body);
}
