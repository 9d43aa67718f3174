/**
 * The outputs programs of the compiled languages the generator drives: C++ (the in-page clang
 * runtime, or a runner) and Go (a runner). Each prints one marked line per input; the printed form
 * is a literal of the language, so a test can compare against it as written.
 */
import { goSplice } from '../core/rules/go';

/**
 * Our printing helper for C++ results: integers, bools, chars, floating point with 6 fixed
 * decimals, strings as escaped literals (octal escapes: never greedy like \x), and vectors, arrays,
 * sets, maps, pairs, tuples and optionals as brace lists (`{1, 2}`, `{{"a", 1}}`) that initialize
 * the same type. Declared before defined so that nested containers find each other.
 */
const CPP_HEAD = `#include <iostream>
#include <iomanip>
#include <string>
#include <string_view>
#include <vector>
#include <set>
#include <map>
#include <utility>
#include <cstdint>
#include <type_traits>
`;

const CPP_BASE = `namespace benchtop_gen {
inline void show(ostream& o, bool v) { o << (v ? "true" : "false"); }
inline void show(ostream& o, char c) {
  if (c == '\\'' || c == '\\\\') o << "'\\\\" << c << "'";
  else if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) >= 127) o << "'\\\\" << oct << setw(3) << setfill('0') << static_cast<int>(static_cast<unsigned char>(c)) << dec << setfill(' ') << "'";
  else o << "'" << c << "'";
}
// One template for every integer type: the in-page runtime makes \`long\` 64-bit (runtimes/cpp/lp64.ts),
// so separate long and long long overloads would be one function defined twice there.
template <class T, enable_if_t<is_integral_v<T> && !is_same_v<T, bool> && !is_same_v<T, char>, int> = 0>
void show(ostream& o, T v) {
  if constexpr (is_signed_v<T>) o << static_cast<long long>(v);
  else o << static_cast<unsigned long long>(v);
}
template <class T, enable_if_t<is_floating_point_v<T>, int> = 0>
void show(ostream& o, T v) { o << fixed << setprecision(6) << static_cast<double>(v); o.unsetf(ios::floatfield); }
inline void show(ostream& o, string_view s) {
  o << '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\\\') o << '\\\\' << c;
    else if (c < 32 || c >= 127) o << '\\\\' << oct << setw(3) << setfill('0') << static_cast<int>(c) << dec << setfill(' ');
    else o << c;
  }
  o << '"';
}
inline void show(ostream& o, const string& s) { show(o, string_view(s)); }
inline void show(ostream& o, const char* s) { show(o, string_view(s)); }
`;

/**
 * Per result type: the word(s) that must appear in the solution or inputs, its header, the
 * overload's declaration and definition. The rarer headers go in only when used: each costs
 * compile time in the in-page clang, which runs every outputs program and mutant.
 */
const CPP_TYPES: Array<{ word: string; header?: string; decl: string; def: string }> = [
  // Maps print their entries as pairs.
  { word: 'pair|map|unordered_map', decl: 'template <class A, class B> void show(ostream& o, const pair<A, B>& p);', def: "template <class A, class B> void show(ostream& o, const pair<A, B>& p) { o << '{'; show(o, p.first); o << \", \"; show(o, p.second); o << '}'; }" },
  { word: 'tuple', header: 'tuple', decl: 'template <class... T> void show(ostream& o, const tuple<T...>& t);', def: "template <class... T> void show(ostream& o, const tuple<T...>& t) {\n  o << '{';\n  apply([&o](const auto&... x) { size_t i = 0; ((o << (i++ ? \", \" : \"\"), show(o, x)), ...); }, t);\n  o << '}';\n}" },
  { word: 'optional', header: 'optional', decl: 'template <class T> void show(ostream& o, const optional<T>& v);', def: 'template <class T> void show(ostream& o, const optional<T>& v) { if (v) show(o, *v); else o << "nullopt"; }' },
  { word: 'vector', decl: 'template <class T> void show(ostream& o, const vector<T>& v);', def: 'template <class T> void show(ostream& o, const vector<T>& v) { list(o, v); }' },
  { word: 'array', header: 'array', decl: 'template <class T, size_t N> void show(ostream& o, const array<T, N>& v);', def: 'template <class T, size_t N> void show(ostream& o, const array<T, N>& v) { list(o, v); }' },
  { word: 'deque', header: 'deque', decl: 'template <class T> void show(ostream& o, const deque<T>& v);', def: 'template <class T> void show(ostream& o, const deque<T>& v) { list(o, v); }' },
  { word: 'set', decl: 'template <class T> void show(ostream& o, const set<T>& v);', def: 'template <class T> void show(ostream& o, const set<T>& v) { list(o, v); }' },
  // Unordered containers print sorted, so the line does not depend on the library's hashing.
  { word: 'unordered_set', header: 'unordered_set', decl: 'template <class T> void show(ostream& o, const unordered_set<T>& v);', def: 'template <class T> void show(ostream& o, const unordered_set<T>& v) { list(o, set<T>(v.begin(), v.end())); }' },
  { word: 'map', decl: 'template <class K, class V> void show(ostream& o, const map<K, V>& v);', def: 'template <class K, class V> void show(ostream& o, const map<K, V>& v) { list(o, v); }' },
  { word: 'unordered_map', header: 'unordered_map', decl: 'template <class K, class V> void show(ostream& o, const unordered_map<K, V>& v);', def: 'template <class K, class V> void show(ostream& o, const unordered_map<K, V>& v) { list(o, map<K, V>(v.begin(), v.end())); }' },
];

const CPP_LIST = `template <class C> void list(ostream& o, const C& items) {
  o << '{';
  bool first = true;
  for (const auto& item : items) {
    if (!first) o << ", ";
    first = false;
    show(o, item);
  }
  o << '}';
}
`;

/** The helper with the overloads of the types the code names. */
function cppShow(code: string): string {
  const used = CPP_TYPES.filter((t) => new RegExp(`\\b(?:${t.word})\\b`).test(code));
  const headers = used.flatMap((t) => (t.header ? [`#include <${t.header}>\n`] : [])).join('');
  return `${CPP_HEAD}${headers}using namespace std;\n\n${CPP_BASE}${used.map((t) => t.decl + '\n').join('')}${CPP_LIST}${used.map((t) => t.def + '\n').join('')}}  // namespace benchtop_gen\n`;
}

/** C++: helper, solution (cut at \`int main\` as the official splice does), a main printing each input. */
export function cppOutputsProgram(solution: string, inputs: readonly string[], mark: string): string {
  const code = solution.trim();
  const cut = code.indexOf('int main');
  const lines = inputs.map((i) => `  cout << ${JSON.stringify(mark)}; benchtop_gen::show(cout, (${i})); cout << '\\n';`);
  return `${cppShow(code + '\n' + inputs.join('\n'))}\n${cut === -1 ? code : code.slice(0, cut)}\n\nint main() {\n${lines.join('\n')}\n  return 0;\n}\n`;
}

/**
 * Go runs as \`go test main_test.go\`, which shows a passing test's output to nobody: the harness
 * prints every result (\`%#v\`, a Go literal), then a done line, then fails on purpose so the
 * output is shown. A run is good when the done line is there (outputsRunOk).
 */
export function goOutputsProgram(solution: string, inputs: readonly string[], mark: string, done: string): string {
  const calls = inputs.map((i) => `\tbenchtopGenShow(${i})`).join('\n');
  const harness = `import (
\t"fmt"
\t"testing"
)

// Variadic, so a call returning several values prints them all.
func benchtopGenShow(vs ...interface{}) {
\tline := ${JSON.stringify(mark)}
\tfor i, v := range vs {
\t\tif i > 0 {
\t\t\tline += ", "
\t\t}
\t\tline += fmt.Sprintf("%#v", v)
\t}
\tfmt.Println(line)
}

func TestBenchtopGenOutputs(t *testing.T) {
${calls}
\tfmt.Println(${JSON.stringify(done)})
\tt.FailNow()
}
`;
  return goSplice(solution, harness);
}
