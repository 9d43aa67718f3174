/**
 * The Ruby runtime (ruby.wasm on a JavaScript WASI), loaded directly with its file from
 * node_modules as a worker gets it: exit codes, stderr, syntax errors, isolation, UTF-8, the test
 * styles seen in Ruby problems and the demo problems (the official cases: conformance.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRubyRuntime, RUBY_WASM_FILE } from '../../runtimes/ruby/rubywasm';
import type { LanguageRuntime } from '../../src/contracts';
import { parseDataset } from '../../src/core/records';
import { judgeRun, spliceProgram } from '../../src/core/rules';

const require = createRequire(import.meta.url);
const wasmPath = require.resolve('@ruby/3.4-wasm-wasi/dist/ruby+stdlib.wasm');

let ruby: LanguageRuntime;
let loadMs = 0;
beforeAll(async () => {
  const bytes = readFileSync(wasmPath);
  const started = performance.now();
  ruby = await createRubyRuntime({ files: { [RUBY_WASM_FILE]: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer } });
  loadMs = performance.now() - started;
  console.log(`ruby: loaded in ${Math.round(loadMs)} ms (${(bytes.byteLength / 2 ** 20).toFixed(1)} MB wasm): ${ruby.description}`);
});

const run = (program: string) => ruby.run(program, 30_000);

describe('ruby (ruby.wasm)', () => {
  it('names itself with the package and CRuby versions', () => {
    const pkg = JSON.parse(readFileSync(join(dirname(wasmPath), '..', 'package.json'), 'utf8')) as { version: string };
    expect(ruby.description).toMatch(new RegExp(`^ruby\\.wasm ${pkg.version.replace(/\./g, '\\.')} \\(CRuby 3\\.4\\.\\d+\\)$`));
  });

  it('runs a passing program: stdout exactly, exit 0, as test.rb in /workdir', async () => {
    const r = await run('puts "a 1"\nprint "no newline"\n$stderr.puts "err"\nSTDOUT.flush\np [__FILE__, $0, Dir.pwd, ARGV] if __FILE__ == $0');
    expect(r).toMatchObject({ exitCode: 0, stdout: 'a 1\nno newline["test.rb", "test.rb", "/workdir", []]\n', stderr: 'err\n', timedOut: false });
    expect(judgeRun('ruby', r)).toBe('PASSED');
  });

  it('reports a failed `raise … unless` like ruby: exit 1, "test.rb:LINE:in …: message (RuntimeError)"', async () => {
    const r = await run('def test_it\n  raise "Test 2 failed" unless 1 + 1 == 3\nend\n\ntest_it');
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("test.rb:2:in 'Object#test_it': Test 2 failed (RuntimeError)\n\tfrom test.rb:5:in '<main>'\n");
    expect(judgeRun('ruby', r)).not.toBe('PASSED');
  });

  it('reports a syntax error on stderr with a non-zero exit', async () => {
    const r = await run('def broken(\n  puts 1\n');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^test\.rb: /);
    expect(r.stderr).toContain('syntax errors found (SyntaxError)');
    expect(r.stdout).toBe('');
  });

  it('follows exit, exit!, abort and uncaught exceptions', async () => {
    expect((await run('puts "before"\nexit 3\nputs "after"'))).toMatchObject({ exitCode: 3, stdout: 'before\n', stderr: '' });
    expect((await run('exit'))).toMatchObject({ exitCode: 0 });
    expect((await run('exit false'))).toMatchObject({ exitCode: 1 });
    expect((await run('exit!(4)'))).toMatchObject({ exitCode: 4 });
    expect((await run('abort("x")'))).toMatchObject({ exitCode: 1, stdout: '', stderr: 'x\n' });
    const r = await run('{}.fetch(:missing)');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("key not found: :missing (KeyError)");
    const deep = await run('def f(n) = f(n + 1)\nf(0)');
    expect(deep.exitCode).toBe(1);
    expect(deep.stderr).toContain('stack level too deep (SystemStackError)');
  });

  // The harness runs in the program's VM: what decides the status after the program must not be
  // what the program can redefine. Expected: ruby 3.1.2 on this machine exits 1 for each.
  it('a failing program cannot forge exit 0 through the harness', async () => {
    const forged = {
      'SystemExit.=== and RuntimeError#status': 'class RuntimeError; def status = 0; end\ndef SystemExit.===(x) = true\nraise "Test failed"\n',
      "the harness's own methods": 'h = ObjectSpace.each_object(Module).find { |m| m.name == "BenchtopHarness" }\nh&.singleton_class&.send(:define_method, :run_handlers) { 0 }\nraise "Test failed"\n',
      'Proc#call, with an at_exit handler': 'at_exit { puts "bye" }\nclass Proc\n  def call(*) = exit(0)\nend\nraise "Test failed"\n',
      'SystemExit#status': 'class SystemExit\n  def status = 0\nend\nexit 1\n',
      'UnboundMethod#bind_call': 'class UnboundMethod\n  def bind_call(*) = 0\nend\nraise "Test failed"\n',
      // (The harness's report calls full_message; ruby's own report does not.)
      'exit! from Exception#full_message': 'class RuntimeError\n  def full_message(*) = exit!(0)\nend\nraise "Test failed"\n',
      'exit! from String#start_with?, used to trim the backtrace': 'class String\n  def start_with?(*) = exit!(0)\nend\nraise "Test failed"\n',
      'exit! from Hash#[], which the harness used after the program': 'class Hash\n  def [](k) = exit!(0)\nend\nraise "Test failed"\n',
      "exit! from the report of an at_exit handler's error": 'at_exit { raise "late" }\nclass RuntimeError\n  def full_message(*) = exit!(0)\nend\nraise "Test failed"\n',
      // (The harness's rescue asks Exception.===; ruby's own exit does not.)
      'exit! from Module#===': 'class Module\n  def ===(o) = exit!(0)\nend\nraise "Test failed"\n',
      // A TracePoint sets the status local of the harness through its frame's binding.
      'a TracePoint on the harness': 'TracePoint.new(:line) { |tp| tp.binding.local_variable_set(:status, 0) if tp.path.start_with?("/benchtop/") && tp.binding.local_variable_defined?(:status) }.enable\nraise "Test failed"\n',
    };
    for (const [name, program] of Object.entries(forged)) {
      const r = await run(program);
      expect(r.exitCode, name).toBe(1);
      expect(judgeRun('ruby', r), name).toBe('RUNTIME_ERROR');
    }
  });

  it('a failing program that uses Thread cannot forge exit 0 through the green-thread scheduler or its report', async () => {
    // ruby 3.1.2 exits 1 for each (its scheduler and thread report are C); here each once reached exit!(0).
    const forged = {
      "exit! from the report of a thread's error (Exception#full_message)": 'class RuntimeError; def full_message(*) = exit!(0); end\nThread.new { raise "x" }\nsleep 0.1\nraise "Test failed"\n',
      'exit! from Fiber#resume': 'class Fiber; def resume(*) = exit!(0); end\nThread.new { 1 }.join\nraise "Test failed"\n',
      'exit! from Proc#call': 'class Proc; def call(*) = exit!(0); end\nThread.new { 1 }.join\nraise "Test failed"\n',
      'exit! from Kernel#sleep (the root fiber waits)': 'module Kernel; def sleep(*) = exit!(0); end\nm = Mutex.new\ncv = ConditionVariable.new\nThread.new { m.synchronize { cv.wait(m, 0.01) } }.join\nraise "Test failed"\n',
      'exit! from Float#- (timers)': 'class Float; def -(o) = exit!(0); end\nThread.new { sleep 0.01 }.join\nraise "Test failed"\n',
      'exit! from Fiber#initialize': 'class Fiber; def initialize(*) = exit!(0); end\nThread.new { 1 }.join\nraise "Test failed"\n',
      "exit! from Object#object_id (the thread's name in the report)": 'class Object; def object_id = exit!(0); end\nThread.new { raise "x" }\nThread.pass\nraise "Test failed"\n',
      // (3.4's full_message calls detailed_message; 3.1's report does not.)
      'exit! from Exception#detailed_message (the report)': 'class RuntimeError; def detailed_message(*) = exit!(0); end\nThread.new { raise "x" }\nThread.pass\nraise "Test failed"\n',
      'exit! from Method#call (the report)': 'class Method; def call(*) = exit!(0); end\nThread.new { raise "x" }\nThread.pass\nraise "Test failed"\n',
    };
    for (const [name, program] of Object.entries(forged)) {
      const r = await run(program);
      expect(r.exitCode, name).toBe(1);
      expect(judgeRun('ruby', r), name).toBe('RUNTIME_ERROR');
      expect(r.stderr, name).toContain("'<main>': Test failed (RuntimeError)"); // (it got that far)
    }
  });

  it('runs at_exit handlers after the program, newest first, with $! set, and their exit decides', async () => {
    const r = await run('at_exit { puts "first"; p $!.class }\nat_exit { puts "second" }\nraise ArgumentError, "bad"');
    expect(r.stdout).toBe('second\nfirst\nArgumentError\n');
    expect(r.stderr).toContain('bad (ArgumentError)');
    expect(r.exitCode).toBe(1);
    expect((await run('at_exit { exit 7 }\nputs 1')).exitCode).toBe(7);
  });

  it('keeps no state between programs: globals, methods, constants, core patches, files, random seed', async () => {
    const first = await run([
      '$leaked = 1', 'LEAKED = 2', 'def helper = 3', 'class String; def shout = upcase; end', 'class Integer; def +(o) = 42; end',
      'File.write("left.txt", "x")', 'File.write("/tmp/left.txt", "x")', 'require "json"', 'puts rand(1_000_000)',
    ].join('\n'));
    expect(first.exitCode).toBe(0);
    const second = await run([
      'p [$leaked, defined?(LEAKED), respond_to?(:helper, true), "a".respond_to?(:shout), 1 + 1]',
      'p [File.exist?("left.txt"), File.exist?("/tmp/left.txt"), defined?(JSON)]', 'puts rand(1_000_000)',
    ].join('\n'));
    expect(second.stdout.split('\n').slice(0, 2)).toEqual(['[nil, nil, false, false, 2]', '[false, false, nil]']);
    expect(second.stdout.split('\n')[2]).not.toBe(first.stdout.trim()); // each run gets its own seed
  });

  it('writes UTF-8 output (é, 漢字) and reads UTF-8 source', async () => {
    const r = await run('s = "é漢字"\nputs s, s.length, s.bytesize, s.encoding\n$stderr.puts "ü"');
    expect(r).toMatchObject({ exitCode: 0, stdout: 'é漢字\n3\n8\nUTF-8\n', stderr: 'ü\n' });
  });

  it('has the standard library, default and bundled gems (set, json, date, prime, csv, tempfile …)', async () => {
    const r = await run([
      'require "set"', 'require "json"', 'require "date"', 'require "prime"', 'require "csv"', 'require "ostruct"', 'require "digest"',
      'require "tempfile"', 'p Set[1, 2].size, JSON.parse(\'{"a":[1]}\'), Date.new(2024, 2, 29).yday, Prime.first(3)',
      'p CSV.parse_line("a,b"), OpenStruct.new(x: 1).x, Digest::MD5.hexdigest("a")',
      'Tempfile.create("t") { |f| f.write("hi"); f.flush; p File.read(f.path) }',
    ].join('\n'));
    expect(r.stderr).toBe('');
    expect(r).toMatchObject({ exitCode: 0, stdout: '2\n{"a"=>[1]}\n60\n[2, 3, 5]\n["a", "b"]\n1\n"0cc175b9c0f1b6a831c399e269772661"\n"hi"\n' });
  });

  it('behaves like the official Ruby 3.0 where 3.4 changed what a program sees', async () => {
    const r = await run([
      'h = {"a" => 1, b: [2, {c: nil}]}', 'p h', 'puts h.to_s', 'h[:me] = h', 'p h', 'pp({x: 1})',
      'P = Struct.new(:x, :y)', 'p P.new(x: 1, y: 2).x, P.new(1, 2).y, Struct.new(:x, keyword_init: true).new(x: 5).x',
      'p File.exists?("test.rb"), Dir.exists?("/tmp"), 1.is_a?(Fixnum), Random::DEFAULT, "s".tainted?, Object.new =~ 1',
      'begin; Set.new; rescue NameError => e; puts e.message; end', 'require "set"', 'p Set[1].size',
    ].join('\n'));
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe([
      '{"a"=>1, :b=>[2, {:c=>nil}]}', '{"a"=>1, :b=>[2, {:c=>nil}]}', '{"a"=>1, :b=>[2, {:c=>nil}], :me=>{...}}', '{:x=>1}',
      '{:x=>1, :y=>2}', '2', '5', 'true', 'true', 'true', 'Random', 'false', 'nil', 'uninitialized constant Set', '1', '',
    ].join('\n'));
  });

  it('declines programs requiring bigdecimal (a default gem in the official Ruby 3.0; a C extension this build leaves out: docs/fidelity.md)', async () => {
    // Native ruby runs it (the official 3.0 as well): a LoadError here would be a wrong verdict.
    const program = 'require "bigdecimal"\nrequire "bigdecimal/util"\nputs (BigDecimal("0.1") + "0.2".to_d).to_s("F")';
    expect(execFileSync('ruby', ['-e', program], { encoding: 'utf8' })).toBe('0.3\n');
    const r = await run(program);
    expect(r.declined).toMatch(/bigdecimal/);
    expect([r.exitCode, r.stdout]).toEqual([null, '']);
    // Without such a require the program runs (a mention in a string is not a require).
    expect((await run('puts "require bigdecimal"')).stdout).toBe('require bigdecimal\n');
  });

  it('runs minitest (also parallelize_me!) and test-unit tests without threads', async () => {
    const minitest = await run([
      'require "minitest/autorun"', 'class T < Minitest::Test', '  parallelize_me!', '  def test_ok = assert_equal(2, 1 + 1)',
      '  def test_bad = assert_equal(3, 1 + 1)', 'end',
    ].join('\n'));
    expect(minitest.exitCode).toBe(1);
    expect(minitest.stdout).toContain('2 runs, 2 assertions, 1 failures, 0 errors, 0 skips');
    const passing = await run('require "minitest/autorun"\nclass T < Minitest::Test\n  def test_ok = assert(true)\nend');
    expect(passing.exitCode).toBe(0);
    expect(passing.stdout).toContain('1 runs, 1 assertions, 0 failures, 0 errors, 0 skips');
    const unit = await run('require "test/unit"\nclass T < Test::Unit::TestCase\n  def test_bad = assert_equal(3, 1 + 1)\nend');
    expect(unit.exitCode).toBe(1);
    expect(unit.stdout).toContain('1 tests, 1 assertions, 1 failures, 0 errors');
  });

  it('runs threads as green threads: Queue, SizedQueue, Mutex, ConditionVariable, join/value, errors, deadlock', async () => {
    const r = await run([
      'q = Queue.new',
      'consumer = Thread.new { r = []; while (x = q.pop) != :done; r << x; end; r }',
      'producer = Thread.new { 3.times { |i| q << i; sleep 0.001 }; q << :done }',
      'producer.join', 'p consumer.value',
      'm = Mutex.new', 'count = 0',
      'ts = 5.times.map { Thread.new { 50.times { m.synchronize { c = count; Thread.pass; count = c + 1 } } } }',
      'ts.each(&:join)', 'p count',
      'cv = ConditionVariable.new', 'ready = false',
      'waiter = Thread.new { m.synchronize { cv.wait(m) until ready; :woke } }',
      'Thread.new { sleep 0.01; m.synchronize { ready = true; cv.signal } }', 'p waiter.value',
      'sq = SizedQueue.new(1)', 'Thread.new { 3.times { |i| sq.push(i) }; sq.push(nil) }',
      'got = []', 'while (v = sq.pop); got << v; end', 'p got',
      'p [1, 2].map { |i| Thread.new(i) { |j| j * 10 } }.map(&:value)',
      't = Thread.new { raise ArgumentError, "in thread" }',
      'begin; t.join; rescue => e; p e.message; end',
      'def depth(n) = n.zero? ? 0 : 1 + depth(n - 1)', 'p Thread.new { depth(5000) }.value',
    ].join('\n'));
    expect(r.stdout).toBe('[0, 1, 2]\n250\n:woke\n[0, 1, 2]\n[10, 20]\n"in thread"\n5000\n');
    expect(r.stderr).toMatch(/^#<Thread:0x[0-9a-f]+ test\.rb:\d+ run> terminated with exception \(report_on_exception is true\):\ntest\.rb:\d+:in 'block in <main>': in thread \(ArgumentError\)/);
    expect(r.exitCode).toBe(0);
    const deadlock = await run('t = Thread.new { Queue.new.pop }\nt.join');
    expect(deadlock.exitCode).toBe(1);
    expect(deadlock.stderr).toContain('No live threads left. Deadlock? (fatal)');
  });

  it('runs Timeout.timeout blocks (no watcher thread) and refuses the JavaScript bridge', async () => {
    expect(await run('require "timeout"\nputs Timeout.timeout(1) { :ok }')).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
    const js = await run('require "js"\np JS.global[:process]');
    expect(js.exitCode).toBe(1);
    expect(js.stderr).toContain('JavaScript bridge');
    expect(js.stdout).toBe('');
  });

  it('starts each run quickly from the snapshot', async () => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await run('puts 1');
      expect(r.stdout).toBe('1\n');
      times.push(r.durationMs);
    }
    times.sort((a, b) => a - b);
    console.log(`ruby: load ${Math.round(loadMs)} ms, "puts 1" median ${Math.round(times[2]!)} ms`);
    expect(times[2]).toBeLessThan(1000);
  });

  // One instance serves every run, put back to its snapshot before each (rubywasm.ts): after any
  // program, a probe must see exactly what it saw before it, down to the address of a new object
  // and the garbage collector's counters (a partial restore would move them). Compared within this
  // one runtime: two runtimes need not lay their memory out alike (ruby reads random bytes as it
  // boots, for its hash seeds), and in one run of this file the addresses differed.
  it('puts the VM back exactly: after any program, a probe prints what it printed before', async () => {
    const probe = 'o = Object.new\nputs o.inspect, o.object_id, GC.count, GC.stat(:total_allocated_objects), Symbol.all_symbols.size, $LOADED_FEATURES.size, ENV.to_h.size, Dir.pwd, ObjectSpace.each_object(Class).count\n';
    const expected = (await run(probe)).stdout;
    expect(expected).toMatch(/^#<Object:0x[0-9a-f]+>\n/);
    const programs = [
      '$x = "a" * 1000; Object.const_set(:LEAK, 1); class String; def hack; end; end; require "set"; require "json"\n2000.times { |i| "s#{i}".to_sym }; ENV["Z"] = "1"; Dir.chdir("/tmp"); GC.start; at_exit { puts "bye" }\n',
      'def deep(n) = n == 0 ? 0 : 1 + deep(n - 1)\nbegin; deep(100_000); rescue SystemStackError; end\n',
      'f = Fiber.new { Fiber.yield 1; 2 }; f.resume; Thread.new { sleep 0.01 }; exit!(3)\n',
      'a = []; 10.times { a << ("x" * 1_000_000) }; puts a.size\n', // grows the memory: a new instance next
      'raise "boom"\n',
    ];
    for (const program of programs) {
      await run(program);
      expect((await run(probe)).stdout, program).toBe(expected);
    }
  });

  it('passes every Ruby demo problem with its canonical solution (demo and full tests)', async () => {
    const problems = parseDataset(readFileSync('bench-data/demo.jsonl', 'utf8')).problems.filter((p) => p.language === 'ruby');
    expect(problems.length).toBeGreaterThanOrEqual(5);
    const failures: string[] = [];
    for (const p of problems) {
      for (const tests of [p.record.demo_test_func, p.record.full_test_func]) {
        const r = await run(spliceProgram('ruby', p.record.canonical_solution, tests));
        const outcome = judgeRun('ruby', r);
        if (outcome !== 'PASSED') failures.push(`${p.id}: ${outcome}\n${r.stderr}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
