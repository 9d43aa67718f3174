import { hoistLines, sorted, withHeader } from './hoist';

// A `using` directive (`using X.Y;`, `using static X;`, `using A = X.Y;`), not a `using (…)` or
// `using var …` statement inside a method body (the recorded case 32 keeps `using (WebClient …)`).
const USING = /^\s*using\s+(?:static\s+)?[\w.]+(?:\s*=\s*[\w.<>, ]+)?\s*;\s*$/;
// A member declared with bare `static` is private by default; tests in another class need it.
// Recorded all_code: the whole indentation becomes four spaces (`    public static`).
const BARE_STATIC = /^[ \t]*static\b/gm;
// Any `Main` method already present (static void / async Task / int …).
const HAS_MAIN = /\bstatic\b[^(\n]*\bMain\s*\(/;

/**
 * C# (SPEC §5): `using …;` lines of both parts hoisted (sorted, de-duplicated), solution, blank
 * line, tests; bare `static` → `public static`; with no `Main`, `static void RunTests(` becomes the
 * entry point (an `async Task RunTests()` is left alone, as recorded in case 32).
 */
export function csharpSplice(solution: string, tests: string): string {
  const h = hoistLines(solution, tests, (line) => USING.test(line));
  let body = (h.solution + '\n\n' + h.tests).replace(BARE_STATIC, '    public static');
  if (!HAS_MAIN.test(body)) body = body.replaceAll('static void RunTests(', 'static void Main(');
  return withHeader(sorted(h.lines), body);
}
