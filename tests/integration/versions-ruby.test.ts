/**
 * Ruby answers see Ruby 3.0, the official version, not this runtime's CRuby 3.4 (issue #13 part 2).
 * Debian has no Ruby 3.0 (bookworm ships 3.1), so the expectations come from Ruby's own NEWS files
 * (NEWS for 3.1.0, 3.2.0, 3.3.0, 3.4.0: "Core classes updates" and "Language changes"): a method
 * added after 3.0 is a NoMethodError under 3.0, a constant a NameError, newer syntax a
 * SyntaxError before anything runs, and `it` (3.4) an undefined local variable or method. Every
 * one ends `ruby test.rb` with exit status 1: RUNTIME_ERROR (SPEC §4; Ruby has no error substrings).
 */
import { describe, expect, it } from 'vitest';
import { judgeRun } from '../../src/core/rules';
import { useRuntime } from '../support/runtimes';

const ruby = useRuntime('ruby');
const run = (program: string) => ruby.run(program, 30_000);

/** Methods and constants added after 3.0 (the NEWS version in the name): exit 1 under 3.0. */
const NEWER_LIBRARY = {
  'Array#intersect? (3.1)': 'puts [1, 2].intersect?([2])',
  'Enumerable#compact (3.1)': 'p [1, nil, 2].each_slice(1).map(&:first).each.compact',
  'Integer#ceildiv (3.2)': 'puts 7.ceildiv(2)',
  'Data (3.2; 3.0 had removed the old Data)': 'Point = Data.define(:x, :y)\np Point.new(x: 1, y: 2)',
  'MatchData#match (3.1)': 'p /(a)(b)/.match("ab").match(1)',
  'String#byteindex (3.2)': 'p "héllo".byteindex("l")',
  'Class#subclasses (3.1)': 'class A; end\nclass B < A; end\np A.subclasses',
  'Enumerator.product (3.2)': 'p Enumerator.product([1, 2], [3]).to_a',
  'Range#overlap? (3.3)': 'p (1..3).overlap?(2..4)',
  'Array#fetch_values (3.4)': 'p [1, 2, 3].fetch_values(0, 2)',
  'Integer.try_convert (3.1)': 'p Integer.try_convert(1)',
};

/** Syntax added after 3.0: a SyntaxError (nothing runs) under 3.0. */
const NEWER_SYNTAX = {
  'hash shorthand {x:} (3.1)': 'puts "start"\nx = 1\np({x:})',
  'anonymous block forwarding (3.1)': 'puts "start"\ndef g(&b) = b.call\ndef f(&) = g(&)\np f { 1 }',
  'anonymous rest forwarding (3.2)': 'puts "start"\ndef g(*a) = a.size\ndef f(*) = g(*)\np f(1, 2)',
  'pinned expression ^(…) (3.1)': 'puts "start"\ncase 5\nin ^(2 + 3) then puts "five"\nend',
};

describe('Ruby: what 3.1–3.4 added fails as under Ruby 3.0', () => {
  for (const [feature, program] of Object.entries(NEWER_LIBRARY)) {
    it(`${feature} is missing`, async () => {
      const r = await run(program);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/NoMethodError|NameError/);
      expect(judgeRun('ruby', r)).toBe('RUNTIME_ERROR');
    });
  }
  for (const [feature, program] of Object.entries(NEWER_SYNTAX)) {
    it(`${feature} is a SyntaxError, and nothing runs`, async () => {
      const r = await run(program);
      expect([r.exitCode, r.stdout]).toEqual([1, '']);
      expect(r.stderr).toContain('SyntaxError');
      expect(judgeRun('ruby', r)).toBe('RUNTIME_ERROR');
    });
  }
  it('`it` (3.4) is an undefined local variable or method, as 3.0 parses it', async () => {
    const r = await run('p [1, 2].map { it * 2 }');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('NameError');
    expect(r.stderr).toContain("`it'");
  });
  it('a program that defines the missing method itself (a backport) runs as under 3.0', async () => {
    const r = await run('class Array\n  def intersect?(o) = !(self & o).empty?\nend\nclass Integer\n  def ceildiv(d) = -(-self / d)\nend\np [1, 2].intersect?([2]), 7.ceildiv(2)');
    expect([r.exitCode, r.stdout]).toEqual([0, 'true\n4\n']);
  });
  it('the standard library still works on the methods it uses (Set, JSON, minitest)', async () => {
    const program = 'require "set"\nrequire "json"\nrequire "minitest/autorun"\nclass T < Minitest::Test\n  def test_it\n    assert_equal Set[1, 2], Set.new([2, 1])\n    assert_equal({ "a" => [1, nil] }, JSON.parse(\'{"a":[1,null]}\'))\n  end\nend';
    const r = await run(program);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('1 runs, 2 assertions, 0 failures, 0 errors');
  });
  it('what 3.0 has still works: Hash#except, endless methods, rightward assignment, pattern matching, _1, tally, filter_map', async () => {
    const program = [
      'def sq(x) = x * x',
      '42 => answer',
      'case { name: "a", n: [1, 2] }',
      'in { name: String => name, n: [_, y] } then puts "#{name} #{y}"',
      'end',
      'p({ a: 1, b: 2 }.except(:a), sq(3), answer, [1, 2, 3].map { _1 * 2 }, %w[a b a].tally, [1, 2, 3].filter_map { |x| x * 2 if x.odd? })',
    ].join('\n');
    const r = await run(program);
    expect([r.exitCode, r.stdout]).toEqual([0, 'a 2\n{:b=>2}\n9\n42\n[2, 4, 6]\n{"a"=>2, "b"=>1}\n[2, 6]\n']);
  });
});

describe('Ruby: integers as on x86-64', () => {
  it('arbitrary precision, 64-bit pack formats, and an 8-byte Integer#size as under 3.0 on x86-64', async () => {
    const r = await run('p 2**64, 3**40 % 1_000_000_007, [2**40].pack("q").unpack1("q"), [-1].pack("Q").bytesize, 1.size, (2**40).size, (2**62 - 1).size');
    expect([r.exitCode, r.stdout]).toEqual([0, '18446744073709551616\n953271190\n1099511627776\n8\n8\n8\n8\n']);
  });
});
