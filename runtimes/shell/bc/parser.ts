// Parser: tokens → one unit at a time (a `define` or the statements of one line), with GNU's recovery.

import { BcSyntaxError, Quit } from './errors';
import { KEYWORDS, type TokenType, type Token } from './lexer';
import type { Expr, Stmt, FunctionDef } from './ast';

export class Parser {
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
