// util.inspect and util.format with Node 18's layout rules, for console.log inside QuickJS. The
// `util` npm port formats like Node 0.x (`[ 1,\n  2 ]` past 60 characters); programs written for
// Node print arrays and objects with today's rules, and a test that prints a structure must print
// it as the official Node 18 does. What this reproduces (checked against a real Node by
// tests/integration/inspect-javascript.test.ts):
//   - one line when the entries fit in 80 columns (entries + separators + indentation + 10) and
//     the value holds at most two more levels of objects; otherwise one entry per line;
//   - arrays of more than 6 short entries in aligned columns (numbers right-aligned), the column
//     count from the entries' average and maximal width, at most 15 (16 columns of output width);
//   - depth 2 ([Object], [Array]), 100 array/Set/Map entries, <ref *1>/[Circular *1], holes,
//     quoting (' then " then `), class names, Map(n)/Set(n), boxed primitives, functions, getters.
// Not reproduced: error stacks (QuickJS's frames differ anyway), Proxy, promise state, colours.

const BREAK = 80;
const DEPTH = 2;
const CUSTOM = Symbol.for('nodejs.util.inspect.custom');
const MAX_ITEMS = 100;
const MAX_STRING = 10000;
const COMPACT = 3;

const IDENTIFIER = /^[a-zA-Z_][a-zA-Z_0-9]*$/;
const ESCAPES = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '\b': '\\b', '\f': '\\f', '\\': '\\\\' };

function quote(text) {
  let q = "'";
  if (text.includes("'")) {
    if (!text.includes('"')) q = '"';
    else if (!text.includes('`') && !text.includes('${')) q = '`';
  }
  let out = '';
  for (const ch of text) {
    if (ch === q) out += `\\${ch}`;
    else if (ESCAPES[ch]) out += ESCAPES[ch];
    else if (ch < ' ' || ch === '\x7f') out += `\\x${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
    else out += ch;
  }
  return q + out + q;
}

/** Columns a string takes in a terminal: wide East Asian characters count 2, combining marks 0. */
function width(text) {
  // eslint-disable-next-line no-control-regex
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let w = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0);
    if ((c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f) || (c >= 0xfe00 && c <= 0xfe0f)) continue;
    const wide = (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7a3) ||
      (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
      (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1f64f) || (c >= 0x1f900 && c <= 0x1f9ff) || (c >= 0x20000 && c <= 0x3fffd);
    w += wide ? 2 : 1;
  }
  return w;
}

const keyText = (key) => (typeof key === 'symbol' ? `[${key.toString()}]` : IDENTIFIER.test(key) ? key : quote(key));

function primitive(value, ctx) {
  switch (typeof value) {
    case 'string': {
      let text = value;
      let rest = '';
      if (text.length > MAX_STRING) {
        rest = `... ${text.length - MAX_STRING} more character${text.length - MAX_STRING > 1 ? 's' : ''}`;
        text = text.slice(0, MAX_STRING);
      }
      // Long strings with line breaks, inside a structure, are split after each break.
      if (ctx.indent !== undefined && text.length > 16 && text.length > ctx.breakLength - ctx.indent - 4 && text.includes('\n')) {
        const lines = text.split(/(?<=\n)/);
        return lines.map(quote).join(` +\n${' '.repeat(ctx.indent + 2)}`) + (rest ? ` +\n${' '.repeat(ctx.indent + 2)}${rest}` : '');
      }
      return quote(text) + (rest ? `${rest}` : '');
    }
    case 'number': return Object.is(value, -0) ? '-0' : `${value}`;
    case 'bigint': return `${value}n`;
    case 'boolean': return `${value}`;
    case 'undefined': return 'undefined';
    case 'symbol': return value.toString();
    default: return value === null ? 'null' : undefined;
  }
}

function constructorName(value) {
  let proto = Object.getPrototypeOf(value);
  while (proto) {
    const d = Object.getOwnPropertyDescriptor(proto, 'constructor');
    if (d && typeof d.value === 'function' && d.value.name !== '') return d.value.name;
    proto = Object.getPrototypeOf(proto);
  }
  return null;
}

/** `Foo ` before the braces, `[Foo: null prototype] ` without a prototype, nothing for the default. */
function prefix(name, fallback, size = '', tag = '') {
  const t = tag && tag !== name ? ` [${tag}]` : '';
  if (name === null) return `[${fallback}${size}: null prototype]${t} `;
  if (name === fallback && !t) return size ? `${name}${size} ` : '';
  return `${name}${size}${t} `;
}

function functionBase(fn, name) {
  const source = Function.prototype.toString.call(fn);
  if (source.startsWith('class') && /^class\b/.test(source)) {
    const ext = /^class\s*[^{]*?\bextends\s+([\w$.]+)/.exec(source);
    return `[class ${fn.name || '(anonymous)'}${ext ? ` extends ${ext[1]}` : ''}]`;
  }
  const kind = Object.prototype.toString.call(fn).slice(8, -1);
  let type = 'Function';
  if (kind === 'AsyncFunction' || kind === 'GeneratorFunction' || kind === 'AsyncGeneratorFunction') type = kind;
  let base = `[${type}${fn.name ? `: ${fn.name}` : ' (anonymous)'}]`;
  if (name === null) base += ' [null prototype]';
  return base;
}

function ownEntries(value, ctx, depth, skipIndices) {
  const out = [];
  const keys = Object.keys(value).filter((k) => !(skipIndices && /^(0|[1-9]\d*)$/.test(k) && Number(k) < 2 ** 32 - 1));
  for (const sym of Object.getOwnPropertySymbols(value)) if (Object.prototype.propertyIsEnumerable.call(value, sym)) keys.push(sym);
  for (const key of keys) out.push(property(value, key, ctx, depth));
  return out;
}

function property(value, key, ctx, depth) {
  const d = Object.getOwnPropertyDescriptor(value, key) ?? { value: value[key] };
  let text;
  if (d.get || d.set) text = d.get && d.set ? '[Getter/Setter]' : d.get ? '[Getter]' : '[Setter]';
  else {
    ctx.indent += 2;
    text = format(d.value, ctx, depth + 1);
    ctx.indent -= 2;
  }
  return `${keyText(key)}: ${text}`;
}

function arrayEntries(value, ctx, depth) {
  const out = [];
  const length = value.length;
  let shown = 0;
  for (let i = 0; i < length && shown < MAX_ITEMS; shown++) {
    if (!Object.prototype.hasOwnProperty.call(value, i)) {
      let j = i;
      while (j < length && !Object.prototype.hasOwnProperty.call(value, j)) j++;
      out.push(`<${j - i} empty item${j - i > 1 ? 's' : ''}>`);
      i = j;
      continue;
    }
    ctx.indent += 2;
    out.push(format(value[i], ctx, depth + 1));
    ctx.indent -= 2;
    i++;
  }
  const shownUpTo = out.length;
  const remaining = length - countCovered(value, shownUpTo);
  if (remaining > 0) out.push(`... ${remaining} more item${remaining > 1 ? 's' : ''}`);
  return out;
}

/** How many indices the first `entries` entries cover (a hole run is one entry). */
function countCovered(value, entries) {
  let i = 0;
  for (let e = 0; e < entries && i < value.length; e++) {
    if (!Object.prototype.hasOwnProperty.call(value, i)) while (i < value.length && !Object.prototype.hasOwnProperty.call(value, i)) i++;
    else i++;
  }
  return i;
}

function format(value, ctx, depth) {
  const p = primitive(value, ctx);
  if (p !== undefined) return p;
  if (ctx.seen.includes(value)) {
    if (!ctx.circular.has(value)) ctx.circular.set(value, ctx.circular.size + 1);
    return `[Circular *${ctx.circular.get(value)}]`;
  }
  const custom = value[CUSTOM];
  if (typeof custom === 'function' && custom !== inspect) {
    const result = custom.call(value, ctx.depth === null ? Infinity : ctx.depth - depth, { depth: ctx.depth, breakLength: ctx.breakLength }, inspect);
    if (result !== value) return typeof result === 'string' ? result : format(result, ctx, depth);
  }
  const name = constructorName(value);
  const tag = typeof value[Symbol.toStringTag] === 'string' ? value[Symbol.toStringTag] : '';
  let base = '';
  let braces;
  let entries;
  let grouped = false;
  const tooDeep = ctx.depth !== null && depth > ctx.depth;

  if (Array.isArray(value)) {
    braces = [`${prefix(name, 'Array', name === 'Array' ? '' : `(${value.length})`)}[`, ']'];
    // Empty structures print as such at any depth; past the depth only a name is shown.
    if (value.length === 0 && Object.keys(value).length === 0) return `${braces[0]}]`;
    if (tooDeep) return name === null ? '[Array: null prototype]' : '[Array]';
    enter(ctx, value, depth);
    entries = [...arrayEntries(value, ctx, depth), ...ownEntries(value, ctx, depth, true)];
    grouped = true;
  } else if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    braces = [`${prefix(name, tag, `(${value.length})`)}[`, ']'];
    if (name === tag) braces[0] = `${tag}(${value.length}) [`;
    if (value.length === 0) return `${braces[0]}]`;
    if (tooDeep) return `[${name ?? tag}]`;
    enter(ctx, value, depth);
    entries = [];
    for (let i = 0; i < Math.min(value.length, MAX_ITEMS); i++) entries.push(primitive(value[i], ctx));
    if (value.length > MAX_ITEMS) entries.push(`... ${value.length - MAX_ITEMS} more item${value.length - MAX_ITEMS > 1 ? 's' : ''}`);
    grouped = true;
  } else if (value instanceof Map || value instanceof Set) {
    const isMap = value instanceof Map;
    const kind = isMap ? 'Map' : 'Set';
    braces = [`${prefix(name, kind, `(${value.size})`, tag === kind ? '' : tag)}{`, '}'];
    if (name === kind) braces[0] = `${kind}(${value.size}) {`;
    if (value.size === 0 && Object.keys(value).length === 0) return `${braces[0]}}`;
    if (tooDeep) return `[${name ?? kind}]`;
    enter(ctx, value, depth);
    entries = [];
    ctx.indent += 2;
    let n = 0;
    for (const item of isMap ? value.entries() : value.values()) {
      if (n++ >= MAX_ITEMS) break;
      entries.push(isMap ? `${format(item[0], ctx, depth + 1)} => ${format(item[1], ctx, depth + 1)}` : format(item, ctx, depth + 1));
    }
    ctx.indent -= 2;
    if (value.size > MAX_ITEMS) entries.push(`... ${value.size - MAX_ITEMS} more item${value.size - MAX_ITEMS > 1 ? 's' : ''}`);
    entries.push(...ownEntries(value, ctx, depth, false));
    if (entries.length === 0) { ctx.seen.pop(); return `${braces[0]}}`; }
  } else {
    const keys = Object.keys(value).length + Object.getOwnPropertySymbols(value).filter((s) => Object.prototype.propertyIsEnumerable.call(value, s)).length;
    if (typeof value === 'function') {
      base = functionBase(value, name);
      if (keys === 0) return base;
    } else if (value instanceof RegExp) {
      base = RegExp.prototype.toString.call(value);
      if (keys === 0) return base;
    } else if (value instanceof Date) {
      base = Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
      if (keys === 0) return base;
    } else if (value instanceof Error) {
      const stack = typeof value.stack === 'string' ? value.stack.replace(/\n+$/, '') : '';
      const head = String(value);
      base = stack ? (stack.startsWith(head) ? stack : `${head}\n${stack}`) : `[${head}]`;
      const own = Object.keys(value).filter((k) => k !== 'stack' && k !== 'message');
      if (own.length === 0) return base;
      if (tooDeep) return `[${head}]`;
      enter(ctx, value, depth);
      entries = own.map((k) => property(value, k, ctx, depth));
      braces = ['{', '}'];
    } else if (value instanceof Number || value instanceof String || value instanceof Boolean ||
      (typeof BigInt === 'function' && value instanceof BigInt) || value instanceof Symbol) {
      const kind = value instanceof Number ? 'Number' : value instanceof String ? 'String' : value instanceof Boolean ? 'Boolean' : value instanceof Symbol ? 'Symbol' : 'BigInt';
      base = `[${kind}${name !== kind ? ` (${name})` : ''}: ${primitive(value.valueOf(), {})}]`;
      const own = value instanceof String ? Object.keys(value).filter((k) => !/^\d+$/.test(k)) : Object.keys(value);
      if (own.length === 0) return base;
    } else if (value instanceof Promise) {
      braces = [`${prefix(name, 'Promise')}{`, '}'];
      if (name === 'Promise') braces[0] = 'Promise {';
      entries = ['<pending>'];
      return `${braces[0]} ${entries[0]} }`;
    } else if (value instanceof WeakMap || value instanceof WeakSet) {
      return `${value instanceof WeakMap ? 'WeakMap' : 'WeakSet'} { <items unknown> }`;
    }
    if (!entries) {
      const objectPrefix = name === 'Object' ? (tag ? `Object [${tag}] ` : '') : name === null ? `[Object: null prototype]${tag ? ` [${tag}]` : ''} ` : `${name}${tag && tag !== name ? ` [${tag}]` : ''} `;
      braces = [typeof value === 'function' || base ? '{' : `${objectPrefix}{`, '}'];
      if (keys === 0) return `${braces[0]}}`;
      if (tooDeep) return `[${name ?? `${typeof value === 'function' ? 'Function' : 'Object'}: null prototype`}]`;
      enter(ctx, value, depth);
      entries = ownEntries(value, ctx, depth, false);
    }
  }
  ctx.seen.pop();
  let text = layout(ctx, entries, base, braces, grouped, depth, value);
  const ref = ctx.circular.get(value);
  if (ref !== undefined) text = `<ref *${ref}> ${text}`;
  return text;
}

/** Node notes the depth of every structure it starts to lay out; layout() reads the last one. */
function enter(ctx, value, depth) {
  ctx.seen.push(value);
  ctx.deepest = depth;
}

/** One line when it fits, else one entry (or one row of grouped entries) per line. */
function layout(ctx, entries, base, braces, grouped, depth, value) {
  let output = entries;
  const count = entries.length;
  if (grouped && count > 6) output = columns(ctx, entries, value);
  // `ctx.deepest` is the depth of the last structure formatted inside this one.
  if (ctx.deepest - depth < COMPACT && count === output.length) {
    const start = output.length + ctx.indent + braces[0].length + base.length + 10;
    if (fits(output, start, base, ctx.breakLength)) {
      const joined = output.join(', ');
      if (!joined.includes('\n')) return `${base ? `${base} ` : ''}${braces[0]} ${joined} ${braces[1]}`;
    }
  }
  const indentation = `\n${' '.repeat(ctx.indent)}`;
  return `${base ? `${base} ` : ''}${braces[0]}${indentation}  ${output.join(`,${indentation}  `)}${indentation}${braces[1]}`;
}

function fits(output, start, base, breakLength) {
  let total = output.length + start;
  if (total + output.length > breakLength) return false;
  for (const entry of output) {
    total += width(entry);
    if (total > breakLength) return false;
  }
  return base === '' || !base.includes('\n');
}

/** Short array entries in aligned columns; numbers (and bigints) right-aligned, anything else left. */
function columns(ctx, output, value) {
  let total = 0;
  let max = 0;
  const more = output.length > 0 && /^\.\.\. \d+ more item/.test(output[output.length - 1]) ? 1 : 0;
  const n = output.length - more;
  const sep = 2;
  const widths = [];
  for (let i = 0; i < n; i++) {
    const w = width(output[i]);
    widths.push(w);
    total += w + sep;
    if (max < w) max = w;
  }
  const cell = max + sep;
  if (!(cell * 3 + ctx.indent < ctx.breakLength && (total / cell > 5 || max <= 6))) return output;
  const bias = Math.sqrt(cell - total / output.length);
  const biased = Math.max(cell - 3 - bias, 1);
  const cols = Math.min(Math.round(Math.sqrt(2.5 * biased * n) / biased), Math.floor((ctx.breakLength - ctx.indent) / cell), COMPACT * 4, 15);
  if (cols <= 1) return output;
  const colWidth = [];
  for (let c = 0; c < cols; c++) {
    let w = 0;
    for (let j = c; j < output.length; j += cols) if (widths[j] > w) w = widths[j];
    colWidth.push(w + sep);
  }
  let numeric = value !== undefined;
  if (numeric) for (let i = 0; i < output.length; i++) if (typeof value[i] !== 'number' && typeof value[i] !== 'bigint') { numeric = false; break; }
  const rows = [];
  for (let i = 0; i < n; i += cols) {
    const last = Math.min(i + cols, n);
    let row = '';
    let j = i;
    for (; j < last - 1; j++) {
      const pad = colWidth[j - i] + output[j].length - widths[j];
      row += numeric ? `${output[j]}, `.padStart(pad, ' ') : `${output[j]}, `.padEnd(pad, ' ');
    }
    row += numeric ? output[j].padStart(colWidth[j - i] + output[j].length - widths[j] - sep, ' ') : output[j];
    rows.push(row);
  }
  if (more) rows.push(output[output.length - 1]);
  return rows;
}

/** util.inspect(value, options) or the legacy (value, showHidden, depth) form; colours are ignored. */
export function inspect(value, options, legacyDepth) {
  const o = options !== null && typeof options === 'object' ? options : legacyDepth !== undefined ? { depth: legacyDepth } : {};
  const depth = o.depth === undefined ? DEPTH : o.depth === null || o.depth === Infinity ? null : Number(o.depth);
  const breakLength = typeof o.breakLength === 'number' ? o.breakLength : BREAK;
  const ctx = { indent: 0, seen: [], circular: new Map(), deepest: 0, depth, breakLength };
  return format(value, ctx, 0);
}
inspect.custom = CUSTOM;

/** util.format: printf-like placeholders, then the remaining arguments as console.log shows them. */
export function formatArgs(...args) {
  const first = args[0];
  let i = 1;
  let out = '';
  if (typeof first === 'string' && args.length > 1) {
    let last = 0;
    for (let p = 0; p < first.length - 1; p++) {
      if (first[p] !== '%') continue;
      const c = first[p + 1];
      if (c === '%') { out += first.slice(last, p) + '%'; last = p + 2; p++; continue; }
      if (i >= args.length || !'sdifjoOc'.includes(c)) continue;
      const a = args[i];
      let s;
      if (c === 's') s = typeof a === 'string' ? a : typeof a === 'bigint' ? `${a}n` : typeof a === 'number' ? primitive(a, { breakLength: BREAK }) : typeof a === 'symbol' ? a.toString() : (a !== null && typeof a === 'object' && !hasOwnToString(a)) ? inspectShallow(a) : String(a);
      else if (c === 'd') s = typeof a === 'bigint' ? `${a}n` : typeof a === 'symbol' ? 'NaN' : primitive(Number(a), { breakLength: BREAK });
      else if (c === 'i') s = typeof a === 'bigint' ? `${a}n` : typeof a === 'symbol' ? 'NaN' : primitive(parseInt(a), { breakLength: BREAK });
      else if (c === 'f') s = typeof a === 'symbol' ? 'NaN' : primitive(parseFloat(a), { breakLength: BREAK });
      else if (c === 'j') { try { s = JSON.stringify(a); } catch { s = '[Circular]'; } }
      else if (c === 'o' || c === 'O') s = inspect(a);
      else s = '';
      out += first.slice(last, p) + s;
      last = p + 2;
      p++;
      i++;
    }
    out += first.slice(last);
  } else {
    i = 0;
  }
  for (; i < args.length; i++) {
    const a = args[i];
    out += (out || i > 0 ? ' ' : '') + (typeof a === 'string' ? a : inspect(a));
  }
  return out;
}

function hasOwnToString(a) {
  let proto = a;
  while (proto && proto !== Object.prototype && proto !== Array.prototype && proto !== Error.prototype) {
    if (Object.prototype.hasOwnProperty.call(proto, 'toString')) return true;
    proto = Object.getPrototypeOf(proto);
  }
  return a instanceof Error;
}

// %s shows an object without its own toString one level deep, as Node does.
const inspectShallow = (a) => inspect(a, { depth: 0 });
