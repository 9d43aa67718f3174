/**
 * Rewrites of the parsed program (a just-bash transform plugin) around places where just-bash's
 * interpreter departs from bash in ways test programs hit, each into an equivalent that it runs
 * correctly:
 *
 * 1. A command substitution inside arithmetic, `$(( $(f 3) + 1 ))` or `(( $(f) > 2 ))`, runs in
 *    a fresh shell in just-bash (no functions or variables of the program: `f: command not
 *    found`). bash expands it first, in the current shell: so each is hoisted into a variable
 *    assigned just before, inside a group that replaces the command:
 *    `{ __benchtop_cs1=$(f 3); echo $(( __benchtop_cs1 + 1 )); }`.
 * 2. A base prefix before an expansion inside `(( ))`, `(( 10#$n > 5 ))`, evaluates to 0; the
 *    same text inside `$(( ))` is right: `[[ $(( 10#$n > 5 )) != 0 ]]`.
 * 3. `IFS=$'\n' arr=($(…))`: assignments without a command happen in order in bash (the array
 *    is split with the new IFS); just-bash splits with the old one: they become separate
 *    commands.
 * 4. `$0` is "bash" in just-bash's top-level shell; it is test.sh as under `bash test.sh`.
 * 5. A base prefix before a braced expansion, `$(( 10#${x[i]:-0} ))`, evaluates to 0 anywhere:
 *    the expansion is hoisted like (1) and read as `10#$__benchtop_bN` (which works).
 * 6. `local re='(a|b)'` loses its parentheses (taken for an array); `local re` then `re='(a|b)'`
 *    is the same thing in bash. Likewise `local -a parts=($text)` is not split with IFS:
 *    `local -a parts` then `parts=($text)`.
 *
 * The program runs as just-bash's top-level script for these rewrites to apply (they do not reach
 * `bash -c`, `source`d files or `eval`).
 */
import { Bash } from 'just-bash';

type Node = { type: string; [key: string]: unknown };

let parser: Bash | null = null;
/** Parses a small shell text into just-bash's AST (a separate instance without plugins). */
function parse(text: string): Node {
  parser ??= new Bash({ defenseInDepth: false });
  return parser.transform(text).ast as unknown as Node;
}
function parseCommand(text: string): Node {
  const script = parse(text) as unknown as { statements: Array<{ pipelines: Array<{ commands: Node[] }> }> };
  return script.statements[0]!.pipelines[0]!.commands[0]!;
}
function parseStatement(text: string): Node {
  return (parse(text) as unknown as { statements: Node[] }).statements[0]!;
}

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && typeof (v as Node).type === 'string';

/** Visits every node under `value`, not entering nested scripts (command substitutions' bodies). */
function visit(value: unknown, fn: (node: Node, parent: Record<string, unknown> | unknown[], key: string | number) => void): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      if (isNode(item)) {
        fn(item, value, i);
        if (item.type !== 'Script') visit(item, fn);
      } else if (typeof item === 'object' && item !== null) visit(item, fn);
    });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    if (isNode(child)) {
      fn(child, value as Record<string, unknown>, key);
      if (child.type !== 'Script') visit(child, fn);
    } else if (typeof child === 'object' && child !== null) visit(child, fn);
  }
}

/** Every nested script (command and process substitution bodies) under `value`. */
function nestedScripts(value: unknown): Node[] {
  const scripts: Node[] = [];
  visit(value, (node) => {
    if (node.type === 'Script') scripts.push(node);
  });
  return scripts;
}

/** The text of a word made only of literal parts ('' otherwise). */
function literal(word: unknown): string {
  if (!isNode(word) || !Array.isArray(word.parts)) return '';
  const parts = word.parts as Node[];
  return parts.every((p) => p.type === 'Literal') ? parts.map((p) => String(p.value)).join('') : '';
}

/** The `$(…)` command substitutions in a text, in order (their inner text as written). */
function commandSubstitutions(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') {
      i++;
      continue;
    }
    if (text[i] === "'") {
      i = text.indexOf("'", i + 1);
      if (i < 0) break;
      continue;
    }
    if (text[i] !== '$' || text[i + 1] !== '(' || text[i + 2] === '(') continue;
    const end = closingParen(text, i + 2);
    if (end < 0) break;
    found.push(text.slice(i + 2, end));
    i = end;
  }
  return found;
}

/** The index of the `)` closing a `(` just before `from`, skipping quotes and nested parentheses. */
function closingParen(text: string, from: number): number {
  let depth = 1;
  let quote: string | null = null;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') {
      i++;
    } else if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '(') {
      depth++;
    } else if (c === ')' && --depth === 0) {
      return i;
    }
  }
  return -1;
}

/** The words of an array literal's parts: split at unquoted blanks of its literal parts. */
function splitWords(parts: Node[]): Node[] {
  const words: Node[][] = [[]];
  for (const part of parts) {
    if (part.type !== 'Literal') {
      words.at(-1)!.push(part);
      continue;
    }
    const pieces = String(part.value).split(/([ \t\n]+)/);
    pieces.forEach((piece, i) => {
      if (i % 2 === 1) words.push([]);
      else if (piece) words.at(-1)!.push({ type: 'Literal', value: piece });
    });
  }
  return words.filter((w) => w.length).map((w) => ({ type: 'Word', parts: w }));
}

const LEAVES = new Set(['SimpleCommand', 'ArithmeticCommand', 'ConditionalCommand']);

export class ProgramRewriter {
  private counter = 0;

  /** The program's top-level function definitions, for the scripts that run after it (traps). */
  private functions: Node[] | null = null;

  /**
   * The just-bash plugin. The first script it sees is the program; later ones (the `trap … EXIT`
   * handler) get the program's functions defined first, as they would still be in bash.
   */
  plugin() {
    return {
      name: 'benchtop-bash-compat',
      transform: ({ ast }: { ast: unknown }) => {
        const script = ast as Node;
        const statements = script.statements as Node[];
        if (this.functions) statements.unshift(...this.functions);
        else this.functions = statements.filter((s) => ((s.pipelines as Node[]) ?? []).every((p) => (p.commands as Node[]).every((c) => c.type === 'FunctionDef')));
        this.script(script);
        // $0 of `bash test.sh` (as a shell variable, like bash's own BASH_ARGV0)
        statements.unshift(parseStatement('BASH_ARGV0=test.sh'));
        return { ast: ast as never };
      },
    };
  }

  private script(script: Node): void {
    for (const statement of (script.statements as Node[]) ?? []) this.statement(statement);
  }

  private statement(statement: Node): void {
    for (const pipeline of (statement.pipelines as Node[]) ?? []) {
      const commands = pipeline.commands as Node[];
      for (let i = 0; i < commands.length; i++) commands[i] = this.command(commands[i]!);
    }
  }

  private statements(list: unknown): void {
    if (Array.isArray(list)) for (const s of list) if (isNode(s) && s.type === 'Statement') this.statement(s);
  }

  private command(command: Node): Node {
    // nested scripts first: their rewrites belong to their own shell
    for (const script of nestedScripts(LEAVES.has(command.type) ? command : this.wordsOnly(command))) this.script(script);
    switch (command.type) {
      case 'If':
        for (const clause of command.clauses as Array<{ condition: unknown; body: unknown }>) {
          this.statements(clause.condition);
          this.statements(clause.body);
        }
        this.statements(command.elseBody);
        return command;
      case 'While':
      case 'Until':
        this.statements(command.condition);
        this.statements(command.body);
        return command;
      case 'For':
      case 'CStyleFor':
      case 'Subshell':
      case 'Group':
        this.statements(command.body);
        return command;
      case 'Case':
        for (const item of (command.items as Array<{ body: unknown }>) ?? []) this.statements(item.body);
        return command;
      case 'FunctionDef': {
        const body = command.body as Node;
        if (isNode(body)) command.body = this.command(body);
        return command;
      }
      default:
        return LEAVES.has(command.type) ? this.leaf(command) : command;
    }
  }

  /** A compound command's own words (for/case lists, redirections), without its bodies. */
  private wordsOnly(command: Node): unknown {
    const { body: _body, clauses: _clauses, elseBody: _else, condition: _condition, items, ...rest } = command;
    return { ...rest, patterns: Array.isArray(items) ? (items as Array<{ patterns?: unknown }>).map((i) => i.patterns) : undefined };
  }

  private leaf(command: Node): Node {
    let result = command;
    // 3. IFS=… before other assignments, with no command
    if (command.type === 'SimpleCommand' && command.name === null) {
      const assignments = command.assignments as Array<{ name: string }>;
      if (assignments.length > 1 && assignments.slice(0, -1).some((a) => a.name === 'IFS') && !(command.redirections as unknown[]).length) {
        const group = parseCommand('{ :; }');
        group.body = assignments.map((a) => {
          const statement = parseStatement(':');
          const single = { ...command, assignments: [a] };
          ((statement.pipelines as Node[])[0]!.commands as Node[])[0] = single;
          return statement;
        });
        result = group;
      }
    }
    // 2. (( … N#$x … ))
    if (command.type === 'ArithmeticCommand') {
      const expression = command.expression as { originalText?: string };
      const text = expression.originalText ?? '';
      if (/#\s*\$/.test(text) && !/\$\(/.test(text)) {
        const conditional = parseCommand(`[[ $((${text})) != 0 ]]`);
        conditional.redirections = command.redirections;
        result = conditional;
      }
    }
    // 6. local/declare/typeset name='(…)'
    const readonly = (args: unknown) => (args as Node[]).some((a) => /^-[a-zA-Z]*r/.test(literal(a)));
    if (result.type === 'SimpleCommand' && ['local', 'declare', 'typeset'].includes(literal(result.name)) && !readonly(result.args)) {
      const assignments: Node[] = [];
      const args = result.args as Node[];
      for (let i = 0; i < args.length; i++) {
        const parts = args[i]!.parts as Node[];
        const head = parts[0];
        if (head?.type !== 'Literal') continue;
        const headText = String(head.value);
        const last = parts.at(-1)!;
        // name=(…) with expansions in it: an array assignment of its own
        const array = headText.match(/^([A-Za-z_][A-Za-z0-9_]*)=\(/);
        if (array && last.type === 'Literal' && String(last.value).endsWith(')') && parts.some((p) => p.type !== 'Literal')) {
          const name = array[1]!;
          const inner = parts.map((p) => ({ ...p }));
          inner[0]!.value = headText.slice(name.length + 2);
          const end = inner.at(-1)!;
          end.value = String(end.value).slice(0, -1);
          const assignment = parseStatement(`${name}=(x)`);
          const command = ((assignment.pipelines as Node[])[0]!.commands as Node[])[0]!;
          ((command.assignments as Node[])[0]!).array = splitWords(inner);
          assignments.push(assignment);
          args[i] = { type: 'Word', parts: [{ type: 'Literal', value: name }] };
          continue;
        }
        const value = parts[1];
        if (!/^[A-Za-z_][A-Za-z0-9_]*=$/.test(headText) || !value) continue;
        const text = value.type === 'SingleQuoted' ? String(value.value) : value.type === 'DoubleQuoted' ? String((value.parts as Node[])[0]?.value ?? '') : '';
        if (!text.startsWith('(')) continue;
        const name = headText.slice(0, -1);
        const assignment = parseStatement(`${name}=x`);
        const command = ((assignment.pipelines as Node[])[0]!.commands as Node[])[0]!;
        ((command.assignments as Node[])[0]!).value = { type: 'Word', parts: parts.slice(1) };
        assignments.push(assignment);
        args[i] = { type: 'Word', parts: [{ type: 'Literal', value: name }] };
      }
      if (assignments.length) {
        const group = parseCommand('{ :; }');
        const statement = parseStatement(':');
        ((statement.pipelines as Node[])[0]!.commands as Node[])[0] = result;
        group.body = [statement, ...assignments];
        result = group;
      }
    }
    // 4. $0
    visit(result, (node) => {
      if (node.type === 'ParameterExpansion' && node.parameter === '0') node.parameter = 'BASH_ARGV0';
    });
    // 1. command substitutions inside arithmetic (the node, and the expression's text, which
    //    just-bash evaluates again when it has expansions in it)
    const hoisted: Node[] = [];
    visit(result, (expression) => {
      if (expression.type !== 'ArithmeticExpression') return;
      // the substitutions' text as written (the nodes keep it with its quotes removed)
      const raw = commandSubstitutions(typeof expression.originalText === 'string' ? expression.originalText : '');
      let index = 0;
      visit(expression, (node, parent, key) => {
        if (node.type !== 'ArithCommandSubst') return;
        const name = `__benchtop_cs${++this.counter}`;
        const written = raw[index++];
        const command = written ?? String(node.command);
        const assignment = parseStatement(`${name}=$(${command})`);
        // the substitution's own body gets the same rewrites
        for (const script of nestedScripts(assignment)) this.script(script);
        hoisted.push(assignment);
        (parent as Record<string | number, unknown>)[key] = { type: 'ArithVariable', name, hasDollarPrefix: false };
        if (typeof expression.originalText === 'string') expression.originalText = expression.originalText.replace(`$(${command})`, name);
      });
      // 5. N#${…}
      const text = typeof expression.originalText === 'string' ? expression.originalText : '';
      expression.originalText = text.replace(/(\d+#)\$\{([^{}]*)\}/g, (_, base: string, inner: string) => {
        const name = `__benchtop_b${++this.counter}`;
        hoisted.push(parseStatement(`${name}=\${${inner}}`));
        return `${base}$${name}`;
      });
    });
    if (!hoisted.length) return result;
    const group = parseCommand('{ :; }');
    const statement = parseStatement(':');
    ((statement.pipelines as Node[])[0]!.commands as Node[])[0] = result;
    group.body = [...hoisted, statement];
    return group;
  }
}
