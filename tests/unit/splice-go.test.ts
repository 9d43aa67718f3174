/** Go splice (SPEC §5); no recorded official cases exist, so these pin the SPEC text. */
import { describe, expect, it } from 'vitest';
import { spliceProgram } from '../../src/core/rules';

const splice = (solution: string, tests: string) => spliceProgram('go', solution, tests);

describe('go splice', () => {
  it('one package main, one merged import block, solution, tests', () => {
    const solution = 'package main\n\nimport (\n\t"fmt"\n\t"strings"\n)\n\nfunc Shout(s string) string {\n\treturn strings.ToUpper(s) + fmt.Sprint("!")\n}';
    const tests = 'package main\n\nimport (\n\t"testing"\n\t"strings"\n)\n\nfunc TestShout(t *testing.T) {\n\tif Shout("a") != strings.Repeat("A", 1)+"!" {\n\t\tt.Error("bad")\n\t}\n}';
    expect(splice(solution, tests)).toBe(
      'package main\n\nimport (\n\t"fmt"\n\t"strings"\n\t"testing"\n)\n\n' +
        'func Shout(s string) string {\n\treturn strings.ToUpper(s) + fmt.Sprint("!")\n}\n\n' +
        'func TestShout(t *testing.T) {\n\tif Shout("a") != strings.Repeat("A", 1)+"!" {\n\t\tt.Error("bad")\n\t}\n}\n',
    );
  });

  it('merges single-line imports with blocks and removes every `package main`', () => {
    const out = splice('package main\nimport "fmt"\nimport "os"\nfunc F() { fmt.Println(os.Args) }', 'package main\n\nimport "testing"\n\nfunc TestF(t *testing.T) { F() }');
    expect(out).toBe('package main\n\nimport (\n\t"fmt"\n\t"os"\n\t"testing"\n)\n\nfunc F() { fmt.Println(os.Args) }\n\nfunc TestF(t *testing.T) { F() }\n');
    expect(out.match(/package main/g)).toHaveLength(1);
  });

  it('removes imports whose last path segment is not used anywhere in the program', () => {
    const solution = 'package main\n\nimport (\n\t"fmt"\n\t"math/rand"\n\t"sort"\n\t"strconv"\n)\n\nfunc Pick(xs []int) int {\n\tsort.Ints(xs)\n\treturn xs[rand.Intn(len(xs))]\n}';
    const tests = 'package main\n\nimport (\n\t"fmt"\n\t"testing"\n)\n\nfunc TestPick(t *testing.T) { _ = Pick([]int{1}) }';
    expect(splice(solution, tests)).toBe(
      'package main\n\nimport (\n\t"math/rand"\n\t"sort"\n\t"testing"\n)\n\n' +
        'func Pick(xs []int) int {\n\tsort.Ints(xs)\n\treturn xs[rand.Intn(len(xs))]\n}\n\nfunc TestPick(t *testing.T) { _ = Pick([]int{1}) }\n',
    );
  });

  it('a use must be a qualified `name.`: a variable named like the package does not count', () => {
    const out = splice('import "sort"\nfunc F(sort []int) int { return len(sort) }', 'import "testing"\nfunc TestF(t *testing.T) {}');
    expect(out).not.toContain('"sort"');
    expect(out).toContain('\t"testing"\n');
  });

  it('renamed imports are kept by their alias; blank and dot imports are always kept', () => {
    const solution = 'package main\n\nimport (\n\tstr "strings"\n\t_ "embed"\n\t. "math"\n\tm "math/big"\n)\n\nfunc F() string { return str.ToUpper("a") + fmt(Pi) }';
    expect(splice(solution, 'func TestF() {}')).toBe(
      'package main\n\nimport (\n\tstr "strings"\n\t_ "embed"\n\t. "math"\n)\n\n' +
        'func F() string { return str.ToUpper("a") + fmt(Pi) }\n\nfunc TestF() {}\n',
    );
  });

  it('emits no import block when nothing is imported or used, and still one `package main`', () => {
    expect(splice('func Add(a, b int) int { return a + b }', 'package main\nimport "fmt"\nfunc TestAdd() {}')).toBe(
      'package main\n\nfunc Add(a, b int) int { return a + b }\n\nfunc TestAdd() {}\n',
    );
  });

  it('keeps imports inside strings or comments in place only when not at the start of a line', () => {
    const out = splice('package main\nimport "fmt"\nconst s = `import "os"`\nfunc F() { fmt.Print(s) }', 'func TestF() {}');
    expect(out).toContain('const s = `import "os"`');
    expect(out).not.toContain('\t"os"');
  });
});
