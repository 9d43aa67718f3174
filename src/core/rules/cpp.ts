const HEADER = '#include <iostream>\nusing namespace std;\n';

/**
 * C++ (SPEC §5): `#include <iostream>` and `using namespace std;` on top, then the trimmed
 * solution cut at the first plain-text `int main` (dropping a model's own `main`), then the tests.
 * Official quirk kept on purpose: the cut also hits `int main_value`, `int maintain()`, or a
 * comment mentioning `int main`, losing everything after it.
 */
export function cppSplice(solution: string, tests: string): string {
  const code = solution.trim();
  const cut = code.indexOf('int main');
  return HEADER + (cut === -1 ? code : code.slice(0, cut)) + '\n' + tests;
}
