/**
 * Ruby programs this ruby.wasm build cannot run as Ruby 3.0 does, recognised from their text: it
 * leaves out the C extensions bigdecimal, nkf, racc and syslog, which the official Ruby 3.0 ships
 * as default gems, and socket (so also ipaddr, which requires it). A program requiring one is declined (RunResult `declined`: the router sends it
 * to a runner, or the engine reports it unsupported) instead of failing with a LoadError that
 * Ruby 3.0 would not raise. A `require` of a literal name is unambiguous.
 */
const MISSING = /\brequire\b\s*\(?\s*(['"])(bigdecimal|nkf|racc|syslog|socket|ipaddr)(?:\/[\w/]*)?\1/;

export function rubyDecline(program: string): string | null {
  const m = MISSING.exec(program);
  return m ? `requires ${m[2]}, ${m[2] === 'ipaddr' ? 'which needs socket, ' : ''}part of Ruby 3.0 that ruby.wasm leaves out` : null;
}
