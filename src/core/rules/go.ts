interface GoImport {
  /** `name`, `_` or `.` when the import is renamed. */
  alias: string | undefined;
  path: string;
}

// `import "fmt"`, `import m "math"` and `import ( … )` blocks, at the start of a line.
const SINGLE = /^[ \t]*import[ \t]+(?:([\w.]+)[ \t]+)?"([^"]+)"[^\n]*$/gm;
const BLOCK = /^[ \t]*import[ \t]*\(([^)]*)\)[^\n]*$/gm;
const SPEC_LINE = /(?:([\w.]+)[ \t]+)?"([^"]+)"/g;
const PACKAGE_MAIN = /^[ \t]*package[ \t]+main\b[^\n]*$/gm;

function takeImports(code: string, into: Map<string, GoImport>): string {
  const add = (alias: string | undefined, path: string) => {
    const key = `${alias ?? ''} ${path}`;
    if (!into.has(key)) into.set(key, { alias, path });
  };
  return code
    .replace(BLOCK, (_, body: string) => {
      for (const m of body.matchAll(SPEC_LINE)) add(m[1], m[2]!);
      return '';
    })
    .replace(SINGLE, (_, alias: string | undefined, path: string) => {
      add(alias, path);
      return '';
    })
    .replace(PACKAGE_MAIN, '');
}

/** Go rejects unused imports, so an import whose name never appears as `name.` is dropped. */
function isUsed(imp: GoImport, code: string): boolean {
  if (imp.alias === '_' || imp.alias === '.') return true; // imported for effect / unqualified
  const name = imp.alias ?? imp.path.split('/').at(-1)!;
  return new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.`).test(code);
}

/**
 * Go (SPEC §5): imports of both parts merged into one block (first-seen order, de-duplicated),
 * every `package main` removed and emitted once on top, then the solution and the tests. Imports
 * whose last path segment (or alias) is unused in the program are left out.
 */
export function goSplice(solution: string, tests: string): string {
  const imports = new Map<string, GoImport>();
  const body = takeImports(solution, imports).trim() + '\n\n' + takeImports(tests, imports).trim() + '\n';
  const used = [...imports.values()].filter((imp) => isUsed(imp, body));
  const block = used.length
    ? 'import (\n' + used.map((i) => `\t${i.alias ? i.alias + ' ' : ''}"${i.path}"\n`).join('') + ')\n\n'
    : '';
  return 'package main\n\n' + block + body;
}
