/**
 * C++ programs that depend on 64-bit integers (issue #13 part 2): the official g++ 12 runs on
 * x86-64, where `long` and `size_t` have 64 bits; our clang targets wasm32. Each program here is
 * also compiled and run natively with this machine's g++ 12 on x86-64 (`g++ -o test test.cpp &&
 * ./test`, the official command), and the in-page runtime must give g++'s verdict and stdout, or
 * decline the program (RunResult.declined, which the engine reports unsupported, never failed).
 *
 *   npx vitest run tests/integration/versions-cpp.test.ts
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { CppRuntime } from '../../runtimes/cpp/clang';
import { createRoutedExecutor } from '../../runtimes/remote/routing';
import type { Executor } from '../../src/contracts';
import { evaluateProblem } from '../../src/core/engine';
import { parseDataset } from '../../src/core/records';
import { judgeRun, spliceProgram } from '../../src/core/rules';
import { extractCode } from '../../src/core/extract';
import { parseAnswers } from '../../src/models/replay';
import { toLP64 } from '../../runtimes/cpp/lp64';
import { createGxx } from '../support/gxx';
import { useRuntime } from '../support/runtimes';

const TIMEOUT_MS = 30_000;
const cpp = useRuntime<CppRuntime>('cpp', 600_000);

const native = createGxx();
afterAll(() => native.dispose());
/** g++ 12 on x86-64, the official way; the exit status as a shell reports it. */
const gxx = (program: string) => native.run(program);

const HEAD = '#include <bits/stdc++.h>\nusing namespace std;\n';

/** Programs whose verdict under g++ on x86-64 depends on `long` having 64 bits: run here, same result. */
const WIDE_LONG: Record<string, string> = {
  'long arithmetic beyond 2^31, checked by assert': `${HEAD}long fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int main() { long f = fact(20); cout << f << endl; assert(f == 2432902008176640000L); assert(fact(13) / 13 == fact(12)); return 0; }
`,
  'unsigned long and shifts by 32 and more': `${HEAD}int main() { unsigned long mask = 1UL << 40; long x = 1L << 35; cout << mask << " " << x << " " << __builtin_popcountl(mask - 1) << endl;
  assert((mask >> 40) == 1); return 0; }
`,
  'LONG_MAX, numeric_limits<long> and sizeof(long)': `${HEAD}int main() { cout << LONG_MAX << " " << numeric_limits<long>::max() << " " << sizeof(long) << " " << sizeof(unsigned long int) << endl;
  assert(LONG_MAX > 3000000000L); return 0; }
`,
  'stol, atol and strtol on 64-bit values': `${HEAD}int main() { long a = stol("9000000000"); long b = atol("-5000000000"); long c = strtol("123456789012", nullptr, 10);
  cout << a << " " << b << " " << c << " " << labs(b) << endl; assert(a + b == 4000000000L); return 0; }
`,
  'printf and scanf with %ld / %lu': `${HEAD}int main() { long a = 3000000000L; unsigned long b = 18000000000000000000UL; long c = 0; sscanf("7000000000", "%ld", &c);
  printf("%ld %lu %ld %-12ld|%lx\\n", a, b, c, a, a); return 0; }
`,
  'vector<long> sums, accumulate with 0L, a map keyed by long': `${HEAD}int main() { vector<long> v = {2000000000, 2000000000, 2000000000}; long s = accumulate(v.begin(), v.end(), 0L);
  map<long, int> m; m[s] = 1; m[1L << 33] = 2; cout << s << " " << m.size() << " " << m.begin()->first << endl; assert(s == 6000000000L); return 0; }
`,
  'int overflow stays 32-bit, long long and long double unchanged': `${HEAD}int main() { int i = 2147483647; unsigned u = 4294967295u; long long ll = 1LL << 62; long double d = 1.5L; unsigned int w = u + 1;
  cout << (long)i + 1 << " " << w << " " << ll << " " << d << " " << sizeof(long long) << " " << sizeof(int) << endl; return 0; }
`,
  'an unsigned long wraps at 2^64 as under g++': `${HEAD}int main() { unsigned long x = 18446744073709551615UL; x += 2; cout << x << " " << (x - 3) << endl; assert(x - 3 > 4294967296UL); return 0; }
`,
  // A control: a failing assert stays a failure (this one also failed before long was widened).
  'a failing assert on a long fails in both': `${HEAD}int main() { long big = 1L << 40; assert(big == 0); return 0; }
`,
};

/** Programs whose result depends on the pointer width or size_t's: declined (routed away), never failed. */
const DECLINED: Record<string, string> = {
  'sizeof a pointer': `${HEAD}int main() { int x = 0; int* p = &x; assert(sizeof(int*) == 8); cout << sizeof(p) << endl; return 0; }
`,
  'pointer to integer through uintptr_t': `${HEAD}int main() { int x; uintptr_t a = (uintptr_t)&x; assert((a & 7) == (a % 8)); cout << "ok" << endl; return 0; }
`,
  'SIZE_MAX and (size_t)-1': `${HEAD}int main() { size_t m = SIZE_MAX; cout << m << " " << (size_t)-1 << endl; assert(m == 18446744073709551615ULL); return 0; }
`,
  'size_t beyond 2^32': `${HEAD}int main() { size_t big = (size_t)1 << 40; assert(big > 4294967296ULL); cout << big << endl; return 0; }
`,
  'a rolling hash in a size_t': `${HEAD}size_t hashOf(const string& s) { size_t h = 0; for (char c : s) h = h * 131 + c; return h; }
int main() { cout << hashOf("a fairly long string to hash") << endl; assert(hashOf("abcdefghij") == 3841664515735226105ULL); return 0; }
`,
  'printing a size with %lu': `${HEAD}int main() { vector<int> v(5); printf("%lu\\n", v.size()); return 0; }
`,
};

describe('C++: programs that need 64-bit long get g++\'s verdict on x86-64', () => {
  for (const [label, program] of Object.entries(WIDE_LONG)) {
    it(label, async () => {
      const nativeRun = gxx(program); // g++ compiles on the other core meanwhile
      const [ours, native] = [await cpp.run(program, TIMEOUT_MS), await nativeRun];
      expect(ours.declined).toBeUndefined();
      if (ours.stdout !== native.stdout) console.log(`${label}: ours stderr:\n${ours.stderr.slice(0, 3000)}`);
      expect({ verdict: judgeRun('cpp', ours), stdout: ours.stdout }).toEqual({ verdict: judgeRun('cpp', native), stdout: native.stdout });
    }, 180_000);
  }
  it('the demo set\'s C++ programs (canonical and recorded answers, both tests) are not declined', () => {
    // Their verdicts under the rewrite are checked against g++ by runtime-cpp.test.ts and crosscheck.test.ts.
    const dataset = parseDataset(readFileSync('bench-data/demo.jsonl', 'utf8'));
    const answers = new Map(parseAnswers(readFileSync('bench-data/demo-answers.jsonl', 'utf8')).answers.map((a) => [a.id, a.output]));
    const programs: string[] = [];
    for (const p of dataset.problems.filter((q) => q.language === 'cpp')) {
      const recorded = answers.get(p.id);
      const solutions = [p.record.canonical_solution, ...(recorded ? [extractCode(recorded, 'cpp', 'compat', p.record.canonical_solution).code] : [])];
      for (const code of solutions) for (const tests of [p.record.demo_test_func, p.record.full_test_func]) programs.push(spliceProgram('cpp', code, tests));
    }
    expect(programs.length).toBeGreaterThanOrEqual(10);
    expect(programs.map((program) => ('declined' in toLP64(program) ? 'declined' : 'runs'))).toEqual(programs.map(() => 'runs'));
  });
});

describe('C++: programs whose verdict depends on the pointer width are declined, and reported unavailable', () => {
  for (const [label, program] of Object.entries(DECLINED)) {
    it(label, async () => {
      const nativeRun = gxx(program); // g++ compiles on the other core meanwhile
      const [ours, native] = [await cpp.run(program, TIMEOUT_MS), await nativeRun];
      // Under g++ on x86-64 these pass; unrewritten on wasm32 they would not (or print other numbers).
      expect(judgeRun('cpp', native)).toBe('PASSED');
      expect(ours.declined).toMatch(/\w/);
      expect([ours.exitCode, ours.stdout]).toEqual([null, '']);
    }, 180_000);
  }

  it('the engine reports a declined program unsupported, and the router sends it to a runner when there is one', async () => {
    const dataset = parseDataset(readFileSync('bench-data/demo.jsonl', 'utf8'));
    const problem = dataset.problems.find((p) => p.language === 'cpp')!;
    const local: Executor = {
      languages: () => ['cpp'],
      run: async (request) => ({ ...(await cpp.run(request.program, request.timeoutMs)), runtime: cpp.runtime.description }),
      dispose: async () => {},
    };
    const answer = `\`\`\`cpp\n${problem.record.canonical_solution}\nstatic_assert(sizeof(void*) > 0, "");\n\`\`\``;
    const model = { name: 'fixed', answer: async () => ({ text: answer }) };
    const alone = await evaluateProblem(problem, model as never, createRoutedExecutor({ local, remote: null }), {});
    expect(alone.verdict).toBe('unsupported');
    expect(alone.error).toContain('pointer');
    // A runner offering C++ (here: g++ natively, standing in for the remote runner) gets the program.
    const ran: string[] = [];
    const remote: Executor = {
      languages: () => ['cpp'],
      run: async (request) => { ran.push(request.program); return { ...(await gxx(request.program)), durationMs: 0, runtime: 'g++' }; },
      dispose: async () => {},
    };
    const routed = await evaluateProblem(problem, model as never, createRoutedExecutor({ local, remote }), {});
    expect(ran).toHaveLength(2);
    expect(routed.verdict).toBe('passed');
  }, 300_000);
});
