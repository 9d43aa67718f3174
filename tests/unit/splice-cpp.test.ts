/** C++ splice (SPEC §5); no recorded official cases exist, so these pin the SPEC text. */
import { describe, expect, it } from 'vitest';
import { spliceProgram } from '../../src/core/rules';

const HEADER = '#include <iostream>\nusing namespace std;\n';
const splice = (solution: string, tests: string) => spliceProgram('cpp', solution, tests);

describe('cpp splice', () => {
  it('puts the iostream include and using line first, then solution, newline, tests', () => {
    expect(splice('int add(int a, int b) { return a + b; }', 'int main() { return add(1, 2) - 3; }')).toBe(
      HEADER + 'int add(int a, int b) { return a + b; }\nint main() { return add(1, 2) - 3; }',
    );
  });

  it('trims the solution before cutting and leaves the tests untouched', () => {
    expect(splice('\n\n  int f() { return 1; }  \n\n', '\n#include <cassert>\nint main() {}\n')).toBe(
      HEADER + 'int f() { return 1; }\n\n#include <cassert>\nint main() {}\n',
    );
  });

  it("drops the solution's own main: everything from the first `int main` on", () => {
    const solution = '#include <vector>\nint twice(int x) { return 2 * x; }\n\nint main() {\n  cout << twice(2);\n}\n';
    expect(splice(solution, 'int main() {}')).toBe(HEADER + '#include <vector>\nint twice(int x) { return 2 * x; }\n\n\nint main() {}');
  });

  it('quirk: the cut also hits identifiers that merely start with `main` (int main_value)', () => {
    const solution = 'int main_value = 42;\nint get() { return main_value; }';
    expect(splice(solution, 'int main() {}')).toBe(HEADER + '\nint main() {}');
    expect(splice('int f();\nint maintain() { return 0; }', 'T')).toBe(HEADER + 'int f();\n\nT');
  });

  it('quirk: a mention of `int main` in a comment cuts there too; `unsigned int mainly` as well', () => {
    expect(splice('// call from int main\nint f() { return 1; }', 'T')).toBe(HEADER + '// call from \nT');
    expect(splice('unsigned int mainly = 0;', 'T')).toBe(HEADER + 'unsigned \nT');
  });

  it('only the text `int main` cuts: `int  main` (two spaces) or `main()` alone do not', () => {
    expect(splice('int  main() {}', 'T')).toBe(HEADER + 'int  main() {}\nT');
    expect(splice('void main2();', 'T')).toBe(HEADER + 'void main2();\nT');
  });

  it('keeps a solution without main whole, and adds the header even if already present', () => {
    expect(splice('#include <iostream>\nusing namespace std;\nint f();', 'T')).toBe(HEADER + '#include <iostream>\nusing namespace std;\nint f();\nT');
  });
});
