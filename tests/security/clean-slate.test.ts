/**
 * Issue #12, findings 2 and 5, for JavaScript, TypeScript, Shell, Perl and PHP: in ONE worker, a
 * hostile answer patches what the next programs rely on (builtins, assert, exit, print, the test
 * library, the file tree) and leaves late work behind; the known-wrong programs after it must still
 * fail and the known-right ones pass, as each would in a new `node`/`bash`/`perl`/`php` process.
 * A program that prints 30 MB by a late path (timer, exit hook, END block, shutdown function) is
 * cut at its own cap, and the next program's output holds nothing of it. Ruby, R and C++:
 * clean-slate-vm.test.ts. Expected outcomes: SPEC §4 applied to what the real interpreter does
 * (checked against node 18+, bash 5, perl 5.3x, php 8.1 while writing them).
 */
import { afterAll, describe, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { expectCleanSlate, type Step } from './sequence';

const executor = createNodeExecutor({ poolSize: 1 });
afterAll(() => executor.dispose());

const JS_HOSTILE = `const assert = require('assert');
for (const k of Object.keys(assert)) { try { assert[k] = () => {}; } catch {} }
try { assert.strict.strictEqual = () => {}; } catch {}
Object.prototype.leaked = true;
globalThis.leaked = true;
Array.prototype.includes = () => true;
JSON.stringify = () => '"same"';
Object.is = () => true;
Error.prototype.toString = () => '';
Math.max = () => 42;
process.exit = () => {};
console.log = console.error = () => {};
if (typeof __benchtop === 'object') Object.assign(__benchtop, { exitCode: () => 0, defaultExitCode: () => 0, formatUncaught: () => '' });
globalThis.require = () => new Proxy(function () {}, { get: () => () => {} });
setTimeout(() => { process.stdout.write('LATE-OUTPUT\\n'); throw new Error('LATE-OUTPUT failed'); }, 10);
`;
const JS_FLOOD = `setTimeout(() => { throw new Error('failed ' + 'x'.repeat(30_000_000)); }, 5);\n`;

const javascript: Step[] = [
  { name: 'hostile: patches assert, require, builtins, exit, console, the host object', program: JS_HOSTILE, expected: 'RUNTIME_ERROR' },
  { name: 'wrong: strictEqual', program: "const assert = require('assert');\nfunction demoTesting() { assert.strictEqual(1 + 1, 3); }\ndemoTesting();\n", expected: 'RUNTIME_ERROR' },
  { name: 'wrong: deepStrictEqual', program: "const assert = require('assert');\nassert.deepStrictEqual([1, 2].map((x) => x * 2), [2, 5]);\n", expected: 'RUNTIME_ERROR' },
  { name: 'wrong: exit code from a builtin', program: 'if (![1, 2].includes(3) && Math.max(1, 2) === 2) process.exit(2);\n', expected: 'RUNTIME_ERROR' },
  { name: 'wrong: prints failed', program: "console.log('Test failed');\n", expected: 'WRONG_ANSWER' },
  {
    name: 'right: pristine realm',
    program: "const assert = require('assert');\nassert.strictEqual(JSON.stringify({ a: [1] }), '{\"a\":[1]}');\nassert.ok(!({}).leaked && typeof leaked === 'undefined' && !Object.is(1, 2));\nconsole.log('ok');\n",
    expected: 'PASSED',
  },
  { name: 'flood: 30 MB error thrown from a timer', program: JS_FLOOD, expected: 'RUNTIME_ERROR', flood: true },
  { name: 'right: after the flood', program: "require('assert').strictEqual(2 + 2, 4);\n", expected: 'PASSED' },
  { name: 'wrong: after the flood', program: "require('assert').strictEqual(2 + 2, 5);\n", expected: 'RUNTIME_ERROR' },
  {
    name: "wrong: an 'exit' listener sets the exit code",
    program: "process.on('exit', (code) => { console.log('LATE-OUTPUT', code); process.exitCode = 3; });\nconsole.log('end');\n",
    expected: 'RUNTIME_ERROR',
  },
  {
    name: "right: an 'uncaughtException' listener takes a timer's error, later timers still run",
    program: "process.on('uncaughtException', (e) => console.log('caught', e.message));\nsetTimeout(() => { throw new Error('t'); }, 1);\nsetTimeout(() => console.log('later'), 5);\n",
    expected: 'PASSED',
  },
  {
    name: "flood: 30 MB error thrown from an 'exit' listener",
    program: "process.on('exit', () => { throw new Error('x'.repeat(30_000_000)); });\nconsole.log('end');\n",
    expected: 'RUNTIME_ERROR',
    flood: true,
  },
  { name: 'right: after the exit-listener flood', program: "require('assert').deepStrictEqual([1, 2], [1, 2]);\n", expected: 'PASSED' },
];

const typescript: Step[] = [
  { name: 'hostile (as JavaScript, typed)', program: JS_HOSTILE.replace('const assert =', 'const assert: any ='), expected: 'RUNTIME_ERROR' },
  { name: 'wrong: strictEqual', program: "const assert = require('assert');\nconst n: number = 1 + 1;\nassert.strictEqual(n, 3);\n", expected: 'RUNTIME_ERROR' },
  { name: 'wrong: prints AssertionError', program: "console.log('AssertionError: expected 3');\n", expected: 'WRONG_ANSWER' },
  { name: 'right: pristine realm', program: "const assert = require('assert');\nassert.ok(!({} as any).leaked && [1].includes(1) && ![1].includes(2));\n", expected: 'PASSED' },
  { name: 'flood: 30 MB error thrown from a timer', program: JS_FLOOD, expected: 'RUNTIME_ERROR', flood: true },
  { name: 'right: after the flood', program: "const x: number = 4;\nrequire('assert').strictEqual(x, 4);\n", expected: 'PASSED' },
];

const SH_HOSTILE = `exit() { return 0; }
echo() { :; }
printf() { :; }
test() { return 0; }
shopt -s expand_aliases
alias '['=':'
export LEAKED=1
LEAKVAR=1
mkdir -p /tmp/benchtop && builtin echo 'builtin exit 0' > /tmp/benchtop/test.sh
cd /tmp && builtin echo leak > /tmp/leak
export PATH=/nowhere
trap 'builtin echo LATE-OUTPUT' EXIT
builtin exit 0
`;

const shell: Step[] = [
  { name: 'hostile: exit/echo/printf/test as functions, alias [, environment, files, an EXIT trap', program: SH_HOSTILE, expected: 'PASSED' },
  { name: 'wrong: [ ] || exit 1', program: '[ $((1 + 1)) -eq 3 ] || { echo "Test failed"; exit 1; }\necho "All tests passed"\n', expected: 'RUNTIME_ERROR' },
  { name: 'wrong: test || exit 2', program: 'test "$(printf %s abc)" = "abd" || exit 2\n', expected: 'RUNTIME_ERROR' },
  {
    name: 'right: pristine shell and files',
    program: '[ -z "$LEAKED" ] && [ -z "$LEAKVAR" ] && [ ! -e /tmp/leak ] || exit 3\n[ "$(echo hi | tr a-z A-Z)" = "HI" ] || exit 4\necho ok\n',
    expected: 'PASSED',
  },
  {
    name: 'flood: 8 MB (just-bash stops at 16 MB) and exit 1 from an EXIT trap',
    program: "export s=x\nfor i in $(seq 23); do s=$s$s; done\ntrap 'echo \"$s\" >&2; exit 1' EXIT\necho done\n",
    expected: 'RUNTIME_ERROR',
    flood: true,
  },
  { name: 'right: after the flood', program: '[ "$(echo ok)" = "ok" ] || exit 1\n', expected: 'PASSED' },
];

const PERL_HOSTILE = `BEGIN { *CORE::GLOBAL::die = sub { CORE::exit(0) }; *CORE::GLOBAL::exit = sub { CORE::exit(0) }; }
$INC{'Test/More.pm'} = __FILE__;
{ no strict 'refs'; no warnings;
  for my $f (qw(ok is isnt is_deeply like cmp_ok done_testing plan)) { *{"Test::More::$f"} = sub { 1 }; }
  *main::LEAKED = \\1; }
$ENV{LEAKED} = 1;
open my $fh, '>', '/tmp/leak'; print $fh "x"; close $fh;
if (open my $m, '>', '/usr/share/benchtop/perl5/Test/More.pm') { print $m "package Test::More; sub import {} sub is { 1 } 1;\\n"; close $m; }
unlink '/usr/share/benchtop/perl5/POSIX.pm';
END { $? = 0; print "LATE-OUTPUT\\n"; }
`;

const perl: Step[] = [
  { name: 'hostile: CORE::GLOBAL::die/exit, Test::More stubbed in %INC and on disk, END, env, files', program: PERL_HOSTILE, expected: 'PASSED' },
  { name: 'wrong: die', program: 'die "Test failed\\n" unless 1 + 1 == 3;\n', expected: 'RUNTIME_ERROR' },
  { name: 'wrong: exit 1', program: 'exit(1) unless join(",", sort { $a <=> $b } 3, 1, 2) eq "1,2,4";\n', expected: 'RUNTIME_ERROR' },
  { name: 'wrong: Test::More is()', program: 'use strict; use warnings; use Test::More tests => 1;\nis(1 + 1, 3, "sum");\n', expected: 'RUNTIME_ERROR' },
  { name: 'right: POSIX', program: 'use POSIX qw(floor);\ndie "wrong\\n" unless floor(2.5) == 2;\n', expected: 'PASSED' },
  { name: 'right: Test::More', program: 'use Test::More tests => 2;\nis(1 + 1, 2);\nok(!defined $main::LEAKED && !exists $ENV{LEAKED} && !-e "/tmp/leak");\n', expected: 'PASSED' },
  { name: 'flood: 30 MB from an END block after die', program: 'END { print STDERR "failed " x 5_000_000 }\ndie "late\\n";\n', expected: 'RUNTIME_ERROR', flood: true },
  { name: 'right: after the flood', program: 'die "wrong\\n" unless 2 + 2 == 4;\nprint "ok\\n";\n', expected: 'PASSED' },
];

const PHP_HOSTILE = `<?php
ini_set('zend.assertions', '0');
ini_set('assert.active', '0');
ini_set('assert.exception', '0');
ini_set('display_errors', '0');
ini_set('error_reporting', '0');
set_error_handler(fn () => true);
set_exception_handler(fn () => null);
define('LEAKED', 1);
function leaked_function() {}
class LeakedClass {}
putenv('LEAKED=1');
file_put_contents('/tmp/leak', 'x');
register_shutdown_function(function () { echo "LATE-OUTPUT\\n"; });
echo "done\\n";
`;

const php: Step[] = [
  { name: 'hostile: assert ini off, error/exception handlers, constants, functions, env, files', program: PHP_HOSTILE, expected: 'PASSED' },
  { name: 'wrong: assert()', program: '<?php\nfunction solve() { return 1 + 1; }\nassert(solve() === 3);\n', expected: 'RUNTIME_ERROR' },
  { name: 'wrong: prints failed', program: '<?php\nif (strrev("ab") !== "ab") { echo "Test failed\\n"; }\n', expected: 'WRONG_ANSWER' },
  {
    name: 'right: pristine interpreter',
    program: "<?php\nassert(!defined('LEAKED') && !function_exists('leaked_function') && !class_exists('LeakedClass'));\nassert(getenv('LEAKED') === false && !file_exists('/tmp/leak'));\nassert(ini_get('zend.assertions') === '1');\necho \"ok\\n\";\n",
    expected: 'PASSED',
  },
  { name: 'flood: 30 MB from a shutdown function that throws', program: "<?php\nregister_shutdown_function(function () { throw new Exception(str_repeat('x', 30000000)); });\necho \"ok\\n\";\n", expected: 'RUNTIME_ERROR', flood: true },
  { name: 'right: after the flood', program: '<?php\nassert(2 + 2 === 4);\necho "ok\\n";\n', expected: 'PASSED' },
  { name: 'wrong: after the flood', program: '<?php\nassert(2 + 2 === 5);\n', expected: 'RUNTIME_ERROR' },
];

describe('a clean slate for every program, in one worker (issue #12, findings 2 and 5)', () => {
  it('javascript', () => expectCleanSlate(executor, 'javascript', javascript), 180_000);
  it('typescript', () => expectCleanSlate(executor, 'typescript', typescript), 180_000);
  it('shell', () => expectCleanSlate(executor, 'shell', shell), 180_000);
  it('perl', () => expectCleanSlate(executor, 'perl', perl), 180_000);
  it('php', () => expectCleanSlate(executor, 'php', php), 180_000);
});
