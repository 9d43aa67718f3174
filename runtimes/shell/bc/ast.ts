// The syntax tree the parser builds and the interpreter walks.

export type Expr =
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

export type Stmt =
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

export interface FunctionDef {
  params: Array<{ name: string; array: boolean }>;
  autos: Array<{ name: string; array: boolean }>;
  body: Stmt[];
}
