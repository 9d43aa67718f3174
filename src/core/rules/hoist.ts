/**
 * The "hoist" splices (C#, Dart, Kotlin, Java; SPEC §5): certain lines (imports, usings) leave
 * both parts and go to the top once each; the rest is solution, blank line, tests.
 */
export interface Hoisted {
  /** The hoisted lines, trimmed, de-duplicated, in first-seen order. */
  lines: string[];
  /** Solution and tests without those lines, each trimmed (removal leaves blank lines behind). */
  solution: string;
  tests: string;
}

export function hoistLines(
  solution: string,
  tests: string,
  isHoisted: (line: string) => boolean,
  isDropped: (line: string) => boolean = () => false,
): Hoisted {
  const lines = new Set<string>();
  const strip = (code: string) =>
    code
      .split('\n')
      .filter((line) => {
        if (isDropped(line)) return false;
        if (!isHoisted(line)) return true;
        lines.add(line.trim());
        return false;
      })
      .join('\n')
      .trim();
  return { solution: strip(solution), tests: strip(tests), lines: [...lines] };
}

/** Hoisted lines, a blank line, then the body; no header at all when nothing was hoisted. */
export function withHeader(lines: readonly string[], body: string): string {
  return lines.length ? lines.join('\n') + '\n\n' + body : body;
}

// Plain code-unit order, as the recorded all_code shows (`using System.Linq;` < `using System;`).
export const sorted = (lines: readonly string[]): string[] => [...lines].sort();

function sortedHoistSplice(isImport: RegExp) {
  return (solution: string, tests: string): string => {
    const h = hoistLines(solution, tests, (line) => isImport.test(line));
    return withHeader(sorted(h.lines), h.solution + '\n\n' + h.tests);
  };
}

/** Dart: `import …;` lines hoisted, sorted, de-duplicated. */
export const dartSplice = sortedHoistSplice(/^\s*import\s.*;\s*$/);
/**
 * Kotlin: `import …` lines (no semicolon) hoisted, sorted, de-duplicated. SPEC §5 mentions neither
 * the sorting nor a blank line ("then solution, tests"); the recorded all_code has both (case 16:
 * `sqrt`, `pow` come out as `pow`, `sqrt`), as for Dart.
 */
export const kotlinSplice = sortedHoistSplice(/^\s*import\s+\S/);
