// The -l math library, computed with guard digits and truncated to `scale`, as libmath's
// functions are (they work at a higher scale, then divide by 1).

import { BcRuntimeError } from './errors';
import { num, ONE, rescale, add, neg, sub, mul, div, cmp, isZero, toInt, power, sqrt, type Num } from './numbers';

export function expSeries(x: Num, s: number): Num {
  // e^x for |x| small: sum x^k / k!
  let term = rescale(ONE, s);
  let sum = term;
  for (let k = 1n; ; k++) {
    term = div(mul(term, x, s), num(k), s);
    if (isZero(term)) return sum;
    sum = add(sum, term);
  }
}
export function mathExp(x: Num, scale: number): Num {
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
export function mathLn(x: Num, scale: number): Num {
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
export function mathSin(x: Num, scale: number, cosine = false): Num {
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
export function atanSmall(v: Num, s: number): Num {
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
export function mathAtan(x: Num, scale: number): Num {
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
export function atanReduced(v: Num, s: number): Num {
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
export const piCache = new Map<number, Num>();
export function mathPi(s: number): Num {
  let pi = piCache.get(s);
  if (!pi) {
    // Machin: pi = 16 atan(1/5) - 4 atan(1/239)
    const w = s + 5;
    pi = rescale(sub(mul(num(16n), atanSmall(div(ONE, num(5n), w), w), w), mul(num(4n), atanSmall(div(ONE, num(239n), w), w), w)), s);
    piCache.set(s, pi);
  }
  return pi;
}
export function mathBessel(nArg: Num, x: Num, scale: number): Num {
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
