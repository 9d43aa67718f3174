/**
 * Which of a C++ program's first lines the runtime may read from a precompiled header
 * (runtimes/cpp/pch.ts): only standard-header includes and `using namespace std;`, because a PCH is
 * shared by every later program with the same first lines and must not carry a program's own text.
 */
import { describe, expect, it } from 'vitest';
import { blankLines, leadingLines, PchCache, SPLICE_PREFIX } from '../../runtimes/cpp/pch';
import { spliceProgram } from '../../src/core/rules';

describe('cpp precompiled prefix', () => {
  it("takes a spliced program's first lines: the splice's two, then the solution's includes", () => {
    const program = spliceProgram('cpp', '#include <vector>\n\n#include <string>\nint f() { return 1; }', 'int main() {}');
    const { lines, ends } = leadingLines(program);
    expect(lines.slice(0, 2).join('\n')).toBe(SPLICE_PREFIX);
    expect(lines).toEqual(['#include <iostream>', 'using namespace std;', '#include <vector>', '#include <string>']);
    expect(ends).toEqual([1, 2, 3, 5]);
  });

  it('blanks the taken lines and keeps every later line on its number', () => {
    const program = '#include <iostream>\nusing namespace std;\n#include <map>\nint main() {\n  return __LINE__;\n}\n';
    const blanked = blankLines(program, 3);
    expect(blanked).toBe('\n\n\nint main() {\n  return __LINE__;\n}\n');
    expect(blanked.split('\n').indexOf('  return __LINE__;')).toBe(program.split('\n').indexOf('  return __LINE__;'));
  });

  it('stops at the first line that is not a standard include or the using line', () => {
    const stop = (program: string) => leadingLines(program).lines;
    // A macro before an include changes what the header declares: never precompiled with it.
    expect(stop('#include <iostream>\n#define private public\n#include <vector>\n')).toEqual(['#include <iostream>']);
    // A quoted include names the program's own files.
    expect(stop('#include "test.cpp"\n#include <vector>\n')).toEqual([]);
    // Paths that could reach a file outside the library, and libstdc++-only or unknown headers.
    expect(stop('#include <../../test.cpp>\n')).toEqual([]);
    expect(stop('#include <vector>\n#include <ext/pb_ds/assoc_container.hpp>\n')).toEqual(['#include <vector>']);
    expect(stop('#include <vectorx>\n')).toEqual([]);
    // A comment may open a block that hides the lines after it; a continuation joins two lines.
    expect(stop('#include <map> /*\n#include <set>\n*/\n')).toEqual([]);
    expect(stop('#include <map>\\\n#include <set>\n')).toEqual([]);
    expect(stop('using namespace std; int x;\n')).toEqual([]);
  });

  it('accepts the usual spellings and <bits/stdc++.h>, and normalises them', () => {
    const { lines } = leadingLines('  #  include<bits/stdc++.h>  \r\n#include <math.h>\r\nusing  namespace std ;\nint main() {}\n');
    expect(lines).toEqual(['#include <bits/stdc++.h>', '#include <math.h>', 'using namespace std;']);
  });

  it('compiles a program only with the PCH of all its leading lines, built when first met; none when clang cannot build it', async () => {
    const built: string[] = [];
    const cache = new PchCache(async (header) => {
      built.push(header);
      return header.includes('<map>') ? null : new Uint8Array(header.length);
    });
    const program = '#include <iostream>\nusing namespace std;\n#include <vector>\nint main() {}\n';
    const first = await cache.prepare(program);
    expect(first).toMatchObject({ header: '#include <iostream>\nusing namespace std;\n#include <vector>', program: '\n\n\nint main() {}\n' });
    // Met again (the problem's other test program): the same PCH, not built twice.
    expect((await cache.prepare(program))?.pch).toBe(first!.pch);
    // Never a shorter cached prefix: the program's own further includes would overlap it.
    await cache.ensure(SPLICE_PREFIX);
    expect(await cache.prepare('#include <iostream>\nusing namespace std;\n#include <map>\nint main() {}\n')).toBeNull();
    expect(await cache.prepare('int main() {}\n')).toBeNull();
    expect(built).toEqual(['#include <iostream>\nusing namespace std;\n#include <vector>', SPLICE_PREFIX, '#include <iostream>\nusing namespace std;\n#include <map>']);
  });

  it('keeps the recently used PCHs within its byte budget', async () => {
    const rebuilt: string[] = [];
    const again = new PchCache(async (header) => (rebuilt.push(header), new Uint8Array(40)), 100);
    for (const h of ['<set>', '<map>', '<list>', '<set>', '<list>']) await again.prepare(`#include ${h}\nint main() {}\n`);
    // 100 bytes hold two: <set> was dropped for <list>, so it is built again; <list> is still there.
    expect(rebuilt).toEqual(['#include <set>', '#include <map>', '#include <list>', '#include <set>']);
  });
});
