// Interpreter: runs parsed units against bc's state (scale, ibase, obase, last, variables, arrays, functions).

import { BcSyntaxError, BcRuntimeError, Quit } from './errors';
import { num, ZERO, ONE, rescale, add, neg, sub, mul, div, mod, cmp, isZero, toInt, toSmallInt, power, sqrt, length, type Num } from './numbers';
import { mathExp, mathLn, mathSin, mathAtan, mathBessel } from './mathlib';
import { DIGITS, formatNumber, wrap, unescape } from './format';
import { tokenize, type Token } from './lexer';
import type { Expr, Stmt, FunctionDef } from './ast';
import { Parser } from './parser';

export class BreakSignal {}
export class ContinueSignal {}
export class ReturnSignal {
  constructor(readonly value: Num) {}
}
export class HaltSignal {}

export interface Frame {
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
