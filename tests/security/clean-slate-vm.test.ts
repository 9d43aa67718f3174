/**
 * Issue #12, findings 2 and 5, for Ruby (ruby.wasm), R (webR) and C++ (clang in WebAssembly):
 * as clean-slate.test.ts, in ONE worker per language. Ruby starts every program in a new instance
 * from a memory snapshot; R puts its snapshot back after each program (a verified restore, or a new
 * R); C++ compiles and runs each program in new instances, so the hostile program here tries what
 * a compiled program can reach: its files, exit hooks and the exception runtime.
 * Expected outcomes: SPEC §4 applied to what `ruby`, `Rscript` and `g++ && ./test` do (checked
 * while writing them; the official Ruby 3.0 has minitest as a bundled gem).
 */
import { afterAll, describe, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { expectCleanSlate, type Step } from './sequence';

const executor = createNodeExecutor({ poolSize: 1 });
afterAll(() => executor.dispose());

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

const ruby: Step[] = [
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

const r: Step[] = [
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

const cpp: Step[] = [
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
];

describe('a clean slate for every program, in one worker (issue #12, findings 2 and 5)', () => {
  it('ruby', () => expectCleanSlate(executor, 'ruby', ruby), 300_000);
  it('r', () => expectCleanSlate(executor, 'r', r), 300_000);
  it('cpp', () => expectCleanSlate(executor, 'cpp', cpp), 600_000);
});
