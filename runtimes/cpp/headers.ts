/**
 * What the C++ runtime adds so that programs written for g++'s library (libstdc++) compile and
 * behave under libc++ as they do under g++ 12 in gnu++17 mode, and which of them it cannot serve.
 * The headers are searched before libc++'s own (-isystem /benchtop/include, clang.ts).
 */

type Tree = { [name: string]: Tree | string | Uint8Array };

/**
 * The standard headers of C++17 (<bits/stdc++.h> includes them all; pch.ts precompiles them).
 * Headers of g++'s library that programs written for it use and libc++ lacks, searched before
 * libc++'s own (-isystem): <bits/stdc++.h>, and <algorithm> with libstdc++'s std::__gcd and
 * std::__lg added (names reserved to the implementation, so adding them changes no valid program).
 */
export const STANDARD_HEADERS = [
  'cassert', 'cctype', 'cerrno', 'cfenv', 'cfloat', 'cinttypes', 'climits', 'clocale', 'cmath', 'csetjmp', 'csignal',
  'cstdarg', 'cstddef', 'cstdint', 'cstdio', 'cstdlib', 'cstring', 'ctime', 'cuchar', 'cwchar', 'cwctype',
  'algorithm', 'any', 'array', 'atomic', 'bitset', 'charconv', 'chrono', 'codecvt', 'complex', 'condition_variable',
  'deque', 'exception', 'filesystem', 'forward_list', 'fstream', 'functional', 'future', 'initializer_list', 'iomanip',
  'ios', 'iosfwd', 'iostream', 'istream', 'iterator', 'limits', 'list', 'locale', 'map', 'memory', 'memory_resource',
  'mutex', 'new', 'numeric', 'optional', 'ostream', 'queue', 'random', 'ratio', 'regex', 'scoped_allocator', 'set',
  'shared_mutex', 'sstream', 'stack', 'stdexcept', 'streambuf', 'string', 'string_view', 'system_error', 'thread',
  'tuple', 'type_traits', 'typeindex', 'typeinfo', 'unordered_map', 'unordered_set', 'utility', 'valarray', 'variant', 'vector',
];
const BITS_STDCXX = STANDARD_HEADERS.map((h) => `#include <${h}>\n`).join('');
const ALGORITHM = `#include_next <algorithm>
#include <cstdlib>
#ifndef BENCHTOP_LIBSTDCXX_ALGORITHM
#define BENCHTOP_LIBSTDCXX_ALGORITHM
namespace std {
template <typename T> T __gcd(T m, T n) {
  while (n != 0) { T t = m % n; m = n; n = t; }
  return m;
}
inline constexpr int __lg(int n) { return (int)sizeof(int) * 8 - 1 - __builtin_clz(n); }
inline constexpr unsigned __lg(unsigned n) { return (int)sizeof(int) * 8 - 1 - __builtin_clz(n); }
inline constexpr long __lg(long n) { return (int)sizeof(long) * 8 - 1 - __builtin_clzl(n); }
inline constexpr unsigned long __lg(unsigned long n) { return (int)sizeof(long) * 8 - 1 - __builtin_clzl(n); }
inline constexpr long long __lg(long long n) { return (int)sizeof(long long) * 8 - 1 - __builtin_clzll(n); }
inline constexpr unsigned long long __lg(unsigned long long n) { return (int)sizeof(long long) * 8 - 1 - __builtin_clzll(n); }
// Removed in C++17, kept by libstdc++ in gnu++17. libc++'s own (behind a macro) draws from its
// own generator; libstdc++'s swaps element i with one drawn by rand() % (i + 1), i = 1, 2, …, so
// with glibc's rand() (glibc-rand.c) a program shuffles exactly as under g++.
template <typename It> void random_shuffle(It first, It last) {
  if (first == last) return;
  for (It i = first + 1; i != last; ++i) {
    It j = first + std::rand() % ((i - first) + 1);
    if (i != j) std::iter_swap(i, j);
  }
}
template <typename It, typename Generator> void random_shuffle(It first, It last, Generator&& draw) {
  if (first == last) return;
  for (It i = first + 1; i != last; ++i) {
    It j = first + draw((i - first) + 1);
    if (i != j) std::iter_swap(i, j);
  }
}
}
#endif
`;
/**
 * libstdc++'s <iostream> (like its container headers) brings <bits/stl_algobase.h>: under g++ a
 * program may call lower_bound, mismatch or lexicographical_compare after including only
 * <iostream>, the first line of every spliced program. libc++'s <iostream> (with its transitive
 * includes removed, see compileFlags) lacks these three; they are added from libc++'s own headers.
 */
const IOSTREAM = `#include_next <iostream>
#include <__algorithm/lexicographical_compare.h>
#include <__algorithm/lower_bound.h>
#include <__algorithm/mismatch.h>
`;

/**
 * libstdc++'s TR1 headers (std::tr1, pre-C++11 code) as the C++11 names they became: libc++ has
 * no <tr1/…>. The differences left (tr1::result_of's protocol, tr1's hash of float) do not show
 * in programs that only use the types.
 */
const tr1 = (header: string, names: string[], extra = '') =>
  `#pragma once\n#include <${header}>\nnamespace std { namespace tr1 {\n${names.map((n) => `using std::${n};\n`).join('')}${extra}} }\n`;
const TR1: Tree = {
  memory: tr1('memory', ['shared_ptr', 'weak_ptr', 'enable_shared_from_this', 'bad_weak_ptr', 'static_pointer_cast',
    'dynamic_pointer_cast', 'const_pointer_cast', 'get_deleter']),
  functional: tr1('functional', ['function', 'bind', 'ref', 'cref', 'mem_fn', 'hash', 'reference_wrapper',
    'bad_function_call', 'is_bind_expression', 'is_placeholder'], 'namespace placeholders { using namespace std::placeholders; }\n'),
  unordered_map: tr1('unordered_map', ['unordered_map', 'unordered_multimap', 'hash']),
  unordered_set: tr1('unordered_set', ['unordered_set', 'unordered_multiset', 'hash']),
  tuple: tr1('tuple', ['tuple', 'make_tuple', 'get', 'tie', 'ignore', 'tuple_size', 'tuple_element']),
  array: tr1('array', ['array', 'get']),
};

/** The part of SGI's function adaptors that libstdc++ still ships in <ext/functional>. */
const EXT_FUNCTIONAL = `#pragma once
#include <functional>
namespace __gnu_cxx {
template <class F, class G> struct unary_compose : std::unary_function<typename G::argument_type, typename F::result_type> {
  F f; G g;
  unary_compose(const F& f, const G& g) : f(f), g(g) {}
  typename F::result_type operator()(const typename G::argument_type& x) const { return f(g(x)); }
};
template <class F, class G> unary_compose<F, G> compose1(const F& f, const G& g) { return unary_compose<F, G>(f, g); }
template <class F, class G, class H> struct binary_compose : std::unary_function<typename G::argument_type, typename F::result_type> {
  F f; G g; H h;
  binary_compose(const F& f, const G& g, const H& h) : f(f), g(g), h(h) {}
  typename F::result_type operator()(const typename G::argument_type& x) const { return f(g(x), h(x)); }
};
template <class F, class G, class H> binary_compose<F, G, H> compose2(const F& f, const G& g, const H& h) { return binary_compose<F, G, H>(f, g, h); }
template <class T> struct identity : std::unary_function<T, T> { const T& operator()(const T& x) const { return x; } };
template <class P> struct select1st : std::unary_function<P, typename P::first_type> { const typename P::first_type& operator()(const P& p) const { return p.first; } };
template <class P> struct select2nd : std::unary_function<P, typename P::second_type> { const typename P::second_type& operator()(const P& p) const { return p.second; } };
}
`;

export const GXX_HEADERS: Tree = {
  benchtop: { include: { algorithm: ALGORITHM, iostream: IOSTREAM, bits: { 'stdc++.h': BITS_STDCXX }, tr1: TR1, ext: { functional: EXT_FUNCTIONAL } } },
};

/**
 * libc++ keeps what C++17 removed only when asked (g++ 12 keeps it in gnu++17 with a deprecation
 * warning): auto_ptr, bind1st/bind2nd/ptr_fun/mem_fun, unary_function/binary_function,
 * set_unexpected. random_shuffle is ALGORITHM's, with libstdc++'s draws.
 */
export const REMOVED_FEATURE_FLAGS = [
  '-D_LIBCPP_ENABLE_CXX17_REMOVED_AUTO_PTR', '-D_LIBCPP_ENABLE_CXX17_REMOVED_BINDERS',
  '-D_LIBCPP_ENABLE_CXX17_REMOVED_UNARY_BINARY_FUNCTION', '-D_LIBCPP_ENABLE_CXX17_REMOVED_UNEXPECTED_FUNCTIONS',
];

/**
 * A program that includes a libstdc++-only header this runtime does not supply (<ext/pb_ds/…>,
 * <tr1/random>, <bits/…> internals, …) compiles under g++ and not here: declined, so that the
 * router sends it to a runner instead of scoring a compile error g++ would not give. An #include
 * line is unambiguous, so the check is reliable; null when every include is served.
 */
export function libstdcxxDecline(program: string): string | null {
  for (const m of program.matchAll(/^[ \t]*#[ \t]*include[ \t]*<((?:tr1|ext|bits|tr2|debug|parallel|profile)\/[^>]+)>/gm)) {
    const header = m[1]!;
    if (!served(header)) return `includes <${header}>, a libstdc++ header that libc++ lacks`;
  }
  return null;
}

function served(header: string): boolean {
  let node: Tree | string | Uint8Array | undefined = GXX_HEADERS.benchtop;
  for (const part of ['include', ...header.split('/')]) node = typeof node === 'object' && !(node instanceof Uint8Array) ? node[part] : undefined;
  return typeof node === 'string';
}
