/**
 * Which Ruby programs the in-page runtime declines by their text (runtimes/ruby/decline.ts): those
 * requiring a library the official Ruby 3.0 has and ruby.wasm lacks (the differential corpus's
 * parse-an-ip-address: `require 'ipaddr'` fails there with "cannot load such file -- socket").
 */
import { expect, it } from 'vitest';
import { rubyDecline } from '../../runtimes/ruby/decline';

it('declines bigdecimal, socket and ipaddr requires, and nothing that merely mentions them', () => {
  expect(rubyDecline('require "bigdecimal/util"\n')).toMatch(/bigdecimal/);
  expect(rubyDecline("require 'socket'\nputs 1\n")).toMatch(/socket/);
  expect(rubyDecline("require 'ipaddr'\nputs IPAddr.new('127.0.0.1').to_i\n")).toMatch(/ipaddr, which needs socket/);
  expect(rubyDecline('puts "require socket"\n')).toBeNull();
  expect(rubyDecline("require 'set'\n")).toBeNull();
});
