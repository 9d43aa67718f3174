/**
 * Precompiled headers for the C++ runtime (clang.ts), on unless the runtime is created with
 * `precompiledHeaders: false`. Most of a program's compile is clang parsing the standard headers
 * its first lines include; a precompiled header (PCH) of those lines makes that a load (a warm
 * program of the demo set: about 0.6 s of CPU instead of 1.6 s under Node, docs/performance-notes.md).
 *
 * Fidelity: a PCH holds exactly the text it replaces. Only a program's *leading* lines are taken,
 * and only while each is `#include <h>` of a standard header (STANDARD_HEADERS, the C headers
 * below, <bits/stdc++.h>), `using namespace std;` or blank; the first other line ends the prefix.
 * Those lines become blank lines (every later line keeps its number) and clang reads the PCH of
 * the very same text in their place (`-include-pch`), so no name becomes visible that the program
 * did not include (unlike one broad PCH of all the headers, which would compile a program that
 * forgot an #include and fails under g++).
 *
 * Security: a PCH is built from that fixed vocabulary and the runtime's own headers only (never
 * a quoted include, a macro or any other text of a program), so what a program finds in the cache
 * is what any program with the same first lines would get; it is read-only input to clang.
 *
 * The PCH also holds the instantiations of the templates its headers use themselves
 * (-fpch-instantiate-templates, clang.ts): made once there instead of in every program. They
 * involve only the library's own types; a program could tell only by adding overloads to
 * namespace std (undefined behaviour), which g++ would find when it instantiates at the end.
 *
 * Cost: building a PCH costs about a compile. The splice's own first two lines (`#include
 * <iostream>`, `using namespace std;`: every spliced program starts with them) are precompiled
 * when the worker loads and handed on to later workers; any other prefix when a worker first meets
 * it, kept while it is among the recently used (a byte budget).
 */
import { STANDARD_HEADERS } from './headers';

const C_HEADERS = [
  'assert.h', 'ctype.h', 'errno.h', 'float.h', 'inttypes.h', 'limits.h', 'math.h', 'stdarg.h', 'stdbool.h', 'stddef.h',
  'stdint.h', 'stdio.h', 'stdlib.h', 'string.h', 'time.h',
];
const ALLOWED = new Set<string>([...STANDARD_HEADERS, ...C_HEADERS, 'bits/stdc++.h']);
const INCLUDE = /^[ \t]*#[ \t]*include[ \t]*<([^<>\s]+)>[ \t]*\r?$/;
const USING_STD = /^[ \t]*using[ \t]+namespace[ \t]+std[ \t]*;[ \t]*\r?$/;
const BLANK = /^[ \t]*\r?$/;

/** The prefix every spliced C++ program starts with (src/core/rules/cpp.ts), normalised. */
export const SPLICE_PREFIX = '#include <iostream>\nusing namespace std;';

/**
 * The program's leading lines of the fixed vocabulary, normalised (one per line, blank lines
 * dropped), with how many source lines each normalised line ends at. Empty when the first line
 * is something else.
 */
export function leadingLines(program: string): { lines: string[]; ends: number[] } {
  const source = program.split('\n');
  const lines: string[] = [];
  const ends: number[] = [];
  for (let i = 0; i < source.length; i++) {
    const line = source[i]!;
    if (BLANK.test(line)) continue;
    const include = INCLUDE.exec(line);
    if (include && ALLOWED.has(include[1]!)) lines.push(`#include <${include[1]}>`);
    else if (USING_STD.test(line)) lines.push('using namespace std;');
    else break;
    ends.push(i + 1);
  }
  return { lines, ends };
}

/** The program with its first `count` source lines blanked (line numbers kept). */
export function blankLines(program: string, count: number): string {
  let at = 0;
  for (let i = 0; i < count; i++) at = program.indexOf('\n', at) + 1;
  return '\n'.repeat(count) + program.slice(at);
}

/** Builds a PCH of a header text, or null when clang cannot (the program then compiles without). */
export type PchBuilder = (header: string) => Promise<Uint8Array | null>;

/** A worker's PCHs by prefix text, least recently used dropped first past a byte budget. */
export class PchCache {
  private readonly built = new Map<string, Uint8Array | null>();
  private bytes = 0;

  constructor(
    private readonly build: PchBuilder,
    private readonly budgetBytes = 96 * 1024 * 1024,
    private readonly maxEntries = 64,
  ) {}

  /** Adds a PCH built elsewhere (an earlier worker's, handed on with the compiled modules). */
  put(header: string, pch: Uint8Array | null): void {
    this.store(header, pch);
  }

  async ensure(header: string): Promise<Uint8Array | null> {
    if (!this.built.has(header)) this.store(header, await this.build(header));
    return this.lookup(header);
  }

  /**
   * The PCH of exactly the program's leading lines and the program to compile with it (those lines
   * blanked), building it when this worker meets the lines first; null when it has none. Only the
   * whole prefix: with a PCH of fewer lines, the headers the program then includes itself overlap
   * the PCH's, clang keeps each such header open, and past the WASI layer's ~128 descriptors the
   * compile fails ("cannot open file … Out of memory") and runs again without (twice the work).
   * Built at the first meeting: a problem's demo and full programs start with the same lines.
   */
  async prepare(program: string): Promise<{ program: string; header: string; pch: Uint8Array } | null> {
    const { lines, ends } = leadingLines(program);
    if (lines.length === 0) return null;
    const header = lines.join('\n');
    if (!this.built.has(header)) this.store(header, await this.build(header));
    const pch = this.lookup(header);
    return pch ? { program: blankLines(program, ends[lines.length - 1]!), header, pch } : null;
  }

  /** The cached PCH (marked as just used), or null. */
  private lookup(header: string): Uint8Array | null {
    const pch = this.built.get(header);
    if (pch === undefined) return null;
    this.built.delete(header);
    this.built.set(header, pch);
    return pch;
  }

  private store(header: string, pch: Uint8Array | null): void {
    const old = this.built.get(header);
    if (old) this.bytes -= old.byteLength;
    this.built.delete(header);
    this.built.set(header, pch);
    this.bytes += pch?.byteLength ?? 0;
    for (const [key, value] of this.built) {
      if ((this.bytes <= this.budgetBytes && this.built.size <= this.maxEntries) || key === header) break;
      this.built.delete(key);
      this.bytes -= value?.byteLength ?? 0;
    }
  }
}
