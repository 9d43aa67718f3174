/**
 * PHP answers run on PHP 8.1, the official version (issue #13 part 2): php-wasm's web-8-1 build.
 * Debian bookworm has PHP 8.2, not 8.1, so the expectations come from the PHP manual's version
 * notes (php.net: "readonly classes" and the standalone true/false/null types are PHP 8.2,
 * json_validate() and typed class constants 8.3, array_find() 8.4, the Random\Randomizer class 8.2;
 * enums, readonly properties, never, array_is_list() and first-class callables are 8.1) and from
 * PHP_INT_SIZE on x86-64 (8); integer and float output as Debian's PHP 8.2 prints it on x86-64
 * (`php -r 'var_dump(PHP_INT_MAX + 1);'`: formatting unchanged since 7.1). Under `php test.php` a parse error and an uncaught Error both end
 * with exit status 255: RUNTIME_ERROR (SPEC §4).
 */
import { describe, expect, it } from 'vitest';
import { judgeRun, precheckProgram } from '../../src/core/rules';
import { useRuntime } from '../support/runtimes';

const php = useRuntime('php');
const run = (program: string) => php.run(program, 20_000);

/** Newer than 8.1: each fails under PHP 8.1. */
const NEWER = {
  'readonly classes (8.2)': '<?php\nreadonly class P { public function __construct(public int $x) {} }\necho (new P(1))->x, "\\n";',
  'standalone true type (8.2)': '<?php\nfunction t(): true { return true; }\nvar_dump(t());',
  'json_validate() (8.3)': '<?php\nvar_dump(json_validate("{}"));',
  'typed class constants (8.3)': '<?php\nclass C { const int N = 1; }\necho C::N, "\\n";',
  'array_find() (8.4)': '<?php\necho array_find([1, 2, 3], fn($x) => $x > 1), "\\n";',
  'Random\\Randomizer (8.2)': '<?php\n$r = new Random\\Randomizer();\necho $r->getInt(1, 1), "\\n";',
};

describe('PHP: the official 8.1', () => {
  it('reports PHP 8.1 and a 64-bit integer, as on x86-64', async () => {
    const r = await run('<?php\necho PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION, " ", PHP_INT_SIZE, " ", PHP_INT_MAX, "\\n";');
    expect(r.stdout).toBe('8.1 8 9223372036854775807\n');
  });
  for (const [feature, program] of Object.entries(NEWER)) {
    it(`${feature} fails`, async () => {
      const r = await run(program);
      expect(r.exitCode).toBe(255);
      expect(r.stdout + r.stderr).toMatch(/Parse error|Fatal error/);
      expect(precheckProgram('php', program) ?? judgeRun('php', r)).not.toBe('PASSED');
    });
  }
  it('what 8.1 has works: enums, readonly properties, never, array_is_list, first-class callables, new in initialisers', async () => {
    const program = [
      '<?php',
      'enum Suit: string { case Hearts = "H"; case Spades = "S"; }',
      'class P { public function __construct(public readonly int $x, private ?ArrayObject $o = new ArrayObject()) {} }',
      'function fail(): never { throw new Exception("x"); }',
      '$len = strlen(...);',
      'echo Suit::from("S")->name, " ", (new P(3))->x, " ", var_export(array_is_list([1, 2]), true), " ", $len("abcd"), "\\n";',
    ].join('\n');
    const r = await run(program);
    expect([r.exitCode, r.stdout]).toEqual([0, 'Spades 3 true 4\n']);
  });
  it('integers: 64-bit arithmetic, overflow to float past PHP_INT_MAX, intdiv and % on 64-bit values', async () => {
    const r = await run('<?php\n$a = 3000000000 * 3;\nvar_dump($a, PHP_INT_MAX + 1, intdiv(9000000000000000000, 7), 9000000000000000000 % 1000000007, 1 << 40);');
    expect(r.stdout).toBe('int(9000000000)\nfloat(9.223372036854776E+18)\nint(1285714285714285714)\nint(441)\nint(1099511627776)\n');
  });
});
