/** Java splice (SPEC §5); no recorded official cases exist, so these pin the SPEC text. */
import { describe, expect, it } from 'vitest';
import { spliceProgram } from '../../src/core/rules';

const splice = (solution: string, tests: string) => spliceProgram('java', solution, tests);

describe('java splice', () => {
  it('hoists imports of both parts to the top, de-duplicated in first-seen order, and drops package lines', () => {
    const solution = 'package com.example;\n\nimport java.util.*;\nimport java.util.stream.Collectors;\n\npublic class Solver {\n    int x;\n}';
    const tests = 'package com.example;\nimport org.junit.jupiter.api.Test;\nimport java.util.*;\nimport static org.junit.jupiter.api.Assertions.*;\n\npublic class SolverTest {\n    @Test\n    void t() {}\n}';
    expect(splice(solution, tests)).toBe(
      'import java.util.*;\nimport java.util.stream.Collectors;\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n\n' +
        'class Solver {\n    int x;\n}\n\nclass SolverTest {\n    @Test\n    void t() {}\n}',
    );
  });

  it('rewrites public, private and protected class to class, nested ones included', () => {
    expect(splice('public class A {\n    private class B {}\n    protected class C {}\n}', 'public  class ATest {}')).toBe(
      'class A {\n    class B {}\n    class C {}\n}\n\nclass ATest {}',
    );
  });

  it('leaves other modifiers and other kinds of type alone', () => {
    const solution = 'public final class A {}\npublic static class B {}\npublic interface I {}\npublic enum E { X }\npublic record R(int a) {}';
    expect(splice(solution, 'class T {}')).toBe(solution + '\n\nclass T {}');
  });

  it('is plain text: `public class` inside a string or comment is rewritten too', () => {
    expect(splice('// public class docs\nclass A { String s = "private class"; }', 'class T {}')).toBe(
      '// class docs\nclass A { String s = "class"; }\n\nclass T {}',
    );
  });

  it('hoists indented import lines too, and only lines that start with `import `', () => {
    expect(splice('  import java.io.*;\nclass A { int important = 1; }', 'class T {}')).toBe('import java.io.*;\n\nclass A { int important = 1; }\n\nclass T {}');
  });

  it('without imports there is no header; a solution without package/imports is kept as is', () => {
    expect(splice('class A {}', 'class ATest {}')).toBe('class A {}\n\nclass ATest {}');
  });
});
