// Lexer: bc source → tokens (with the line numbers GNU reports errors at).

import { BcSyntaxError } from './errors';

export type TokenType = 'num' | 'name' | 'str' | 'op' | 'nl' | 'eof';
export interface Token {
  type: TokenType;
  value: string;
  line: number;
}

export const KEYWORDS = new Set(['define', 'auto', 'return', 'if', 'else', 'while', 'for', 'break', 'continue', 'quit', 'halt', 'print', 'length', 'sqrt', 'scale', 'ibase', 'obase', 'last', 'read', 'limits', 'warranty']);
export const OPERATORS = ['++', '--', '+=', '-=', '*=', '/=', '%=', '^=', '==', '!=', '<=', '>=', '&&', '||', '+', '-', '*', '/', '%', '^', '=', '<', '>', '!', '(', ')', '[', ']', '{', '}', ',', ';'];

export function tokenize(source: string): Token[] {
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
