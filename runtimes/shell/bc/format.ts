// Output: numbers as GNU bc prints them (any obase, lines cut with a backslash) and string escapes.

import { p10, num, sub, mul, toInt, type Num } from './numbers';

export const LINE_LENGTH = 70;
export const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function formatNumber(a: Num, obase: number): string {
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

export function formatInBase(abs: bigint, s: number, obase: number): string {
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
export function wrap(text: string, column: number): { text: string; column: number } {
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

export function unescape(text: string): string {
  const map: Record<string, string> = { n: '\n', t: '\t', a: '\x07', b: '\b', f: '\f', r: '\r', q: '"', '\\': '\\', e: '\\' };
  return text.replace(/\\(.)/gs, (_, c: string) => map[c] ?? c);
}
