/**
 * `bc`, the arbitrary-precision calculator that the official sandbox's image has and just-bash
 * lacks. Written for benchtop after GNU bc 1.07's documented behaviour (and checked against it,
 * tests/integration/runtime-shell.test.ts): decimal numbers of any size with bc's scale rules
 * (sum: the larger scale; product: min(a+b, max(scale, a, b)); quotient: `scale`; truncation,
 * never rounding), `scale`/`ibase`/`obase`/`last`, variables, arrays, `define`d functions with
 * `auto`, if/else, while, for, break, continue, return, print and strings, `quit` (when read) and
 * `halt`, comments, the built-ins length/scale/sqrt, and `-l`'s s c a l e j (scale 20).
 * Output as GNU prints it: ".5" without a leading zero, lines cut at 70 characters with a
 * backslash, other output bases. Errors are reported like GNU's ("(standard_in) 2: syntax error",
 * "Runtime error (func=(main), adr=0): Divide by zero") and bc still exits 0. Not implemented:
 * read(), the POSIX -s/-w checks, array references (`*a[]`).
 */

// ---------------------------------------------------------------------------------------------
// Numbers: value = n / 10^s (s ≥ 0), n a BigInt; every operation truncates toward zero.

interface Num {
  n: bigint;
  s: number;
}

const powCache: bigint[] = [];
function p10(k: number): bigint {
  if (k < 64) return (powCache[k] ??= 10n ** BigInt(k));
  return 10n ** BigInt(k);
}
const num = (n: bigint, s = 0): Num => ({ n, s });
const ZERO = num(0n);
const ONE = num(1n);

function rescale(a: Num, s: number): Num {
  if (s === a.s) return a;
  return s > a.s ? num(a.n * p10(s - a.s), s) : num(a.n / p10(a.s - s), s);
}
function add(a: Num, b: Num): Num {
  const s = Math.max(a.s, b.s);
  return num(rescale(a, s).n + rescale(b, s).n, s);
}
function neg(a: Num): Num {
  return num(-a.n, a.s);
}
function sub(a: Num, b: Num): Num {
  return add(a, neg(b));
}
function mul(a: Num, b: Num, scale: number): Num {
  const full = num(a.n * b.n, a.s + b.s);
  return rescale(full, Math.min(a.s + b.s, Math.max(scale, a.s, b.s)));
}
function div(a: Num, b: Num, scale: number): Num {
  if (b.n === 0n) throw new BcRuntimeError('Divide by zero');
  return num((a.n * p10(b.s + scale)) / (b.n * p10(a.s)), scale);
}
function mod(a: Num, b: Num, scale: number): Num {
  const q = div(a, b, scale);
  return sub(a, num(q.n * b.n, q.s + b.s));
}
function cmp(a: Num, b: Num): number {
  const s = Math.max(a.s, b.s);
  const x = rescale(a, s).n;
  const y = rescale(b, s).n;
  return x < y ? -1 : x > y ? 1 : 0;
}
const isZero = (a: Num) => a.n === 0n;
function toInt(a: Num): bigint {
  return a.n / p10(a.s);
}
function toSmallInt(a: Num): number {
  const i = toInt(a);
  if (i > 2n ** 31n || i < -(2n ** 31n)) throw new BcRuntimeError('Value too large');
  return Number(i);
}

function power(a: Num, b: Num, scale: number, warn: (m: string) => void): Num {
  if (b.s !== 0 && b.n % p10(b.s) !== 0n) warn('non-zero scale in exponent');
  const e = toInt(b);
  if (e === 0n) return ONE;
  if (e < 0n) {
    const positive = num(a.n ** -e, a.s * Number(-e));
    return div(ONE, positive, scale);
  }
  if (e > 1_000_000n) throw new BcRuntimeError('exponent too large in raise');
  const k = Number(e);
  return rescale(num(a.n ** e, a.s * k), Math.min(a.s * k, Math.max(scale, a.s)));
}

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  // Newton's method from above: decreases to floor(sqrt(n))
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2) + 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}
function sqrt(a: Num, scale: number): Num {
  if (a.n < 0n) throw new BcRuntimeError('Square root of a negative number');
  const s = Math.max(scale, a.s);
  return num(isqrt(a.n * p10(2 * s - a.s)), s);
}

function length(a: Num): number {
  if (a.n === 0n) return a.s === 0 ? 1 : a.s;
  const digits = (a.n < 0n ? -a.n : a.n).toString().length;
  return Math.max(digits, a.s);
}

// ---------------------------------------------------------------------------------------------
// The -l math library, computed with guard digits and truncated to `scale`, as libmath's
// functions are (they work at a higher scale, then divide by 1).

function expSeries(x: Num, s: number): Num {
  // e^x for |x| small: sum x^k / k!
  let term = rescale(ONE, s);
  let sum = term;
  for (let k = 1n; ; k++) {
    term = div(mul(term, x, s), num(k), s);
    if (isZero(term)) return sum;
    sum = add(sum, term);
  }
}
function mathExp(x: Num, scale: number): Num {
  const s = scale + 10 + Math.ceil(Math.abs(Number(toInt(x))) * 0.45);
  let v = rescale(x, s);
  const negative = v.n < 0n;
  if (negative) v = neg(v);
  // halve until below 1, then square back
  let halvings = 0;
  while (cmp(v, ONE) > 0) {
    v = div(v, num(2n), s);
    halvings++;
  }
  let r = expSeries(v, s);
  for (let i = 0; i < halvings; i++) r = mul(r, r, s);
  if (negative) r = div(ONE, r, s);
  return rescale(r, scale);
}
function mathLn(x: Num, scale: number): Num {
  if (x.n <= 0n) throw new BcRuntimeError(x.n === 0n ? 'Divide by zero' : 'Square root of a negative number');
  const s = scale + 10;
  let v = rescale(x, s);
  // bring v near 1 by square roots: ln(v) = 2^k ln(v^(1/2^k))
  let factor = 2n;
  let k = 0n;
  const lo = num(5n, 1);
  const hi = num(15n, 1);
  while (cmp(v, hi) > 0 || cmp(v, lo) < 0) {
    v = sqrt(v, s);
    k++;
  }
  // ln(v) = 2 atanh((v-1)/(v+1)) = 2 (u + u^3/3 + u^5/5 + ...)
  const u = div(sub(v, ONE), add(v, ONE), s);
  const u2 = mul(u, u, s);
  let term = u;
  let sum = u;
  for (let n = 3n; ; n += 2n) {
    term = mul(term, u2, s);
    const t = div(term, num(n), s);
    if (isZero(t)) break;
    sum = add(sum, t);
  }
  factor = 2n ** (k + 1n);
  return rescale(mul(sum, num(factor), s), scale);
}
function mathSin(x: Num, scale: number, cosine = false): Num {
  const s = scale + 10;
  const pi = mathPi(s);
  let v = rescale(x, s);
  // reduce to [-pi, pi]
  const twoPi = mul(pi, num(2n), s);
  const turns = toInt(div(v, twoPi, 0));
  v = sub(v, mul(twoPi, num(turns), s));
  if (cmp(v, pi) > 0) v = sub(v, twoPi);
  if (cmp(v, neg(pi)) < 0) v = add(v, twoPi);
  const v2 = mul(v, v, s);
  // sin: v - v^3/3! + ...; cos: 1 - v^2/2! + ...
  let term = cosine ? rescale(ONE, s) : v;
  let sum = term;
  for (let n = cosine ? 1n : 2n; ; n += 2n) {
    term = neg(div(mul(term, v2, s), num(n * (n + 1n)), s));
    if (isZero(term)) break;
    sum = add(sum, term);
  }
  return rescale(sum, scale);
}
function atanSmall(v: Num, s: number): Num {
  const v2 = mul(v, v, s);
  let term = v;
  let sum = v;
  for (let n = 3n; ; n += 2n) {
    term = neg(mul(term, v2, s));
    const t = div(term, num(n), s);
    if (isZero(t)) break;
    sum = add(sum, t);
  }
  return sum;
}
function mathAtan(x: Num, scale: number): Num {
  const s = scale + 10;
  let v = rescale(x, s);
  const negative = v.n < 0n;
  if (negative) v = neg(v);
  let r: Num;
  if (cmp(v, ONE) > 0) r = sub(div(mathPi(s), num(2n), s), atanReduced(div(ONE, v, s), s));
  else r = atanReduced(v, s);
  if (negative) r = neg(r);
  return rescale(r, scale);
}
function atanReduced(v: Num, s: number): Num {
  // atan(v) = 2 atan(v / (1 + sqrt(1 + v^2))) until v is small
  let doublings = 0;
  while (cmp(v, num(2n, 1)) > 0) {
    v = div(v, add(ONE, sqrt(add(ONE, mul(v, v, s)), s)), s);
    doublings++;
  }
  let r = atanSmall(v, s);
  for (let i = 0; i < doublings; i++) r = mul(r, num(2n), s);
  return r;
}
const piCache = new Map<number, Num>();
function mathPi(s: number): Num {
  let pi = piCache.get(s);
  if (!pi) {
    // Machin: pi = 16 atan(1/5) - 4 atan(1/239)
    const w = s + 5;
    pi = rescale(sub(mul(num(16n), atanSmall(div(ONE, num(5n), w), w), w), mul(num(4n), atanSmall(div(ONE, num(239n), w), w), w)), s);
    piCache.set(s, pi);
  }
  return pi;
}
function mathBessel(nArg: Num, x: Num, scale: number): Num {
  // J_n(x) = sum_k (-1)^k (x/2)^(2k+n) / (k! (k+n)!)
  const s = scale + 10;
  let n = toInt(nArg);
  let sign = 1n;
  if (n < 0n) {
    n = -n;
    if (n % 2n === 1n) sign = -1n;
  }
  const half = div(rescale(x, s), num(2n), s);
  let nFactorial = 1n;
  for (let i = 2n; i <= n; i++) nFactorial *= i;
  let term = div(power(half, num(n), s, () => {}), num(nFactorial), s);
  let sum = term;
  const h2 = mul(half, half, s);
  for (let k = 1n; ; k++) {
    term = neg(div(mul(term, h2, s), num(k * (k + n)), s));
    if (isZero(term)) break;
    sum = add(sum, term);
  }
  return rescale(num(sum.n * sign, sum.s), scale);
}

// ---------------------------------------------------------------------------------------------
// Output

const LINE_LENGTH = 70;
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function formatNumber(a: Num, obase: number): string {
  if (a.n === 0n) return '0';
  const negative = a.n < 0n;
  const abs = negative ? -a.n : a.n;
  let text: string;
  if (obase === 10) {
    const digits = abs.toString().padStart(a.s + 1, '0');
    const int = digits.slice(0, digits.length - a.s).replace(/^0+$/, '');
    text = a.s > 0 ? `${int}.${digits.slice(digits.length - a.s)}` : int;
  } else {
    text = formatInBase(abs, a.s, obase);
  }
  return (negative ? '-' : '') + text;
}

function formatInBase(abs: bigint, s: number, obase: number): string {
  const base = BigInt(obase);
  // bases up to 16 use one character per digit; larger ones print each digit in decimal,
  // zero-padded, after a space (the first fraction digit has none)
  const width = (obase - 1).toString().length;
  const digit = (d: bigint, space: boolean) => (obase <= 16 ? DIGITS[Number(d)]! : `${space ? ' ' : ''}${d.toString().padStart(width, '0')}`);
  let int = abs / p10(s);
  let text = '';
  while (int > 0n) {
    text = digit(int % base, true) + text;
    int /= base;
  }
  if (s > 0) {
    // fraction digits while obase^k has no more digits than the scale (GNU's out_num)
    let frac = num(abs % p10(s), s);
    let place = 1n;
    text += '.';
    let first = true;
    while (place.toString().length <= s) {
      frac = mul(frac, num(base), s);
      const d = toInt(frac);
      frac = sub(frac, num(d));
      text += digit(d, !first);
      first = false;
      place *= base;
    }
  }
  return text || '0';
}

/** Cuts a printed number into lines of LINE_LENGTH - 2 characters and a backslash. */
function wrap(text: string, column: number): { text: string; column: number } {
  let out = '';
  let col = column;
  for (const ch of text) {
    if (col >= LINE_LENGTH - 2) {
      out += '\\\n';
      col = 0;
    }
    out += ch;
    col++;
  }
  return { text: out, column: col };
}

// ---------------------------------------------------------------------------------------------
// Lexer

type TokenType = 'num' | 'name' | 'str' | 'op' | 'nl' | 'eof';
interface Token {
  type: TokenType;
  value: string;
  line: number;
}

const KEYWORDS = new Set(['define', 'auto', 'return', 'if', 'else', 'while', 'for', 'break', 'continue', 'quit', 'halt', 'print', 'length', 'sqrt', 'scale', 'ibase', 'obase', 'last', 'read', 'limits', 'warranty']);
const OPERATORS = ['++', '--', '+=', '-=', '*=', '/=', '%=', '^=', '==', '!=', '<=', '>=', '&&', '||', '+', '-', '*', '/', '%', '^', '=', '<', '>', '!', '(', ')', '[', ']', '{', '}', ',', ';'];

class BcSyntaxError extends Error {}
class BcRuntimeError extends Error {}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\' && source[i + 1] === '\n') {
      i += 2;
      line++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '\n') {
      // GNU counts the line as ended once it has read the newline: errors there name the next one
      tokens.push({ type: 'nl', value: '\n', line: line + 1 });
      line++;
      i++;
      continue;
    }
    if (c === '#') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? source.length : end + 2;
      for (let j = i; j < stop; j++) if (source[j] === '\n') line++;
      i = stop;
      continue;
    }
    if (c === '"') {
      const end = source.indexOf('"', i + 1);
      const stop = end < 0 ? source.length : end;
      const value = source.slice(i + 1, stop);
      tokens.push({ type: 'str', value, line });
      for (const ch of value) if (ch === '\n') line++;
      i = stop + 1;
      continue;
    }
    if (/[0-9A-Z.]/.test(c)) {
      let j = i;
      while (j < source.length && (/[0-9A-Z]/.test(source[j]!) || (source[j] === '\\' && source[j + 1] === '\n'))) j += source[j] === '\\' ? 2 : 1;
      if (source[j] === '.') {
        j++;
        while (j < source.length && (/[0-9A-Z]/.test(source[j]!) || (source[j] === '\\' && source[j + 1] === '\n'))) j += source[j] === '\\' ? 2 : 1;
      }
      const text = source.slice(i, j).replace(/\\\n/g, '');
      tokens.push({ type: text === '.' ? 'name' : 'num', value: text === '.' ? 'last' : text, line });
      i = j;
      continue;
    }
    if (/[a-z_]/.test(c)) {
      let j = i;
      while (j < source.length && /[a-z0-9_]/.test(source[j]!)) j++;
      tokens.push({ type: 'name', value: source.slice(i, j), line });
      i = j;
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (!op) throw Object.assign(new BcSyntaxError(`illegal character: ${c}`), { line });
    tokens.push({ type: 'op', value: op, line });
    i += op.length;
  }
  tokens.push({ type: 'eof', value: '', line });
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// Parser → AST

type Expr =
  | { k: 'num'; text: string }
  | { k: 'var'; name: string }
  | { k: 'elem'; name: string; index: Expr }
  | { k: 'special'; name: 'scale' | 'ibase' | 'obase' | 'last' }
  | { k: 'assign'; op: string; target: Expr; value: Expr }
  | { k: 'incdec'; op: '++' | '--'; prefix: boolean; target: Expr }
  | { k: 'bin'; op: string; left: Expr; right: Expr }
  | { k: 'neg'; value: Expr }
  | { k: 'not'; value: Expr }
  | { k: 'call'; name: string; args: Expr[] }
  | { k: 'builtin'; name: 'length' | 'sqrt' | 'scale'; arg: Expr };

type Stmt =
  | { k: 'expr'; expr: Expr }
  | { k: 'str'; value: string }
  | { k: 'print'; items: Array<Expr | string> }
  | { k: 'block'; body: Stmt[] }
  | { k: 'if'; cond: Expr; then: Stmt; else?: Stmt }
  | { k: 'while'; cond: Expr; body: Stmt }
  | { k: 'for'; init?: Expr; cond?: Expr; step?: Expr; body: Stmt }
  | { k: 'break' }
  | { k: 'continue' }
  | { k: 'return'; value?: Expr }
  | { k: 'halt' }
  | { k: 'empty' };

interface FunctionDef {
  params: Array<{ name: string; array: boolean }>;
  autos: Array<{ name: string; array: boolean }>;
  body: Stmt[];
}

/** Thrown when `quit` is read: bc stops at once (even inside an `if` that would not run). */
class Quit extends Error {}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  get line(): number {
    return this.peek().line;
  }
  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)]!;
  }
  private next(): Token {
    const t = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos++;
    return t;
  }
  private is(value: string, type: TokenType = 'op'): boolean {
    const t = this.peek();
    return t.type === type && t.value === value;
  }
  private accept(value: string, type: TokenType = 'op'): boolean {
    if (this.is(value, type)) {
      this.next();
      return true;
    }
    return false;
  }
  private expect(value: string, type: TokenType = 'op'): void {
    if (!this.accept(value, type)) this.fail();
  }
  private fail(): never {
    throw Object.assign(new BcSyntaxError('syntax error'), { line: this.peek().line });
  }
  private skipNewlines(): void {
    while (this.peek().type === 'nl') this.next();
  }
  atEnd(): boolean {
    return this.peek().type === 'eof';
  }
  /** After a syntax error: skip the rest of the line. */
  recover(): void {
    while (this.peek().type !== 'nl' && this.peek().type !== 'eof') this.next();
    if (this.peek().type === 'nl') this.next();
  }

  /**
   * The next unit that bc runs as a whole: the statements up to the end of a line (a runtime
   * error abandons the rest of its unit), or a function definition.
   */
  unit(): { statements: Stmt[]; define?: [string, FunctionDef] } {
    const statements: Stmt[] = [];
    for (;;) {
      const t = this.peek();
      if (t.type === 'eof') return { statements };
      if (t.type === 'nl') {
        this.next();
        if (statements.length) return { statements };
        continue;
      }
      if (t.type === 'op' && t.value === ';') {
        this.next();
        continue;
      }
      if (t.type === 'name' && t.value === 'define') {
        if (statements.length) return { statements };
        return { statements: [], define: this.define() };
      }
      statements.push(this.statement());
    }
  }

  private define(): [string, FunctionDef] {
    this.expect('define', 'name');
    const name = this.next();
    if (name.type !== 'name' || KEYWORDS.has(name.value)) this.fail();
    this.expect('(');
    const params = this.isListEnd(')') ? [] : this.nameList();
    this.expect(')');
    this.skipNewlines();
    this.expect('{');
    const body: Stmt[] = [];
    let autos: FunctionDef['autos'] = [];
    for (;;) {
      this.skipSeparators();
      if (this.accept('}')) break;
      if (this.peek().type === 'eof') this.fail();
      if (this.accept('auto', 'name')) {
        autos = autos.concat(this.nameList());
        continue;
      }
      body.push(this.statement());
    }
    return [name.value, { params, autos, body }];
  }
  private isListEnd(value: string): boolean {
    return this.is(value);
  }
  private nameList(): Array<{ name: string; array: boolean }> {
    const names: Array<{ name: string; array: boolean }> = [];
    do {
      const t = this.next();
      if (t.type !== 'name' || KEYWORDS.has(t.value)) this.fail();
      let array = false;
      if (this.accept('[')) {
        this.expect(']');
        array = true;
      }
      names.push({ name: t.value, array });
    } while (this.accept(','));
    return names;
  }
  private skipSeparators(): void {
    while (this.peek().type === 'nl' || this.is(';')) this.next();
  }

  statement(): Stmt {
    const t = this.peek();
    if (t.type === 'str') {
      this.next();
      return { k: 'str', value: t.value };
    }
    if (t.type === 'op' && t.value === '{') {
      this.next();
      const body: Stmt[] = [];
      for (;;) {
        this.skipSeparators();
        if (this.accept('}')) break;
        if (this.peek().type === 'eof') this.fail();
        body.push(this.statement());
      }
      return { k: 'block', body };
    }
    if (t.type === 'name') {
      switch (t.value) {
        case 'quit':
          throw new Quit();
        case 'halt':
          this.next();
          return { k: 'halt' };
        case 'break':
          this.next();
          return { k: 'break' };
        case 'continue':
          this.next();
          return { k: 'continue' };
        case 'return': {
          this.next();
          if (this.peek().type === 'nl' || this.is(';') || this.is('}') || this.peek().type === 'eof') return { k: 'return' };
          return { k: 'return', value: this.expression() };
        }
        case 'print': {
          this.next();
          const items: Array<Expr | string> = [];
          do {
            const item = this.peek();
            if (item.type === 'str') {
              this.next();
              items.push(item.value);
            } else items.push(this.expression());
          } while (this.accept(','));
          return { k: 'print', items };
        }
        case 'if': {
          this.next();
          this.expect('(');
          const cond = this.expression();
          this.expect(')');
          this.skipNewlines();
          const then = this.optionalStatement();
          const save = this.pos;
          this.skipNewlines();
          if (this.accept('else', 'name')) {
            this.skipNewlines();
            return { k: 'if', cond, then, else: this.optionalStatement() };
          }
          this.pos = save;
          return { k: 'if', cond, then };
        }
        case 'while': {
          this.next();
          this.expect('(');
          const cond = this.expression();
          this.expect(')');
          this.skipNewlines();
          return { k: 'while', cond, body: this.optionalStatement() };
        }
        case 'for': {
          this.next();
          this.expect('(');
          const init = this.is(';') ? undefined : this.expression();
          this.expect(';');
          const cond = this.is(';') ? undefined : this.expression();
          this.expect(';');
          const step = this.is(')') ? undefined : this.expression();
          this.expect(')');
          this.skipNewlines();
          return { k: 'for', init, cond, step, body: this.optionalStatement() };
        }
        default:
      }
    }
    return { k: 'expr', expr: this.expression() };
  }
  private optionalStatement(): Stmt {
    if (this.is(';')) {
      this.next();
      return { k: 'empty' };
    }
    return this.statement();
  }

  // Precedence, lowest first: || && ! relational assignment +- */% ^ unary- ++--
  expression(): Expr {
    return this.orExpr();
  }
  private orExpr(): Expr {
    let left = this.andExpr();
    while (this.accept('||')) left = { k: 'bin', op: '||', left, right: this.andExpr() };
    return left;
  }
  private andExpr(): Expr {
    let left = this.notExpr();
    while (this.accept('&&')) left = { k: 'bin', op: '&&', left, right: this.notExpr() };
    return left;
  }
  private notExpr(): Expr {
    if (this.accept('!')) return { k: 'not', value: this.notExpr() };
    return this.relExpr();
  }
  private relExpr(): Expr {
    let left = this.assignExpr();
    for (;;) {
      const t = this.peek();
      if (t.type === 'op' && ['<', '<=', '>', '>=', '==', '!='].includes(t.value)) {
        this.next();
        left = { k: 'bin', op: t.value, left, right: this.assignExpr() };
      } else return left;
    }
  }
  private assignExpr(): Expr {
    const start = this.pos;
    const target = this.addExpr();
    const t = this.peek();
    if (t.type === 'op' && ['=', '+=', '-=', '*=', '/=', '%=', '^='].includes(t.value)) {
      if (target.k !== 'var' && target.k !== 'elem' && target.k !== 'special') {
        this.pos = start;
        this.fail();
      }
      this.next();
      return { k: 'assign', op: t.value, target, value: this.assignExpr() };
    }
    return target;
  }
  private addExpr(): Expr {
    let left = this.mulExpr();
    for (;;) {
      if (this.accept('+')) left = { k: 'bin', op: '+', left, right: this.mulExpr() };
      else if (this.accept('-')) left = { k: 'bin', op: '-', left, right: this.mulExpr() };
      else return left;
    }
  }
  private mulExpr(): Expr {
    let left = this.powExpr();
    for (;;) {
      const t = this.peek();
      if (t.type === 'op' && (t.value === '*' || t.value === '/' || t.value === '%')) {
        this.next();
        left = { k: 'bin', op: t.value, left, right: this.powExpr() };
      } else return left;
    }
  }
  private powExpr(): Expr {
    const base = this.unaryExpr();
    if (this.accept('^')) return { k: 'bin', op: '^', left: base, right: this.powExpr() };
    return base;
  }
  private unaryExpr(): Expr {
    if (this.accept('-')) return { k: 'neg', value: this.unaryExpr() };
    return this.incExpr();
  }
  private incExpr(): Expr {
    if (this.is('++') || this.is('--')) {
      const op = this.next().value as '++' | '--';
      const target = this.primary();
      if (target.k !== 'var' && target.k !== 'elem' && target.k !== 'special') this.fail();
      return { k: 'incdec', op, prefix: true, target };
    }
    const value = this.primary();
    if ((value.k === 'var' || value.k === 'elem' || value.k === 'special') && (this.is('++') || this.is('--'))) {
      return { k: 'incdec', op: this.next().value as '++' | '--', prefix: false, target: value };
    }
    return value;
  }
  private primary(): Expr {
    const t = this.next();
    if (t.type === 'num') return { k: 'num', text: t.value };
    if (t.type === 'op' && t.value === '(') {
      const e = this.expression();
      this.expect(')');
      return e;
    }
    if (t.type === 'name') {
      switch (t.value) {
        case 'scale':
          if (this.accept('(')) {
            const arg = this.expression();
            this.expect(')');
            return { k: 'builtin', name: 'scale', arg };
          }
          return { k: 'special', name: 'scale' };
        case 'ibase':
        case 'obase':
        case 'last':
          return { k: 'special', name: t.value };
        case 'length':
        case 'sqrt': {
          this.expect('(');
          const arg = this.expression();
          this.expect(')');
          return { k: 'builtin', name: t.value, arg };
        }
        default:
          if (KEYWORDS.has(t.value)) this.fail();
      }
      if (this.accept('(')) {
        const args: Expr[] = [];
        if (!this.is(')')) {
          do {
            // an array argument is written a[]
            const a = this.peek();
            if (a.type === 'name' && this.peek(1).value === '[' && this.peek(2).value === ']') {
              this.pos += 3;
              args.push({ k: 'var', name: `${a.value}[]` });
            } else args.push(this.expression());
          } while (this.accept(','));
        }
        this.expect(')');
        return { k: 'call', name: t.value, args };
      }
      if (this.accept('[')) {
        const index = this.expression();
        this.expect(']');
        return { k: 'elem', name: t.value, index };
      }
      return { k: 'var', name: t.value };
    }
    this.pos--;
    this.fail();
  }
}

// ---------------------------------------------------------------------------------------------
// Interpreter

class BreakSignal {}
class ContinueSignal {}
class ReturnSignal {
  constructor(readonly value: Num) {}
}
class HaltSignal {}

interface Frame {
  vars: Map<string, Num>;
  arrays: Map<string, Map<number, Num>>;
}

export interface BcResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface BcOptions {
  mathLib?: boolean;
  /** Called often: throws to stop a runaway program (the shell's time limit). */
  checkpoint?: () => void;
}

export function runBc(sources: string[], options: BcOptions = {}): BcResult {
  let stdout = '';
  let stderr = '';
  let column = 0;
  const write = (text: string) => {
    stdout += text;
    const nl = text.lastIndexOf('\n');
    column = nl < 0 ? column + text.length : text.length - nl - 1;
  };
  let scale = options.mathLib ? 20 : 0;
  let ibase = 10;
  let obase = 10;
  let last = ZERO;
  const globals: Frame = { vars: new Map(), arrays: new Map() };
  const functions = new Map<string, FunctionDef>();
  const stack: Frame[] = [];
  let steps = 0;
  const tick = () => {
    if (++steps % 4096 === 0) options.checkpoint?.();
  };
  const warn = (message: string) => {
    stderr += `Runtime warning (func=(main), adr=0): ${message}\n`;
  };

  const parseNumber = (text: string): Num => {
    const [intText = '', fracText = ''] = text.split('.');
    if (ibase === 10 && /^[0-9]*$/.test(intText) && /^[0-9]*$/.test(fracText)) {
      return num(BigInt((intText || '0') + fracText), fracText.length);
    }
    const value = (ch: string) => DIGITS.indexOf(ch);
    const base = BigInt(ibase);
    const clamp = (d: number, single: boolean) => (single ? d : Math.min(d, ibase - 1));
    const single = text.length === 1;
    let n = 0n;
    for (const ch of intText) n = n * base + BigInt(clamp(value(ch), single));
    let result = num(n);
    if (fracText) {
      // the fraction digits in ibase, to the scale of the number of digits written
      let f = ZERO;
      let place = ONE;
      const s = fracText.length;
      for (const ch of fracText) {
        place = div(place, num(base), s + 5);
        f = add(f, mul(num(BigInt(clamp(value(ch), false))), place, s + 5));
      }
      result = add(result, rescale(f, s));
    }
    return result;
  };

  const frameFor = (name: string, array: boolean): Frame => {
    for (let i = stack.length - 1; i >= 0; i--) {
      const f = stack[i]!;
      if (array ? f.arrays.has(name) : f.vars.has(name)) return f;
    }
    return globals;
  };
  const getArray = (name: string): Map<number, Num> => {
    const frame = frameFor(name, true);
    let a = frame.arrays.get(name);
    if (!a) frame.arrays.set(name, (a = new Map()));
    return a;
  };
  const arrayIndex = (e: Expr): number => {
    const i = toSmallInt(evaluate(e));
    if (i < 0 || i > 16777215) throw new BcRuntimeError(`Array index out of bounds`);
    return i;
  };

  const read = (target: Expr): Num => {
    switch (target.k) {
      case 'var':
        return frameFor(target.name, false).vars.get(target.name) ?? ZERO;
      case 'elem':
        return getArray(target.name).get(arrayIndex(target.index)) ?? ZERO;
      case 'special':
        return target.name === 'scale' ? num(BigInt(scale)) : target.name === 'ibase' ? num(BigInt(ibase)) : target.name === 'obase' ? num(BigInt(obase)) : last;
      default:
        throw new BcRuntimeError('bad assignment');
    }
  };
  const store = (target: Expr, value: Num): void => {
    switch (target.k) {
      case 'var':
        frameFor(target.name, false).vars.set(target.name, value);
        return;
      case 'elem':
        getArray(target.name).set(arrayIndex(target.index), value);
        return;
      case 'special': {
        if (target.name === 'last') {
          last = value;
          return;
        }
        const v = Number(toInt(value));
        if (target.name === 'scale') {
          if (v < 0) throw new BcRuntimeError('negative scale, set to 0');
          scale = Math.min(v, 2147483647);
        } else if (target.name === 'ibase') {
          ibase = v < 2 ? (warn('ibase too small, set to 2'), 2) : v > 16 ? (warn('ibase too large, set to 16'), 16) : v;
        } else {
          obase = v < 2 ? (warn('obase too small, set to 2'), 2) : v;
        }
        return;
      }
      default:
        throw new BcRuntimeError('bad assignment');
    }
  };

  const binary = (op: string, a: Num, b: Num): Num => {
    switch (op) {
      case '+':
        return add(a, b);
      case '-':
        return sub(a, b);
      case '*':
        return mul(a, b, scale);
      case '/':
        return div(a, b, scale);
      case '%':
        return mod(a, b, scale);
      case '^':
        return power(a, b, scale, warn);
      default:
        throw new BcRuntimeError(`unknown operator ${op}`);
    }
  };

  const evaluate = (e: Expr): Num => {
    tick();
    switch (e.k) {
      case 'num':
        return parseNumber(e.text);
      case 'var':
      case 'elem':
      case 'special':
        return read(e);
      case 'neg':
        return neg(evaluate(e.value));
      case 'not':
        return isZero(evaluate(e.value)) ? ONE : ZERO;
      case 'assign': {
        const value = evaluate(e.value);
        const result = e.op === '=' ? value : binary(e.op[0]!, read(e.target), value);
        store(e.target, result);
        return result;
      }
      case 'incdec': {
        const before = read(e.target);
        const after = e.op === '++' ? add(before, ONE) : sub(before, ONE);
        store(e.target, after);
        return e.prefix ? after : before;
      }
      case 'bin': {
        if (e.op === '&&') return !isZero(evaluate(e.left)) && !isZero(evaluate(e.right)) ? ONE : ZERO;
        if (e.op === '||') return !isZero(evaluate(e.left)) || !isZero(evaluate(e.right)) ? ONE : ZERO;
        const a = evaluate(e.left);
        const b = evaluate(e.right);
        switch (e.op) {
          case '<':
            return cmp(a, b) < 0 ? ONE : ZERO;
          case '<=':
            return cmp(a, b) <= 0 ? ONE : ZERO;
          case '>':
            return cmp(a, b) > 0 ? ONE : ZERO;
          case '>=':
            return cmp(a, b) >= 0 ? ONE : ZERO;
          case '==':
            return cmp(a, b) === 0 ? ONE : ZERO;
          case '!=':
            return cmp(a, b) !== 0 ? ONE : ZERO;
          default:
            return binary(e.op, a, b);
        }
      }
      case 'builtin': {
        const v = evaluate(e.arg);
        if (e.name === 'length') return num(BigInt(length(v)));
        if (e.name === 'scale') return num(BigInt(v.s));
        return sqrt(v, scale);
      }
      case 'call':
        return call(e.name, e.args);
    }
  };

  const call = (name: string, args: Expr[]): Num => {
    const fn = functions.get(name);
    if (!fn) {
      if (options.mathLib && name.length === 1 && 'sclaej'.includes(name)) {
        const values = args.map(evaluate);
        const want = name === 'j' ? 2 : 1;
        if (values.length !== want) throw new BcRuntimeError(`Parameter number mismatch`);
        const x = values[want - 1]!;
        switch (name) {
          case 's':
            return mathSin(x, scale);
          case 'c':
            return mathSin(x, scale, true);
          case 'a':
            return mathAtan(x, scale);
          case 'l':
            return mathLn(x, scale);
          case 'e':
            return mathExp(x, scale);
          default:
            return mathBessel(values[0]!, x, scale);
        }
      }
      throw new BcRuntimeError(`Function ${name} not defined.`);
    }
    if (args.length !== fn.params.length) throw new BcRuntimeError('Parameter number mismatch');
    const frame: Frame = { vars: new Map(), arrays: new Map() };
    fn.params.forEach((p, i) => {
      const arg = args[i]!;
      if (p.array) {
        if (arg.k !== 'var' || !arg.name.endsWith('[]')) throw new BcRuntimeError('Parameter type mismatch');
        frame.arrays.set(p.name, new Map(getArray(arg.name.slice(0, -2))));
      } else {
        if (arg.k === 'var' && arg.name.endsWith('[]')) throw new BcRuntimeError('Parameter type mismatch');
        frame.vars.set(p.name, evaluate(arg));
      }
    });
    for (const a of fn.autos) {
      if (a.array) frame.arrays.set(a.name, new Map());
      else frame.vars.set(a.name, ZERO);
    }
    if (stack.length > 10000) throw new BcRuntimeError('Function call nesting too deep');
    stack.push(frame);
    try {
      for (const s of fn.body) execute(s);
      return ZERO;
    } catch (signal) {
      if (signal instanceof ReturnSignal) return signal.value;
      throw signal;
    } finally {
      stack.pop();
    }
  };

  const printValue = (v: Num) => {
    const wrapped = wrap(formatNumber(v, obase), column);
    write(wrapped.text);
    column = wrapped.column;
  };

  const execute = (s: Stmt): void => {
    tick();
    switch (s.k) {
      case 'expr': {
        const v = evaluate(s.expr);
        if (s.expr.k !== 'assign') {
          printValue(v);
          write('\n');
          last = v;
        }
        return;
      }
      case 'str':
        write(s.value);
        return;
      case 'print':
        for (const item of s.items) {
          if (typeof item === 'string') write(unescape(item));
          else {
            const v = evaluate(item);
            printValue(v);
            last = v;
          }
        }
        return;
      case 'block':
        for (const b of s.body) execute(b);
        return;
      case 'if':
        if (!isZero(evaluate(s.cond))) execute(s.then);
        else if (s.else) execute(s.else);
        return;
      case 'while':
        while (!isZero(evaluate(s.cond))) {
          try {
            execute(s.body);
          } catch (signal) {
            if (signal instanceof BreakSignal) break;
            if (!(signal instanceof ContinueSignal)) throw signal;
          }
        }
        return;
      case 'for':
        if (s.init) evaluate(s.init);
        while (!s.cond || !isZero(evaluate(s.cond))) {
          try {
            execute(s.body);
          } catch (signal) {
            if (signal instanceof BreakSignal) break;
            if (!(signal instanceof ContinueSignal)) throw signal;
          }
          if (s.step) evaluate(s.step);
        }
        return;
      case 'break':
        throw new BreakSignal();
      case 'continue':
        throw new ContinueSignal();
      case 'return':
        if (!stack.length) throw new BcRuntimeError('Return outside of a function.');
        throw new ReturnSignal(s.value ? evaluate(s.value) : ZERO);
      case 'halt':
        throw new HaltSignal();
      case 'empty':
        return;
    }
  };

  run: for (const source of sources) {
    let tokens: Token[];
    try {
      tokens = tokenize(source);
    } catch (e) {
      stderr += `(standard_in) ${(e as { line?: number }).line ?? 1}: ${(e as Error).message}\n`;
      continue;
    }
    const parser = new Parser(tokens);
    while (!parser.atEnd()) {
      let unit: ReturnType<Parser['unit']>;
      try {
        unit = parser.unit();
      } catch (e) {
        if (e instanceof Quit) break run;
        if (e instanceof BcSyntaxError) {
          stderr += `(standard_in) ${(e as { line?: number }).line ?? parser.line}: syntax error\n`;
          parser.recover();
          continue;
        }
        throw e;
      }
      if (unit.define) {
        functions.set(unit.define[0], unit.define[1]);
        continue;
      }
      try {
        for (const s of unit.statements) execute(s);
      } catch (e) {
        if (e instanceof HaltSignal) break run;
        if (e instanceof BcRuntimeError) stderr += `Runtime error (func=(main), adr=0): ${e.message}\n`;
        else if (e instanceof BreakSignal || e instanceof ContinueSignal) stderr += 'Runtime error (func=(main), adr=0): break or continue outside of a loop\n';
        else throw e;
      }
    }
  }
  return { stdout, stderr, exitCode: 0 };
}

function unescape(text: string): string {
  const map: Record<string, string> = { n: '\n', t: '\t', a: '\x07', b: '\b', f: '\f', r: '\r', q: '"', '\\': '\\', e: '\\' };
  return text.replace(/\\(.)/gs, (_, c: string) => map[c] ?? c);
}
