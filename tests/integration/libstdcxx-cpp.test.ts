/**
 * C++ written for g++'s library (libstdc++ and glibc) that libc++/wasi-libc would judge
 * differently: what C++17 removed but g++ 12 keeps in gnu++17, glibc's rand() sequence,
 * libstdc++'s random_shuffle, <tr1/…> and <ext/functional> (runtimes/cpp/headers.ts,
 * runtimes/cpp/glibc-rand.c). Each program also runs under this machine's g++ 12 on x86-64, the
 * official command; the in-page runtime must give the same verdict and stdout. Programs needing a
 * libstdc++ header the runtime cannot supply must be declined, never failed.
 *
 *   npx vitest run tests/integration/libstdcxx-cpp.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCppRuntime, type CppRuntime } from '../../runtimes/cpp/clang';
import { readCatalogFiles } from '../../runtimes/host/node-files';
import { judgeRun } from '../../src/core/rules';
import { createGxx } from '../support/gxx';

const TIMEOUT_MS = 30_000;
let runtime: CppRuntime;
beforeAll(async () => {
  runtime = await createCppRuntime({ files: readCatalogFiles('cpp') });
}, 600_000);
const gxx = createGxx();
afterAll(() => gxx.dispose());

const SAME_AS_GXX: Record<string, string> = {
  'rand() without srand: glibc\'s default seed': `#include <cstdio>
#include <cstdlib>
int main() { for (int i = 0; i < 8; i++) printf("%d\\n", rand()); return 0; }
`,
  'srand with several seeds (0, large, negative as int) and rand() % n': `#include <iostream>
#include <cstdlib>
int main() {
  unsigned seeds[] = {0u, 1u, 42u, 2147483648u, 4294967295u, 1234567u};
  for (unsigned s : seeds) { srand(s); long sum = 0; for (int i = 0; i < 1000; i++) sum += rand() % 100; std::cout << s << " " << rand() << " " << sum << "\\n"; }
  return 0;
}
`,
  'random() and srandom() share glibc\'s generator with rand()': `#include <cstdio>
#include <cstdlib>
int main() { srandom(7); long a = random(); srand(7); int b = rand(); printf("%ld %d %d\\n", a, b, a == b); return 0; }
`,
  "a seeded simulation checked by assert (passes only with glibc's numbers)": `#include <cassert>
#include <cstdlib>
#include <iostream>
int main() { srand(2024); int heads = 0; for (int i = 0; i < 100; i++) heads += rand() % 2; std::cout << heads << std::endl;
  srand(2024); int again = 0; for (int i = 0; i < 100; i++) again += rand() % 2; assert(again == heads); return heads == 0; }
`,
  'std::random_shuffle after srand, with and without a generator': `#include <algorithm>
#include <iostream>
#include <vector>
int draw(int n) { return std::rand() % n; }
int main() { std::srand(5); std::vector<int> v{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  std::random_shuffle(v.begin(), v.end()); for (int x : v) std::cout << x << ' '; std::cout << '\\n';
  std::random_shuffle(v.begin(), v.end(), draw); for (int x : v) std::cout << x << ' '; std::cout << '\\n'; return 0; }
`,
  'bind2nd, bind1st, ptr_fun, mem_fun_ref and unary_function': `#include <algorithm>
#include <functional>
#include <iostream>
#include <string>
#include <vector>
struct Square : std::unary_function<int, int> { int operator()(int x) const { return x * x; } };
int main() { std::vector<int> v{1, 5, 10, 15}; std::cout << std::count_if(v.begin(), v.end(), std::bind2nd(std::greater<int>(), 4)) << " "
  << std::count_if(v.begin(), v.end(), std::bind1st(std::less<int>(), 9)) << " " << Square()(7) << " ";
  std::vector<std::string> w{"ab", "cde"}; std::vector<size_t> n(2); std::transform(w.begin(), w.end(), n.begin(), std::mem_fun_ref(&std::string::size));
  std::cout << n[0] + n[1] << " " << std::ptr_fun<int, int>(std::abs)(-3) << "\\n"; return 0; }
`,
  'std::auto_ptr': `#include <iostream>
#include <memory>
int main() { std::auto_ptr<int> a(new int(41)); std::auto_ptr<int> b = a; ++*b; std::cout << *b << " " << (a.get() == 0) << std::endl; return 0; }
`,
  '<tr1/memory>, <tr1/functional>, <tr1/unordered_map>, <tr1/tuple> (pre-C++11 code)': `#include <iostream>
#include <tr1/memory>
#include <tr1/functional>
#include <tr1/unordered_map>
#include <tr1/tuple>
#include <map>
using namespace std;
int add(int a, int b) { return a + b; }
int main() { tr1::shared_ptr<int> p(new int(3)); tr1::shared_ptr<int> q = p; tr1::function<int(int)> f = tr1::bind(add, tr1::placeholders::_1, 10);
  tr1::unordered_map<string, int> m; m["x"] = 1; m["y"] = 2; map<string, int> sorted(m.begin(), m.end());
  tr1::tuple<int, char> t = tr1::make_tuple(4, 'z'); cout << *q << " " << p.use_count() << " " << f(5) << " " << sorted.begin()->first << m.size() << " " << tr1::get<0>(t) << tr1::get<1>(t) << endl; return 0; }
`,
  '<ext/functional>: compose1 and select1st': `#include <ext/functional>
#include <iostream>
#include <map>
int twice(int x) { return 2 * x; }
int plus1(int x) { return x + 1; }
int main() { std::map<int, int> m; m[3] = 9; std::cout << __gnu_cxx::compose1(std::ptr_fun(twice), std::ptr_fun(plus1))(4) << " "
  << __gnu_cxx::select1st<std::pair<const int, int> >()(*m.begin()) << std::endl; return 0; }
`,
};

const DECLINED: Record<string, string> = {
  'policy-based data structures (<ext/pb_ds/…>)': `#include <ext/pb_ds/assoc_container.hpp>
#include <ext/pb_ds/tree_policy.hpp>
#include <iostream>
using namespace __gnu_pbds;
typedef tree<int, null_type, std::less<int>, rb_tree_tag, tree_order_statistics_node_update> ordered_set;
int main() { ordered_set s; s.insert(5); s.insert(1); s.insert(9); std::cout << *s.find_by_order(1) << " " << s.order_of_key(9) << std::endl; return 0; }
`,
  '<tr1/random>': `#include <tr1/random>
#include <iostream>
int main() { std::tr1::mt19937 g(1); std::cout << (g() > 0) << std::endl; return 0; }
`,
  'a libstdc++ internal header': `#include <bits/stl_algo.h>
#include <iostream>
int main() { std::cout << std::max(1, 2) << std::endl; return 0; }
`,
};

describe('C++ written for libstdc++ and glibc gets g++\'s verdict and output', () => {
  for (const [label, program] of Object.entries(SAME_AS_GXX)) {
    it(label, async () => {
      const nativeRun = gxx.run(program); // g++ compiles on the other core meanwhile
      const [ours, native] = [await runtime.run(program, TIMEOUT_MS), await nativeRun];
      // g++ accepts every one of them (with deprecation warnings for the removed features).
      expect(native.compileFailed).toBeFalsy();
      expect(ours.declined).toBeUndefined();
      if (ours.stdout !== native.stdout) console.log(`${label}: ours stderr:\n${ours.stderr.slice(0, 3000)}`);
      expect({ verdict: judgeRun('cpp', ours), stdout: ours.stdout }).toEqual({ verdict: judgeRun('cpp', native), stdout: native.stdout });
    }, 180_000);
  }
});

describe('C++ needing a libstdc++ header the runtime lacks is declined, not failed', () => {
  for (const [label, program] of Object.entries(DECLINED)) {
    it(label, async () => {
      const nativeRun = gxx.run(program); // g++ compiles on the other core meanwhile
      const [ours, native] = [await runtime.run(program, TIMEOUT_MS), await nativeRun];
      expect(judgeRun('cpp', native)).toBe('PASSED');
      expect(ours.declined).toMatch(/libstdc\+\+ header/);
      expect([ours.exitCode, ours.stdout]).toEqual([null, '']);
    }, 180_000);
  }
});
