/**
 * A C++ program that throws and catches `n / 7` exceptions and uses the STL: the tests of workers
 * that reuse what an earlier worker built (tests/e2e/cpp-shared.test.ts,
 * tests/integration/cpp-shared-node.test.ts) run it, so the shared exceptions.o is in use.
 */
export const exceptionsProgram = (n: number) => `#include <iostream>
#include <vector>
#include <stdexcept>
using namespace std;
int check(int x) { if (x % 7 == 0) throw runtime_error("seven"); return x; }
int main() {
  vector<int> v;
  long long sum = 0;
  for (int i = 1; i <= ${n}; i++) { try { sum += check(i); } catch (const exception& e) { v.push_back(i); } }
  cout << sum << " " << v.size() << endl;
  return 0;
}
`;
