// bc numbers: value = n / 10^s (s ≥ 0), n a BigInt; every operation truncates toward zero.

import { BcRuntimeError } from './errors';

export interface Num {
  n: bigint;
  s: number;
}

export const powCache: bigint[] = [];
export function p10(k: number): bigint {
  if (k < 64) return (powCache[k] ??= 10n ** BigInt(k));
  return 10n ** BigInt(k);
}
export const num = (n: bigint, s = 0): Num => ({ n, s });
export const ZERO = num(0n);
export const ONE = num(1n);

export function rescale(a: Num, s: number): Num {
  if (s === a.s) return a;
  return s > a.s ? num(a.n * p10(s - a.s), s) : num(a.n / p10(a.s - s), s);
}
export function add(a: Num, b: Num): Num {
  const s = Math.max(a.s, b.s);
  return num(rescale(a, s).n + rescale(b, s).n, s);
}
export function neg(a: Num): Num {
  return num(-a.n, a.s);
}
export function sub(a: Num, b: Num): Num {
  return add(a, neg(b));
}
export function mul(a: Num, b: Num, scale: number): Num {
  const full = num(a.n * b.n, a.s + b.s);
  return rescale(full, Math.min(a.s + b.s, Math.max(scale, a.s, b.s)));
}
export function div(a: Num, b: Num, scale: number): Num {
  if (b.n === 0n) throw new BcRuntimeError('Divide by zero');
  return num((a.n * p10(b.s + scale)) / (b.n * p10(a.s)), scale);
}
export function mod(a: Num, b: Num, scale: number): Num {
  const q = div(a, b, scale);
  return sub(a, num(q.n * b.n, q.s + b.s));
}
export function cmp(a: Num, b: Num): number {
  const s = Math.max(a.s, b.s);
  const x = rescale(a, s).n;
  const y = rescale(b, s).n;
  return x < y ? -1 : x > y ? 1 : 0;
}
export const isZero = (a: Num) => a.n === 0n;
export function toInt(a: Num): bigint {
  return a.n / p10(a.s);
}
export function toSmallInt(a: Num): number {
  const i = toInt(a);
  if (i > 2n ** 31n || i < -(2n ** 31n)) throw new BcRuntimeError('Value too large');
  return Number(i);
}

export function power(a: Num, b: Num, scale: number, warn: (m: string) => void): Num {
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

export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  // Newton's method from above: decreases to floor(sqrt(n))
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2) + 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}
export function sqrt(a: Num, scale: number): Num {
  if (a.n < 0n) throw new BcRuntimeError('Square root of a negative number');
  const s = Math.max(scale, a.s);
  return num(isqrt(a.n * p10(2 * s - a.s)), s);
}

export function length(a: Num): number {
  if (a.n === 0n) return a.s === 0 ? 1 : a.s;
  const digits = (a.n < 0n ? -a.n : a.n).toString().length;
  return Math.max(digits, a.s);
}
