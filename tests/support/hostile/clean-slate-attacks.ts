// Issue #12, findings 2 and 5: per language, a hostile program that patches what the next
// programs rely on (builtins, assert, exit, print, the test library, the file tree) or leaves
// late work behind (a timer, exit hook, END block, finalizer; some of it a 30 MB flood), then
// known-wrong programs that must still fail and known-right ones that must still pass. Shared by
// the executor-level tests (tests/security/clean-slate*.test.ts, python-isolation.test.ts) and
// the eval set scripts/build-hostile-data.mts writes to bench-data/hostile/clean-slate.jsonl
// (tests/security/hostile-eval.test.ts).
// `expected`: SPEC §4 applied to what the real interpreter does with the program on its own, in a
// new process (node 18+, bash 5, perl 5.3x, php 8.1, ruby 3, Rscript, g++; python3 is checked by
// the tests themselves).
import type { LanguageId, Outcome } from '../../../src/contracts';
import { PYTHON_ATTACKS, PYTHON_FORGERIES, PYTHON_RIGHT, PYTHON_SCHEDULER, PYTHON_WRONG } from './python-attacks';

export interface Step {
  /** What the program does (shown when it fails). */
  name: string;
  program: string;
  /** The official outcome of this program run on its own, in a new process. */
  expected: Outcome;
  /** It prints tens of MB by a late path (callback, exit hook, finalizer): its own output is cut. */
  flood?: boolean;
}

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

export const javascript: Step[] = [
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
  // process.exit's thrown value can be caught; until 2026-12-02 either forgery below passed (node: exit 1).
  { name: 'hostile: catches process.exit(1) and goes on', program: 'try { process.exit(1); } catch (e) {}\nconsole.log("All tests passed");\n', expected: 'RUNTIME_ERROR' },
  { name: 'hostile: makes any error look like an exit through the caught signal\'s class', program: 'let S; try { process.exit(1); } catch (e) { S = e.constructor; }\nObject.defineProperty(S, Symbol.hasInstance, { value: () => true });\nthrow new Error("Test failed");\n', expected: 'RUNTIME_ERROR' },
  { name: 'right: after the forged exits', program: "require('assert').strictEqual([3, 1, 2].sort().join(), '1,2,3');\n", expected: 'PASSED' },
];

export const typescript: Step[] = [
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

export const shell: Step[] = [
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
  // An EXIT trap's text was spliced before the status line the host adds; until 2026-12-02 both passed (bash: exit 1).
  { name: "hostile: an EXIT trap's here-document swallows the host's exit line", program: "trap 'cat <<EOF' EXIT\necho \"Test failed\"\nexit 1\n", expected: 'RUNTIME_ERROR' },
  { name: 'hostile: an EXIT trap exits with $? after a failure', program: "trap 'exit $?' EXIT\n[ $((2 * 3)) -eq 7 ] || exit 1\n", expected: 'RUNTIME_ERROR' },
  { name: 'right: after the traps', program: "trap 'echo bye' EXIT\n[ \"$(printf '%s' a b)\" = ab ] || exit 1\n", expected: 'PASSED' },
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

/** Writes benchtop's Perl phase marker, where it is now and where it was until 2026-12-02. */
const PERL_MARK = 'sub mark { for my $p ("/.benchtop/phase", "/usr/share/benchtop/phase") { if (open my $f, ">", $p) { print $f $_[0]; close $f } } }';

export const perl: Step[] = [
  { name: 'hostile: CORE::GLOBAL::die/exit, Test::More stubbed in %INC and on disk, END, env, files', program: PERL_HOSTILE, expected: 'PASSED' },
  { name: 'wrong: die', program: 'die "Test failed\\n" unless 1 + 1 == 3;\n', expected: 'RUNTIME_ERROR' },
  { name: 'wrong: exit 1', program: 'exit(1) unless join(",", sort { $a <=> $b } 3, 1, 2) eq "1,2,4";\n', expected: 'RUNTIME_ERROR' },
  { name: 'wrong: Test::More is()', program: 'use strict; use warnings; use Test::More tests => 1;\nis(1 + 1, 3, "sum");\n', expected: 'RUNTIME_ERROR' },
  { name: 'right: POSIX', program: 'use POSIX qw(floor);\ndie "wrong\\n" unless floor(2.5) == 2;\n', expected: 'PASSED' },
  { name: 'right: Test::More', program: 'use Test::More tests => 2;\nis(1 + 1, 2);\nok(!defined $main::LEAKED && !exists $ENV{LEAKED} && !-e "/tmp/leak");\n', expected: 'PASSED' },
  // One zeroperl instance is put back from a snapshot per program; a program that grows the memory
  // gets a new instance. Neither path may carry a die handler or a variable into the next program.
  { name: 'hostile: grows the memory by 64 MB, leaves a __DIE__ handler that exits 0 and a variable', program: '$main::LEAKED = 1;\n$SIG{__DIE__} = sub { exit 0 };\nmy $big = "x" x 64_000_000;\nprint length($big), "\\n";\n', expected: 'PASSED' },
  { name: 'wrong: die after the grown memory', program: 'die "Test failed\\n" unless 1 + 1 == 3;\n', expected: 'RUNTIME_ERROR' },
  { name: 'hostile: leaves a __DIE__ handler that exits 0 (snapshot path)', program: '$SIG{__DIE__} = sub { exit 0 };\nour $LEAKED = 1;\nprint "ok\\n";\n', expected: 'PASSED' },
  { name: 'wrong: die after the handler', program: 'die "Test failed\\n" unless 2 + 2 == 5;\n', expected: 'RUNTIME_ERROR' },
  { name: 'right: no variable survives', program: 'die "leaked\\n" if defined $main::LEAKED;\nprint "ok\\n";\n', expected: 'PASSED' },
  { name: 'flood: 30 MB from an END block after die', program: 'END { print STDERR "failed " x 5_000_000 }\ndie "late\\n";\n', expected: 'RUNTIME_ERROR', flood: true },
  { name: 'right: after the flood', program: 'die "wrong\\n" unless 2 + 2 == 4;\nprint "ok\\n";\n', expected: 'PASSED' },
  // Benchtop::Phase's marker says whether a failed program got past compilation; the program can
  // write it too. A forged "compiled 0" after a die passed until 2026-12-02 (perl: exit 255).
  { name: 'hostile: dies, then an END block forges the compile-phase marker', program: `END { ${PERL_MARK} mark("compiled 0") }\ndie "Test failed\\n";\n`, expected: 'RUNTIME_ERROR' },
  { name: 'hostile: redefines the marker sub, writes "compiled 0", then a syntax error', program: `BEGIN { no warnings; *Benchtop::Phase::note_phase = sub {}; ${PERL_MARK} mark("compiled 0") }\nmy $x = 1 +;\n`, expected: 'RUNTIME_ERROR' },
  // Every program starts where strict and warnings are already compiled (runtimes/perl/zeroperl.ts):
  // a program that rewrites them must not take them away from the next one.
  { name: 'hostile: rewrites the preloaded strict and warnings and drops them from %INC', program: 'no warnings "redefine";\n*strict::import = sub { }; *strict::bits = sub { 0 };\n*warnings::import = sub { }; *warnings::enabled = sub { 0 };\ndelete $INC{"strict.pm"}; delete $INC{"warnings.pm"};\nprint "ok\\n";\n', expected: 'PASSED' },
  { name: 'wrong: use strict after the rewrite', program: 'use strict;\n$x = 1;\nprint "ok\\n";\n', expected: 'RUNTIME_ERROR' },
  { name: 'wrong: fatal warnings after the rewrite', program: 'use warnings FATAL => "all";\nmy $u;\nprint "a" . $u, "\\n";\n', expected: 'RUNTIME_ERROR' },
  { name: 'right: after the forgeries', program: 'die "wrong\\n" unless join(",", map { $_ * 2 } 1, 2) eq "2,4";\nprint "ok\\n";\n', expected: 'PASSED' },
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

/**
 * A program that leaves what a reused php-wasm instance could carry over: functions, constants, a
 * class, ini settings, a time limit, an exit-0 shutdown hook, a rewritten php.ini with a prepend
 * file, a directory in /tmp, its own file deleted, another cwd, and `mb` MB of memory.
 */
const phpReuseHostile = (mb: number) => `<?php
function leaked_reuse() {}
define('LEAKED_REUSE', 1);
class LeakedReuse {}
ini_set('precision', '3');
ini_set('zend.assertions', '0');
set_time_limit(1);
register_shutdown_function(function () { exit(0); });
@file_put_contents('/etc/php/8.1/cli/php.ini', "zend.assertions = -1\\nauto_prepend_file = /tmp/prepend.php\\n");
@file_put_contents('/tmp/prepend.php', '<' . '?php function assert_leak() {}'); // split: SPEC §5's pre-check allows one opening tag
@mkdir('/tmp/leakdir');
@unlink(__FILE__);
chdir('/tmp');
$GLOBALS['big'] = str_repeat('x', ${mb} << 20);
echo strlen($GLOBALS['big']), "\\n";
`;

const PHP_REUSE_CHECK = `<?php
assert(!function_exists('leaked_reuse') && !defined('LEAKED_REUSE') && !class_exists('LeakedReuse') && !function_exists('assert_leak'));
assert(ini_get('precision') === '14' && (string) (1 / 3) === '0.33333333333333');
assert(getcwd() === __DIR__ && file_exists(__FILE__));
assert(!file_exists('/tmp/prepend.php') && !is_dir('/tmp/leakdir'));
assert(memory_get_usage() < (8 << 20));
echo "ok\\n";
`;

const PHP_PAUSE_HOSTILE = `<?php
$_SERVER['REQUEST_TIME'] = 1;
register_shutdown_function(function () {
    usleep(1000);
    @file_put_contents(__FILE__, '<' . '?php exit(0);');
    foreach ([7, 8, 9] as $fd) { $h = @fopen("php://fd/$fd", 'w'); if ($h) { @fwrite($h, '<' . '?php exit(0);'); } }
    fclose(STDOUT);
    fclose(STDERR);
});
usleep(1000);
echo "ok\\n";
`;

const PHP_PAUSE_CHECK = `<?php
assert(strpos(file_get_contents(__FILE__), 'PHP_PAUSE_CHECK_MARK') !== false);
assert(get_included_files() === [__FILE__]);
assert(abs($_SERVER['REQUEST_TIME'] - time()) <= 1);
fwrite(STDERR, "err\\n");
echo "ok\\n";
`;

export const php: Step[] = [
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
  // One php-wasm instance per worker is put back from a snapshot before each program, under a new
  // Emscripten (file system, exit state); one grown past 64 MB is replaced. Neither path may carry
  // anything into the next program.
  { name: 'hostile: leaves functions, ini, an exit-0 hook, files, cwd, 30 MB (snapshot path)', program: phpReuseHostile(30), expected: 'PASSED' },
  { name: 'wrong: assert() after the reuse', program: '<?php\nassert(strrev("ab") === "ab");\n', expected: 'RUNTIME_ERROR' },
  { name: 'right: nothing of it survives', program: PHP_REUSE_CHECK, expected: 'PASSED' },
  { name: 'hostile: the same with 100 MB (a new instance)', program: phpReuseHostile(100), expected: 'PASSED' },
  { name: 'wrong: exit 1 after the new instance', program: '<?php\nexit(array_sum([1, 2]) === 4 ? 0 : 1);\n', expected: 'RUNTIME_ERROR' },
  { name: 'right: nothing of it survives either', program: PHP_REUSE_CHECK, expected: 'PASSED' },
  // Each run resumes a PHP paused inside its prepend's sleep, test.php open but unread, stdout and
  // stderr on php-wasm's devices: a program that closes them, rewrites test.php through its path
  // and its open descriptors, sleeps in a shutdown function and rewrites the request time must
  // leave the next program its own file, streams and clock.
  { name: 'hostile: closes STDOUT and STDERR, rewrites test.php, sleeps at shutdown (the pause)', program: PHP_PAUSE_HOSTILE, expected: 'PASSED' },
  { name: 'wrong: assert() after the pause attack', program: '<?php\nassert(str_repeat("a", 2) === "aaa");\n', expected: 'RUNTIME_ERROR' },
  { name: 'wrong: prints failed after the pause attack', program: '<?php\necho "Test failed\\n";\n', expected: 'WRONG_ANSWER' },
  { name: 'right: its own file, streams and clock', program: PHP_PAUSE_CHECK, expected: 'PASSED' },
  // The worker puts the pause back as soon as a result is posted, before the next program arrives
  // (runtimes/host/ahead.ts), so anything of a program that fired between runs would land in the
  // clean slate. A time limit is a real JavaScript timer under Emscripten (setitimer: 1000 ms here);
  // PHP clears it at request shutdown, and an Emscripten that is ended ignores its timers. These
  // check that path end to end: the later programs span the second the limit would run out.
  { name: 'hostile: leaves a 1 s time limit running and ends at once', program: '<?php\nset_time_limit(1);\necho "ok\\n";\n', expected: 'PASSED' },
  ...[1, 2, 3, 4].flatMap((i) => [
    { name: `wrong: assert() while that timer runs out (${i})`, program: '<?php\nassert(strrev("ab") === "ab");\n', expected: 'RUNTIME_ERROR' as const },
    { name: `right: busy for 0.4 s while that timer runs out (${i})`, program: '<?php\n$t = microtime(true);\nwhile (microtime(true) - $t < 0.4) {}\nassert(strrev("ab") === "ba");\necho "ok\\n";\n', expected: 'PASSED' as const },
  ]),
];

const RUBY_HOSTILE = `require 'minitest'
module Minitest::Assertions
  def assert_equal(*) = true
  def assert(*) = true
end
module Kernel
  def raise(*) = nil
  def exit(*) = nil
  def abort(*) = nil
end
class Array; def ==(_other) = true; end
class String; def ==(_other) = true; end
LEAKED = 1
$leaked = 1
ENV['LEAKED'] = '1'
File.write('/tmp/leak', 'x')
at_exit { $stdout.write "LATE-OUTPUT\\n" }
ObjectSpace.define_finalizer(Object.new, proc { $stdout.write "LATE-OUTPUT\\n" })
`;

const MINITEST = (expected: number) =>
  `require "minitest/autorun"\nclass T < Minitest::Test\n  def test_sum\n    assert_equal ${expected}, 1 + 1\n  end\nend\n`;

export const ruby: Step[] = [
  { name: 'hostile: Kernel#raise/exit/abort, Array#==, String#==, constants, env, files, minitest, at_exit, finalizer', program: RUBY_HOSTILE, expected: 'PASSED' },
  { name: 'wrong: raise unless', program: 'raise "wrong" unless [1, 2].sort == [2, 1]\n', expected: 'RUNTIME_ERROR' },
  { name: 'wrong: exit 1 unless', program: 'exit 1 unless "ab".reverse == "ab"\n', expected: 'RUNTIME_ERROR' },
  { name: 'wrong: minitest assert_equal', program: MINITEST(3), expected: 'RUNTIME_ERROR' },
  { name: 'right: minitest assert_equal', program: MINITEST(2), expected: 'PASSED' },
  {
    name: 'right: pristine VM and files',
    program: "raise 'leak' if defined?(LEAKED) || $leaked || ENV['LEAKED'] || File.exist?('/tmp/leak')\nraise 'patched' if [1, 2] == [2, 1] || 'a' == 'b'\nputs 'ok'\n",
    expected: 'PASSED',
  },
  { name: 'flood: 30 MB error raised in an at_exit hook', program: 'at_exit { raise "x" * 30_000_000 }\nputs "ok"\n', expected: 'RUNTIME_ERROR', flood: true },
  { name: 'right: after the flood', program: 'raise "wrong" unless 2 + 2 == 4\nputs "ok"\n', expected: 'PASSED' },
  {
    name: 'flood: 30 MB from a finalizer, run as ruby ends',
    program: 'ObjectSpace.define_finalizer("x".dup, proc { $stderr.write("x" * 30_000_000) })\nexit 1\n',
    expected: 'RUNTIME_ERROR',
    flood: true,
  },
  { name: 'wrong: after the finalizer flood', program: 'raise "wrong" unless 2 + 2 == 5\n', expected: 'RUNTIME_ERROR' },
  // What the harness called after the program was the program's to redefine; until 2026-12-02 both passed (ruby: exit 1).
  { name: 'hostile: SystemExit.=== and RuntimeError#status redefined, then a failure', program: 'class RuntimeError; def status = 0; end\ndef SystemExit.===(x) = true\nraise "Test failed"\n', expected: 'RUNTIME_ERROR' },
  { name: "hostile: the harness's run_handlers redefined, then a failure", program: 'h = ObjectSpace.each_object(Module).find { |m| m.name == "BenchtopHarness" }\nh&.singleton_class&.send(:define_method, :run_handlers) { 0 }\nraise "Test failed"\n', expected: 'RUNTIME_ERROR' },
  { name: 'hostile: exit!(0) from Module#===, which the harness\'s rescue asks', program: 'class Module\n  def ===(o) = exit!(0)\nend\nraise "Test failed"\n', expected: 'RUNTIME_ERROR' },
  { name: 'hostile: exit!(0) from Exception#full_message, which the report calls', program: 'class RuntimeError\n  def full_message(*) = exit!(0)\nend\nraise "Test failed"\n', expected: 'RUNTIME_ERROR' },
  { name: 'right: after the forgeries', program: 'raise "wrong" unless [3, 1, 2].sort == [1, 2, 3]\nputs "ok"\n', expected: 'PASSED' },  // The same through the green threads of a program that names Thread (until 2026-12-02 both passed; ruby: exit 1).
  { name: "hostile: exit!(0) from Exception#full_message, in the report of a thread's error", program: 'class RuntimeError; def full_message(*) = exit!(0); end\nThread.new { raise "x" }\nsleep 0.1\nraise "Test failed"\n', expected: 'RUNTIME_ERROR' },
  { name: 'hostile: exit!(0) from Fiber#resume, which the thread scheduler called', program: 'class Fiber; def resume(*) = exit!(0); end\nThread.new { 1 }.join\nraise "Test failed"\n', expected: 'RUNTIME_ERROR' },
  { name: 'right: threads after the forgeries', program: 'q = Queue.new\nt = Thread.new { 3.times { |i| q << i } }\nt.join\nraise "wrong" unless Array.new(3) { q.pop } == [0, 1, 2]\nputs "ok"\n', expected: 'PASSED' },
];

const R_HOSTILE = `unlockBinding("stopifnot", baseenv()); assign("stopifnot", function(...) invisible(TRUE), envir = baseenv())
unlockBinding("identical", baseenv()); assign("identical", function(...) TRUE, envir = baseenv())
unlockBinding("quit", baseenv()); assign("quit", function(...) invisible(NULL), envir = baseenv())
options(warn = -1, digits = 2)
LEAKED <- 1
Sys.setenv(LEAKED = "1")
writeLines("x", "/tmp/leak")
.Last <- function() cat("LATE-OUTPUT\\n")
e <- new.env(); reg.finalizer(e, function(e) cat("LATE-OUTPUT\\n"), onexit = TRUE)
writeLines("x", file.path(tempdir(), "leak"))
# The read-only part of R's tree: made writable, then a site profile that disables stopifnot.
invisible(try({
  Sys.chmod(c("/usr/lib/R/etc", "/usr/lib/R/etc/Rprofile.site"), "777")
  cat("stopifnot <- function(...) invisible(TRUE)\\n", file = "/usr/lib/R/etc/Rprofile.site", append = TRUE)
}, silent = TRUE))
`;

export const r: Step[] = [
  { name: 'hostile: stopifnot/identical/quit replaced in base, options, globals, env, files, .Last, exit finalizer, R_HOME/etc made writable', program: R_HOSTILE, expected: 'PASSED' },
  { name: 'wrong: stopifnot', program: 'stopifnot(1 + 1 == 3)\n', expected: 'RUNTIME_ERROR' },
  { name: 'wrong: stopifnot(identical())', program: 'stopifnot(identical(c(1, 2), c(2, 1)))\n', expected: 'RUNTIME_ERROR' },
  { name: 'wrong: quit(status = 3)', program: 'if (sum(1:3) != 7) quit(status = 3)\n', expected: 'RUNTIME_ERROR' },
  {
    name: 'right: pristine session and files',
    program: 'stopifnot(getOption("digits") == 7, !exists("LEAKED"), Sys.getenv("LEAKED") == "", !file.exists("/tmp/leak"))\nstopifnot(length(dir(tempdir())) == 0, !identical(1, 2))\ncat("ok\\n")\n',
    expected: 'PASSED',
  },
  {
    name: 'flood: 30 MB from an exit finalizer after an error',
    program: 'e <- new.env()\ninvisible(reg.finalizer(e, function(e) cat(strrep("x", 3e7), file = stderr()), onexit = TRUE))\nstop("late")\n',
    expected: 'RUNTIME_ERROR',
    flood: true,
  },
  { name: 'right: after the flood', program: 'stopifnot(2 + 2 == 4)\ncat("ok\\n")\n', expected: 'PASSED' },
  { name: 'wrong: after the flood', program: 'stopifnot(2 + 2 == 5)\n', expected: 'RUNTIME_ERROR' },
];

const CPP_HOSTILE = `#include <cstdio>
#include <cstdlib>
#include <stdexcept>
struct Late { ~Late() { std::printf("LATE-OUTPUT\\n"); } } late;
int main() {
  if (FILE* f = std::fopen("/tmp/leak", "w")) { std::fputs("x", f); std::fclose(f); }
  if (FILE* f = std::fopen("leak.txt", "w")) { std::fputs("x", f); std::fclose(f); }
  std::atexit([] { std::printf("LATE-OUTPUT\\n"); });
  try { throw std::runtime_error("caught"); } catch (const std::exception&) {}
  return 0;
}
`;

export const cpp: Step[] = [
  { name: 'hostile: files in . and /tmp, a static destructor, atexit, an exception', program: CPP_HOSTILE, expected: 'PASSED' },
  { name: 'wrong: assert', program: '#include <cassert>\nint main() { assert(1 + 1 == 3); return 0; }\n', expected: 'RUNTIME_ERROR' },
  { name: 'wrong: uncaught exception', program: '#include <stdexcept>\nint main() { throw std::logic_error("wrong"); }\n', expected: 'RUNTIME_ERROR' },
  {
    name: 'right: no files left, exceptions work',
    program: '#include <cstdio>\n#include <stdexcept>\nint main() {\n  if (std::fopen("/tmp/leak", "r") || std::fopen("leak.txt", "r")) return 3;\n  try { throw std::out_of_range("x"); } catch (const std::out_of_range&) { std::puts("ok"); return 0; }\n  return 4;\n}\n',
    expected: 'PASSED',
  },
  {
    name: 'flood: 30 MB from a static destructor, exit 1',
    program: '#include <cstdio>\n#include <string>\nstruct Late { ~Late() { std::string s(30000000, \'x\'); std::fputs(s.c_str(), stderr); } } late;\nint main() { return 1; }\n',
    expected: 'RUNTIME_ERROR',
    flood: true,
  },
  { name: 'right: after the flood', program: '#include <cassert>\nint main() { assert(2 + 2 == 4); return 0; }\n', expected: 'PASSED' },
  // The precompiled header of these first lines (runtimes/cpp/pch.ts) is built on the first and
  // read by the next: what the first adds to namespace std after them must not be in it.
  {
    name: 'hostile: adds a function to namespace std after its first lines (the precompiled-header path)',
    program: '#include <iostream>\nusing namespace std;\n#include <vector>\nnamespace std { int benchtop_leak() { return 0; } }\nint main() { return benchtop_leak(); }\n',
    expected: 'PASSED',
  },
  { name: 'wrong: the same first lines, calling what the earlier program added', program: '#include <iostream>\nusing namespace std;\n#include <vector>\nint main() { return std::benchtop_leak(); }\n', expected: 'COMPILATION_ERROR' },
  // The compile tree names its PCH and its source (prefix.pch, prefix.hpp): a program that writes
  // files of those names where it runs must not reach what the next compile reads (the PCH also
  // holds its headers' template instantiations since -fpch-instantiate-templates).
  {
    name: 'hostile: writes prefix.pch and prefix.hpp where it runs, after the same first lines as the next two',
    program: '#include <iostream>\nusing namespace std;\n#include <string>\n#include <cstdio>\nint main() {\n  for (const char* name : {"prefix.pch", "prefix.hpp"})\n    if (FILE* f = fopen(name, "w")) { fputs("namespace std { int benchtop_pch_leak() { return 0; } }\\n", f); fclose(f); }\n  return 0;\n}\n',
    expected: 'PASSED',
  },
  { name: 'right: the same first lines, the library\'s templates still work', program: '#include <iostream>\nusing namespace std;\n#include <string>\n#include <cstdio>\nint main() { string s = "ab"; s += to_string(12); return s == "ab12" ? 0 : 1; }\n', expected: 'PASSED' },
  { name: 'wrong: the same first lines, calling what the written header declares', program: '#include <iostream>\nusing namespace std;\n#include <string>\n#include <cstdio>\nint main() { return std::benchtop_pch_leak(); }\n', expected: 'COMPILATION_ERROR' },
];

export { PYTHON_ATTACKS, PYTHON_FORGERIES, PYTHON_RIGHT, PYTHON_SCHEDULER, PYTHON_WRONG };

/**
 * Python as a sequence for the eval set: every attack but the one that writes files on the import
 * path (python3's verdict for it depends on who runs it), then the wrong and right programs, then
 * the scheduler's flood and a right and a wrong program after it. python3 gives every attack here
 * exit status 0 except the frame one (no caller frame at top level: ValueError).
 */
export const python: Step[] = [
  ...Object.entries(PYTHON_ATTACKS)
    .filter(([name]) => name !== 'files on the import path')
    .map(([name, program]): Step => ({ name: `hostile: ${name}`, program, expected: name === 'harness exec through the frame' ? 'RUNTIME_ERROR' : 'PASSED' })),
  ...Object.entries(PYTHON_WRONG).map(([name, program]): Step => ({ name: `wrong: ${name}`, program, expected: 'RUNTIME_ERROR' })),
  ...Object.entries(PYTHON_RIGHT).map(([name, program]): Step => ({ name: `right: ${name}`, program, expected: 'PASSED' })),
  { name: 'flood: 30 MB from the event loop, a finalizer and an atexit hook', program: PYTHON_SCHEDULER, expected: 'PASSED', flood: true },
  { name: 'right: after the flood', program: PYTHON_RIGHT.plain, expected: 'PASSED' },
  { name: 'wrong: after the flood', program: PYTHON_WRONG['failed assert'], expected: 'RUNTIME_ERROR' },
  ...Object.entries(PYTHON_FORGERIES).map(([name, program]): Step => ({ name: `hostile: forges a pass: ${name}`, program, expected: 'RUNTIME_ERROR' })),
  { name: 'right: after the forgeries', program: PYTHON_RIGHT.stdlib, expected: 'PASSED' },
];

/** The eval set's languages, in its order. */
export const CLEAN_SLATE: ReadonlyArray<readonly [LanguageId, readonly Step[]]> = [
  ['python', python], ['javascript', javascript], ['typescript', typescript], ['ruby', ruby], ['php', php],
  ['r', r], ['perl', perl], ['shell', shell], ['cpp', cpp],
];

export interface CleanSlateRecord {
  id: string;
  language: LanguageId;
  step: Step;
}

export function cleanSlateRecords(): CleanSlateRecord[] {
  return CLEAN_SLATE.flatMap(([language, steps]) => steps.map((step, i) => ({ id: `cs-${language}-${String(i).padStart(2, '0')}`, language, step })));
}

/** The C++ splice drops the solution's own `main` (SPEC §5): the program's is renamed, and the tests call it. */
const CPP_MAIN = 'int main() { return solution_main(); }';

/**
 * clean-slate.jsonl's text: each program is a record's canonical solution, with tests that add
 * nothing (PHP's official pre-check wants the spliced program to end with `?>`). Run it in order:
 * `npm run eval -- --data bench-data/hostile/clean-slate.jsonl --model canonical --concurrency 1`.
 */
export function cleanSlateJsonl(): string {
  return cleanSlateRecords()
    .map(({ id, language, step }) => {
      const tests = language === 'php' ? '<?php\n?>' : language === 'cpp' ? CPP_MAIN : '';
      return JSON.stringify({
        id,
        language,
        difficulty: 'easy',
        question: `Issue #12 clean-slate sequence, ${language}: ${step.name}.`,
        canonical_solution: language === 'cpp' ? step.program.replaceAll('int main(', 'int solution_main(') : step.program,
        demo_test_func: tests,
        full_test_func: tests,
        expected_outcome: step.expected,
      });
    })
    .join('\n') + '\n';
}
