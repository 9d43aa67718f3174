/**
 * Commands benchtop adds to just-bash, or puts in front of its own, where the official image's
 * GNU tools behave differently and test programs notice (each checked against GNU coreutils in
 * tests/integration/runtime-shell.test.ts):
 *   sort    GNU's fields (leading blanks belong to a field: `sort -k1,1nr` after `uniq -c`),
 *           keys with per-key options, -n -g -h -V -f -b -d -i -r -u -s -t -k -o -c, C-locale order
 *   uniq    `-c` counts printed as GNU does ("%7d ")
 *   paste, xargs   clustered short options (`paste -sd+`, `xargs -n1`)
 *   mktemp  missing from just-bash
 *   trap    missing from just-bash: EXIT handlers are kept and run when the program ends
 */
import { defineCommand } from 'just-bash';

type Ctx = Parameters<Parameters<typeof defineCommand>[1]>[1];
type Result = { stdout: string; stderr: string; exitCode: number };

const ok = (stdout: string): Result => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode = 1): Result => ({ stdout: '', stderr, exitCode });

/** just-bash hands commands their stdin as bytes in a latin1 string. */
export function stdinText(ctx: Ctx): string {
  return new TextDecoder().decode(Uint8Array.from(String(ctx.stdin ?? ''), (c) => c.charCodeAt(0)));
}

const resolve = (ctx: Ctx, path: string) => (path.startsWith('/') ? path : `${ctx.cwd}/${path}`);

async function readInputs(ctx: Ctx, files: string[], command: string): Promise<{ text: string } | Result> {
  if (!files.length) return { text: stdinText(ctx) };
  let text = '';
  for (const file of files) {
    if (file === '-') {
      text += stdinText(ctx);
      continue;
    }
    try {
      const content = await ctx.fs.readFile(resolve(ctx, file));
      text += content && !content.endsWith('\n') ? `${content}\n` : content;
    } catch {
      return fail(`${command}: cannot read: ${file}: No such file or directory\n`, 2);
    }
  }
  return { text };
}

// --- sort ------------------------------------------------------------------------------------

interface KeyOptions {
  b?: boolean; d?: boolean; f?: boolean; g?: boolean; h?: boolean; i?: boolean; M?: boolean; n?: boolean; r?: boolean; V?: boolean;
}
interface SortKey {
  startField: number;
  startChar: number;
  endField: number; // 0: end of line
  endChar: number; // 0: end of field
  options: KeyOptions;
  startBlanks: boolean;
  endBlanks: boolean;
}

const ORDERING = 'bdfghiMnrV';

function parseKey(spec: string): SortKey | null {
  const m = spec.match(/^(\d+)(?:\.(\d+))?([bdfghiMnrV]*)(?:,(\d+)(?:\.(\d+))?([bdfghiMnrV]*))?$/);
  if (!m) return null;
  const options: KeyOptions = {};
  for (const c of (m[3] ?? '') + (m[6] ?? '')) if (c !== 'b') (options as Record<string, boolean>)[c] = true;
  return {
    startField: Number(m[1]),
    startChar: m[2] ? Number(m[2]) : 1,
    endField: m[4] ? Number(m[4]) : 0,
    endChar: m[5] ? Number(m[5]) : 0,
    options,
    startBlanks: (m[3] ?? '').includes('b'),
    endBlanks: (m[6] ?? '').includes('b'),
  };
}

const isBlank = (c: string | undefined) => c === ' ' || c === '\t';

/** [start, end) offsets of each field: GNU's fields (blanks before a field belong to it), or -t. */
function fieldBounds(line: string, separator: string | null): Array<[number, number]> {
  const bounds: Array<[number, number]> = [];
  if (separator !== null) {
    let start = 0;
    for (;;) {
      const at = line.indexOf(separator, start);
      if (at < 0) {
        bounds.push([start, line.length]);
        return bounds;
      }
      bounds.push([start, at]);
      start = at + separator.length;
    }
  }
  let i = 0;
  while (i < line.length) {
    const start = i;
    while (i < line.length && isBlank(line[i])) i++;
    while (i < line.length && !isBlank(line[i])) i++;
    bounds.push([start, i]);
  }
  return bounds;
}

function keyText(line: string, key: SortKey, separator: string | null, globalBlanks: boolean): string {
  const fields = fieldBounds(line, separator);
  const field = fields[key.startField - 1];
  if (!field) return '';
  let start = field[0];
  if (key.startBlanks || (globalBlanks && !hasOrdering(key.options))) while (start < field[1] && isBlank(line[start])) start++;
  start = Math.min(start + key.startChar - 1, field[1]);
  let end = line.length;
  if (key.endField) {
    const last = fields[key.endField - 1];
    if (!last) end = line.length;
    else if (key.endChar === 0) end = last[1];
    else {
      let s = last[0];
      if (key.endBlanks || (globalBlanks && !hasOrdering(key.options))) while (s < last[1] && isBlank(line[s])) s++;
      end = Math.min(s + key.endChar, last[1]);
    }
  }
  return end > start ? line.slice(start, end) : '';
}

const hasOrdering = (o: KeyOptions) => Object.keys(o).length > 0;

function numericPrefix(text: string): number {
  const m = text.match(/^\s*(-?)(\d*)(?:\.(\d*))?/);
  if (!m || (!m[2] && !m[3])) return 0;
  return Number(`${m[1]}${m[2] || '0'}.${m[3] || '0'}`);
}
function generalNumeric(text: string): number {
  const m = text.trim().match(/^[-+]?(?:inf(?:inity)?|nan|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|0[xX][0-9a-fA-F]+)/i);
  if (!m) return Number.NEGATIVE_INFINITY - 1;
  const v = Number(m[0].replace(/^([-+]?)inf.*/i, '$1Infinity'));
  return Number.isNaN(v) ? Number.NEGATIVE_INFINITY : v;
}
const HUMAN = ' KMGTPEZYRQ';
function human(text: string): number {
  const m = text.match(/^\s*(-?\d*\.?\d*)([KMGTPEZYRQk]?)/);
  if (!m) return 0;
  return (Number(m[1]) || 0) * 1000 ** Math.max(0, HUMAN.indexOf(m[2]!.toUpperCase()));
}
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const month = (text: string) => MONTHS.indexOf(text.trim().slice(0, 3).toUpperCase()) + 1;

function byteCompare(a: string, b: string): number {
  // C locale: compare code points (UTF-8 byte order for valid text)
  return a < b ? -1 : a > b ? 1 : 0;
}

function versionCompare(a: string, b: string): number {
  const pa = a.match(/\d+|\D+/g) ?? [];
  const pb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const dx = /^\d/.test(x);
    const dy = /^\d/.test(y);
    if (dx && dy) {
      const d = BigInt(x) - BigInt(y);
      if (d !== 0n) return d < 0n ? -1 : 1;
    } else {
      const c = byteCompare(x, y);
      if (c) return c;
    }
  }
  return 0;
}

function compareBy(a: string, b: string, o: KeyOptions): number {
  let x = a;
  let y = b;
  if (o.d) {
    x = x.replace(/[^A-Za-z0-9 \t]/g, '');
    y = y.replace(/[^A-Za-z0-9 \t]/g, '');
  }
  if (o.i) {
    x = x.replace(/[^\x20-\x7e]/g, '');
    y = y.replace(/[^\x20-\x7e]/g, '');
  }
  if (o.f) {
    x = x.toUpperCase();
    y = y.toUpperCase();
  }
  if (o.n) return Math.sign(numericPrefix(x) - numericPrefix(y)) || 0;
  if (o.g) {
    const gx = generalNumeric(x);
    const gy = generalNumeric(y);
    return gx < gy ? -1 : gx > gy ? 1 : 0;
  }
  if (o.h) return Math.sign(human(x) - human(y)) || 0;
  if (o.M) return Math.sign(month(x) - month(y));
  if (o.V) return versionCompare(x, y);
  return byteCompare(x, y);
}

export const sortCommand = defineCommand('sort', async (args, ctx) => {
  const global: KeyOptions = {};
  let globalBlanks = false;
  const keys: SortKey[] = [];
  let separator: string | null = null;
  let unique = false;
  let stable = false;
  let check: 'no' | 'diagnose' | 'quiet' = 'no';
  let output: string | null = null;
  let zero = false;
  const files: string[] = [];
  const longFlags: Record<string, string> = {
    '--reverse': 'r', '--numeric-sort': 'n', '--general-numeric-sort': 'g', '--human-numeric-sort': 'h', '--version-sort': 'V',
    '--month-sort': 'M', '--ignore-case': 'f', '--ignore-leading-blanks': 'b', '--dictionary-order': 'd', '--ignore-nonprinting': 'i',
    '--unique': 'u', '--stable': 's', '--zero-terminated': 'z',
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const [name, value] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
      const flag = longFlags[name];
      if (flag) {
        if (flag === 'u') unique = true;
        else if (flag === 's') stable = true;
        else if (flag === 'z') zero = true;
        else if (flag === 'b') globalBlanks = true;
        else (global as Record<string, boolean>)[flag] = true;
        continue;
      }
      const needValue = () => value ?? args[++i];
      if (name === '--key') {
        const key = parseKey(needValue() ?? '');
        if (!key) return fail(`sort: invalid key\n`, 2);
        keys.push(key);
      } else if (name === '--field-separator') separator = needValue() ?? '';
      else if (name === '--output') output = needValue() ?? '';
      else if (name === '--check') check = 'diagnose';
      else return ctx.origCommand ? ctx.origCommand(args) : fail(`sort: unrecognized option '${arg}'\n`, 2);
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const c = arg[j]!;
        if (ORDERING.includes(c)) {
          if (c === 'b') globalBlanks = true;
          else (global as Record<string, boolean>)[c] = true;
        } else if (c === 'u') unique = true;
        else if (c === 's') stable = true;
        else if (c === 'z') zero = true;
        else if (c === 'c') check = 'diagnose';
        else if (c === 'C') check = 'quiet';
        else if (c === 'k' || c === 't' || c === 'o' || c === 'S' || c === 'T') {
          const value = arg.slice(j + 1) || args[++i] || '';
          if (c === 'k') {
            const key = parseKey(value);
            if (!key) return fail(`sort: invalid number at field start: invalid count at start of '${value}'\n`, 2);
            keys.push(key);
          } else if (c === 't') {
            if (value.length > 1 && value !== '\\0') return fail(`sort: multi-character tab '${value}'\n`, 2);
            separator = value === '\\0' ? '\0' : value;
          } else if (c === 'o') output = value;
          break;
        } else if (c === 'm') {
          // merging already sorted input gives the same result as sorting it
        } else return ctx.origCommand ? ctx.origCommand(args) : fail(`sort: invalid option -- '${c}'\n`, 2);
      }
      continue;
    }
    files.push(arg);
  }

  const input = await readInputs(ctx, files, 'sort');
  if ('exitCode' in input) return input;
  const terminator = zero ? '\0' : '\n';
  const lines = input.text.split(terminator);
  if (lines.at(-1) === '') lines.pop();

  // a key with options of its own (b included) does not inherit the global ones (GNU)
  const effective = keys.map((k) => ({ ...k, options: hasOrdering(k.options) || k.startBlanks || k.endBlanks ? k.options : { ...global } }));
  const globalReverse = !!global.r;
  const compareKeys = (a: string, b: string): number => {
    if (!effective.length) {
      const c = compareBy(globalBlanks ? a.trimStart() : a, globalBlanks ? b.trimStart() : b, global);
      return global.r ? -c : c;
    }
    for (const key of effective) {
      const c = compareBy(keyText(a, key, separator, globalBlanks), keyText(b, key, separator, globalBlanks), key.options);
      if (c) return key.options.r ? -c : c;
    }
    return 0;
  };
  const compare = (a: string, b: string): number => {
    const c = compareKeys(a, b);
    if (c || stable || unique) return c;
    // last resort: the whole lines, bytewise (reversed by a global -r)
    const last = byteCompare(a, b);
    return globalReverse ? -last : last;
  };

  if (check !== 'no') {
    for (let i = 1; i < lines.length; i++) {
      const c = compare(lines[i - 1]!, lines[i]!);
      if (c > 0 || (unique && c === 0)) {
        return { stdout: '', stderr: check === 'quiet' ? '' : `sort: ${files[0] ?? '-'}:${i + 1}: disorder: ${lines[i]}\n`, exitCode: 1 };
      }
    }
    return ok('');
  }

  const sorted = lines.map((line, index) => ({ line, index })).sort((x, y) => compare(x.line, y.line) || x.index - y.index).map((e) => e.line);
  const result = unique ? sorted.filter((line, i) => i === 0 || compareKeys(sorted[i - 1]!, line) !== 0) : sorted;
  const text = result.map((l) => l + terminator).join('');
  if (output !== null) {
    await ctx.fs.writeFile(resolve(ctx, output), text);
    return ok('');
  }
  return ok(text);
});

// --- uniq -c, paste, xargs: the built-ins, with GNU's count width / clustered options ---------

export const uniqCommand = defineCommand('uniq', async (args, ctx) => {
  if (!ctx.origCommand) return fail('uniq: unavailable\n');
  const counts = args.some((a) => a === '--count' || (/^-[a-zA-Z]+$/.test(a) && a.includes('c')));
  const result = await ctx.origCommand(args);
  if (!counts || result.exitCode !== 0) return result;
  return { ...result, stdout: result.stdout.replace(/^ *(\d+) /gm, (_, n: string) => `${n.padStart(7)} `) };
});

/**
 * Clustered short options apart, for just-bash's paste (`-sd+` → `-s -d+`: it wants a value
 * attached) and xargs (`-n1` → `-n 1`: it wants it apart).
 */
function splitClustered(args: string[], withValue: string, attach: boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || !/^-[a-zA-Z]/.test(arg)) {
      out.push(arg);
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const c = arg[j]!;
      if (!withValue.includes(c)) {
        out.push(`-${c}`);
        continue;
      }
      const value = j + 1 < arg.length ? arg.slice(j + 1) : args[++i];
      if (value === undefined) out.push(`-${c}`);
      else if (attach) out.push(`-${c}${value}`);
      else out.push(`-${c}`, value);
      break;
    }
  }
  return out;
}

export const pasteCommand = defineCommand('paste', async (args, ctx) => {
  if (!ctx.origCommand) return fail('paste: unavailable\n');
  // just-bash's paste wants a FILE (no operand means stdin for GNU) and takes -d's list
  // literally (GNU reads \n \t \\ \0 in it)
  let serial = false;
  let delimiters: string | null = null;
  const files: string[] = [];
  const list = splitClustered(args, 'd', true);
  for (let i = 0; i < list.length; i++) {
    const arg = list[i]!;
    if (arg === '-s' || arg === '--serial') serial = true;
    else if (arg.startsWith('-d')) delimiters = arg.slice(2);
    else if (arg.startsWith('--delimiters=')) delimiters = arg.slice(13);
    else if (arg === '--delimiters') delimiters = list[++i] ?? '';
    else if (arg === '--') files.push(...list.slice(i + 1)), (i = list.length);
    else files.push(arg);
  }
  const decoded = delimiters?.replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t', '\\': '\\', '0': '' })[c] ?? c);
  return ctx.origCommand([...(serial ? ['-s'] : []), ...(decoded !== undefined ? ['-d', decoded] : []), ...(files.length ? files : ['-'])]);
});

export const xargsCommand = defineCommand('xargs', async (args, ctx) => {
  if (!ctx.origCommand) return fail('xargs: unavailable\n');
  // only the options before the command
  const commandAt = args.findIndex((a, i) => !a.startsWith('-') && !/^-[nLIdPsaE]$/.test(args[i - 1] ?? ''));
  const options = commandAt < 0 ? args : args.slice(0, commandAt);
  const rest = commandAt < 0 ? [] : args.slice(commandAt);
  return ctx.origCommand([...splitClustered(options, 'nLIdPsaE', false), ...rest]);
});

// --- mktemp ------------------------------------------------------------------------------------

let tempCounter = 0;
export const mktempCommand = defineCommand('mktemp', async (args, ctx) => {
  let directory = false;
  let dryRun = false;
  let parent: string | null = null;
  let template: string | null = null;
  let quiet = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-d' || arg === '--directory') directory = true;
    else if (arg === '-u' || arg === '--dry-run') dryRun = true;
    else if (arg === '-q' || arg === '--quiet') quiet = true;
    else if (arg === '-t') parent = parent ?? '/tmp';
    else if (arg === '-p' || arg === '--tmpdir') parent = args[++i] ?? '/tmp';
    else if (arg.startsWith('--tmpdir=')) parent = arg.slice(9);
    else if (/^-[dqut]+$/.test(arg)) {
      directory ||= arg.includes('d');
      dryRun ||= arg.includes('u');
      quiet ||= arg.includes('q');
      if (arg.includes('t')) parent = parent ?? '/tmp';
    } else template = arg;
  }
  const pattern = template ?? 'tmp.XXXXXXXXXX';
  const xs = pattern.match(/X{3,}$/)?.[0];
  if (!xs) return quiet ? fail('', 1) : fail(`mktemp: too few X's in template '${pattern}'\n`);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const base = template && !parent && template.includes('/') ? '' : `${parent ?? (template ? '' : '/tmp')}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    tempCounter++;
    let suffix = '';
    for (let i = 0; i < xs.length; i++) suffix += alphabet[Math.floor(Math.random() * alphabet.length)];
    const name = pattern.slice(0, pattern.length - xs.length) + suffix;
    const path = base ? `${base.replace(/\/$/, '')}/${name}` : name;
    const full = resolve(ctx, path);
    if (await ctx.fs.exists(full)) continue;
    if (!dryRun) {
      if (directory) await ctx.fs.mkdir(full, { recursive: true });
      else await ctx.fs.writeFile(full, '');
    }
    return ok(`${path}\n`);
  }
  return fail(`mktemp: failed to create file via template '${pattern}'\n`);
});

// --- trap ---------------------------------------------------------------------------------------

/** The EXIT handler a program set with `trap … EXIT` (run by the runtime when the program ends). */
export interface TrapState {
  exit: string | null;
}

export function trapCommand(state: TrapState) {
  return defineCommand('trap', async (args) => {
    if (!args.length || args[0] === '-p' || args[0] === '-l') {
      return ok(state.exit !== null && args[0] !== '-l' ? `trap -- '${state.exit.replace(/'/g, "'\\''")}' EXIT\n` : '');
    }
    let action: string | null = args[0]!;
    let signals = args.slice(1);
    if (/^\d+$/.test(action) && !signals.length) {
      // `trap 0`: reset
      signals = [action];
      action = '-';
    }
    if (action === '-') action = null;
    for (const signal of signals) {
      if (['EXIT', '0', 'SIGEXIT'].includes(signal.toUpperCase())) state.exit = action;
    }
    return ok('');
  });
}
