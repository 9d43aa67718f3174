/**
 * The official g++ runs on x86-64 (LP64: 64-bit `long`, `size_t` and pointers); our clang targets
 * wasm32 (ILP32) and no wasm64 libc++ sysroot exists on npm (@yowasp/clang ships wasm32-wasip1
 * only). So the program's own text (never the library headers) is rewritten to give `long` its
 * 64 bits, and the programs whose verdict could still depend on the pointer width are declined:
 *
 *   - `long` (alone or with unsigned/signed/int) becomes `long long`; `long long` and
 *     `long double` stay. Literal suffixes L/UL become LL/ULL; LONG_MAX, LONG_MIN, ULONG_MAX and
 *     the long-taking library functions (stol, atol, strtol, labs, __builtin_clzl, …) become their
 *     long long forms; printf/scanf conversions %ld/%lu/… in string literals become %lld/%llu/….
 *   - declined (lp64Decline): pointer↔integer conversions (uintptr_t, intptr_t, reinterpret_cast
 *     to an integer), sizeof of a pointer or of size_t, size_t's maximum (SIZE_MAX, (size_t)-1,
 *     numeric_limits<size_t>), and a statement that mixes size_t with a constant of 2^32 or more
 *     or with a shift by 32 or more.
 *
 * Not sound in general (docs/fidelity.md): size_t arithmetic that wraps at 2^32 without such a
 * constant (a hash accumulated in a size_t), sizeof of a struct holding pointers, and a program
 * that overloads or specialises on both `long` and `long long` are not recognised.
 */

type Token = { kind: 'id' | 'num' | 'str' | 'chr' | 'punct' | 'space'; text: string };

/** Splits C++ source into tokens, keeping every character (comments and spaces as 'space'). */
function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i]!;
    const start = i;
    if (c === '/' && source[i + 1] === '/') {
      while (i < n && source[i] !== '\n') i++;
      tokens.push({ kind: 'space', text: source.slice(start, i) });
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      tokens.push({ kind: 'space', text: source.slice(start, i) });
    } else if (/\s/.test(c)) {
      while (i < n && /\s/.test(source[i]!)) i++;
      tokens.push({ kind: 'space', text: source.slice(start, i) });
    } else if (/[A-Za-z_]/.test(c)) {
      while (i < n && /\w/.test(source[i]!)) i++;
      const word = source.slice(start, i);
      // A raw string: R"delim( … )delim", with an optional encoding prefix.
      const raw = /^(?:u8|u|U|L)?R$/.test(word) && source[i] === '"' ? /^"([^()\\\s]{0,16})\(/.exec(source.slice(i)) : null;
      if (raw) {
        const close = source.indexOf(`)${raw[1]}"`, i + raw[0].length);
        i = close < 0 ? n : close + raw[1]!.length + 2;
        tokens.push({ kind: 'str', text: source.slice(start, i) });
      } else if (/^(?:u8|u|U|L)$/.test(word) && (source[i] === '"' || source[i] === "'")) {
        i = quoted(source, i);
        tokens.push({ kind: source[start + word.length] === '"' ? 'str' : 'chr', text: source.slice(start, i) });
      } else tokens.push({ kind: 'id', text: word });
    } else if (/\d/.test(c) || (c === '.' && /\d/.test(source[i + 1] ?? ''))) {
      // A pp-number: digits, letters, dots, digit separators, signed exponents.
      i++;
      while (i < n) {
        const d = source[i]!;
        if (/[eEpP]/.test(d) && /[+-]/.test(source[i + 1] ?? '')) i += 2;
        else if (/[\w.]/.test(d) || (d === "'" && /\w/.test(source[i + 1] ?? ''))) i++;
        else break;
      }
      tokens.push({ kind: 'num', text: source.slice(start, i) });
    } else if (c === '"' || c === "'") {
      i = quoted(source, i);
      tokens.push({ kind: c === '"' ? 'str' : 'chr', text: source.slice(start, i) });
    } else {
      i++;
      tokens.push({ kind: 'punct', text: c });
    }
  }
  return tokens;
}

/** The index just past the string or character literal that starts at `i`. */
function quoted(source: string, i: number): number {
  const quote = source[i];
  i++;
  while (i < source.length && source[i] !== quote && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, source.length);
}

/** A printf/scanf conversion of a long: %ld, %-8lu, %lx, … (not %lld, not %lf). */
const LONG_CONVERSION_SOURCE = String.raw`%([-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?)l(?!l)([diouxXn])`;
const LONG_CONVERSION = new RegExp(LONG_CONVERSION_SOURCE);
const LONG_CONVERSION_ALL = new RegExp(LONG_CONVERSION_SOURCE, 'g');

const RENAMES: Readonly<Record<string, string>> = {
  LONG_MAX: 'LLONG_MAX', LONG_MIN: 'LLONG_MIN', ULONG_MAX: 'ULLONG_MAX',
  stol: 'stoll', stoul: 'stoull', atol: 'atoll', strtol: 'strtoll', strtoul: 'strtoull', labs: 'llabs', ldiv: 'lldiv',
  __builtin_clzl: '__builtin_clzll', __builtin_ctzl: '__builtin_ctzll', __builtin_popcountl: '__builtin_popcountll',
  __builtin_ffsl: '__builtin_ffsll', __builtin_parityl: '__builtin_parityll', __builtin_labs: '__builtin_llabs',
};

/** The program with 64-bit `long` (see the file's comment), or why it cannot be judged here. */
export function toLP64(program: string): { program: string } | { declined: string } {
  const tokens = tokenize(program);
  const significant = tokens.filter((t) => t.kind !== 'space');
  const declined = lp64Decline(significant);
  if (declined) return { declined };
  for (let k = 0; k < significant.length; k++) {
    const t = significant[k]!;
    const prev = significant[k - 1]?.text;
    const next = significant[k + 1]?.text;
    if (t.kind === 'id' && t.text === 'long') {
      if (prev !== 'long' && next !== 'long' && next !== 'double' && prev !== 'double') t.text = 'long long';
    } else if (t.kind === 'id' && Object.hasOwn(RENAMES, t.text)) {
      t.text = RENAMES[t.text]!;
    } else if (t.kind === 'num') {
      t.text = widenLiteral(t.text);
    } else if (t.kind === 'str') {
      t.text = t.text.replace(LONG_CONVERSION_ALL, '%$1ll$2');
    }
  }
  return { program: tokens.map((t) => t.text).join('') };
}

/** An integer literal's L suffix becomes LL (1L → 1LL, 2UL → 2ULL); floating literals keep theirs. */
function widenLiteral(text: string): string {
  const hex = /^0[xX]/.test(text);
  if (!hex && /[.eEpP]/.test(text)) return text;
  return text.replace(/^([^uUlL]*?)(?:([uU]?)([lL])(?![lL])([uU]?))$/, (_, digits: string, u1: string, l: string, u2: string) => `${digits}${u1}${l}${l}${u2}`);
}

const INTEGER_TYPES = new Set(['long', 'int', 'unsigned', 'signed', 'short', 'size_t', 'uint64_t', 'int64_t', 'uint32_t', 'int32_t', 'uintptr_t', 'intptr_t', 'ptrdiff_t', 'ssize_t', 'char']);
const SIZE_TYPES = new Set(['size_t', 'ptrdiff_t', 'ssize_t', 'uintptr_t', 'intptr_t']);

/** Why a program's verdict may depend on 32-bit pointers or size_t, or null. */
function lp64Decline(tokens: Token[]): string | null {
  const at = (k: number) => tokens[k]?.text ?? '';
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind !== 'id') continue;
    if (t.text === 'uintptr_t' || t.text === 'intptr_t') return `converts pointers to integers (${t.text})`;
    if (t.text === 'SIZE_MAX') return 'uses SIZE_MAX (2^32-1 here, 2^64-1 under g++ on x86-64)';
    if (t.text === 'reinterpret_cast' && at(k + 1) === '<') {
      let j = k + 2;
      while (at(j) === 'std' || at(j) === ':' || at(j) === 'const') j++;
      if (INTEGER_TYPES.has(at(j)) && at(j + 1) !== '*' && at(j + 1) !== '&') return 'converts a pointer to an integer (reinterpret_cast)';
    }
    if (t.text === 'sizeof' && at(k + 1) === '(') {
      const inner: string[] = [];
      for (let j = k + 2, depth = 1; j < tokens.length && depth > 0; j++) {
        if (at(j) === '(') depth++;
        if (at(j) === ')') depth--;
        if (depth > 0) inner.push(at(j));
      }
      if (inner.includes('*') && !inner.some((x) => /^\w/.test(x) && !isTypeWord(x))) return 'measures a pointer with sizeof (4 bytes here, 8 under g++)';
      if (inner.some((x) => SIZE_TYPES.has(x))) return 'measures size_t with sizeof (4 bytes here, 8 under g++)';
    }
    if (t.text === 'numeric_limits' && at(k + 1) === '<') {
      const arg = at(k + 2) === 'std' ? at(k + 5) : at(k + 2);
      if (SIZE_TYPES.has(arg)) return `uses numeric_limits<${arg}> (32 bits here, 64 under g++)`;
    }
    if (SIZE_TYPES.has(t.text)) {
      // (size_t)-1, size_t(-1), ~size_t(0): the type's maximum.
      if (at(k + 1) === ')' && at(k + 2) === '-') return `converts -1 to ${t.text} (its maximum differs)`;
      if (at(k + 1) === '(' && at(k + 2) === '-') return `converts -1 to ${t.text} (its maximum differs)`;
      if (at(k - 1) === '~') return `complements a ${t.text} (its maximum differs)`;
    }
  }
  // Statement by statement: size_t arithmetic that wraps at 2^32 here but not at 2^64 (size_t and
  // a wide constant), and a %l conversion that may print a size (rewritten to %ll it would read
  // 8 bytes of a 4-byte size_t; left alone it would read 4 bytes of a widened long).
  const sizeVariables = new Set<string>();
  for (let k = 0; k + 1 < tokens.length; k++) {
    if (SIZE_TYPES.has(at(k)) && tokens[k + 1]!.kind === 'id') sizeVariables.add(at(k + 1));
  }
  let statement: Token[] = [];
  for (const t of [...tokens, { kind: 'punct', text: ';' } as Token]) {
    if (t.text === ';' || t.text === '{' || t.text === '}') {
      const reason = wideSizeStatement(statement) ?? sizeFormatStatement(statement) ?? sizeHashStatement(statement, sizeVariables);
      if (reason) return reason;
      statement = [];
    } else statement.push(t);
  }
  return null;
}

/** h = h * 31 + c, h *= p, h ^= h << 5 on a size_t: a hash that wraps at 2^32 here, at 2^64 under g++. */
function sizeHashStatement(statement: Token[], sizeVariables: Set<string>): string | null {
  const text = statement.map((t) => t.text);
  for (let k = 0; k < text.length; k++) {
    if (!sizeVariables.has(text[k]!) || statement[k]!.kind !== 'id') continue;
    const op = text.slice(k + 1, k + 4).join('');
    if (/^(\*=|<<=)/.test(op)) return `multiplies or shifts the size_t ${text[k]} in place (it wraps at 2^32 here, 2^64 under g++)`;
    if (/^[+^|]?=(?!=)/.test(op)) {
      const rhs = text.slice(k + 2);
      if (rhs.includes(text[k]!) && (rhs.includes('*') || rhs.join('').includes('<<'))) return `accumulates the size_t ${text[k]} with a multiplication or shift (it wraps at 2^32 here, 2^64 under g++)`;
    }
  }
  return null;
}

const SIZE_RESULTS = new Set(['size', 'length', 'sizeof', 'count', 'distance', 'find', 'rfind', 'npos', 'capacity', 'size_t', 'ptrdiff_t', 'ssize_t']);
function sizeFormatStatement(statement: Token[]): string | null {
  const format = statement.some((t) => t.kind === 'str' && LONG_CONVERSION.test(t.text));
  if (format && statement.some((t) => t.kind === 'id' && SIZE_RESULTS.has(t.text))) return 'prints a size with a %l conversion (size_t is 32 bits here, 64 under g++)';
  return null;
}

function isTypeWord(word: string): boolean {
  return INTEGER_TYPES.has(word) || ['void', 'const', 'std', 'float', 'double', 'bool', 'string', 'volatile'].includes(word) || /^[A-Z]/.test(word);
}

function wideSizeStatement(statement: Token[]): string | null {
  if (!statement.some((t) => t.kind === 'id' && SIZE_TYPES.has(t.text))) return null;
  for (let k = 0; k < statement.length; k++) {
    const t = statement[k]!;
    if (t.kind !== 'num') continue;
    const value = integerValue(t.text);
    if (value === null) continue;
    const shift = statement[k - 1]?.text === '<' && statement[k - 2]?.text === '<';
    if (value >= 2n ** 32n || (shift && value >= 32n)) return 'computes with size_t beyond 32 bits (size_t is 32 bits here, 64 under g++)';
  }
  return null;
}

function integerValue(text: string): bigint | null {
  const digits = text.replace(/'/g, '').replace(/[uUlLzZ]+$/, '');
  if (/^0[xX][0-9a-fA-F]+$/.test(digits) || /^0[bB][01]+$/.test(digits) || /^[1-9]\d*$|^0$/.test(digits)) return BigInt(digits);
  if (/^0[0-7]+$/.test(digits)) return BigInt('0o' + digits.slice(1));
  return null;
}
