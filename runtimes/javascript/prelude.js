// The Node-like environment that a test program sees inside QuickJS: console, process, require
// (assert, util from their maintained browser ports), timers on a virtual clock, and the
// formatting of uncaught errors. Bundled by scripts/build-node-env.mjs; the host (quickjs.ts)
// provides __benchtop_write(fd, text) and drives the timer loop through __benchtop.
// node-process.js comes first: the ports of assert and util read `process` as they load.
import { listeners, process, write } from './node-process.js';
import assert from 'assert';
import util from 'util';
import { formatArgs, inspect } from './inspect.js';

// Node 18's layout for util.inspect/util.format (the port lays values out like Node 0.x):
// require('util') and console share it.
util.inspect = inspect;
util.format = formatArgs;

// --- console: util.format like Node's console --------------------------------------------------
// A lone string is printed as it is, as Node does ('%%' stays '%%'), and without scanning it for
// placeholders: a 100 MB string costs its copy, not a regular-expression pass in the interpreter.
const format = (...args) => (args.length === 1 && typeof args[0] === 'string' ? args[0] : formatArgs(...args));
const out = (...args) => write(1, format(...args) + '\n');
const err = (...args) => write(2, format(...args) + '\n');
const counts = new Map();
const timers = new Map();
globalThis.console = {
  log: out, info: out, debug: out, trace: err, warn: err, error: err,
  dir: (obj) => write(1, util.inspect(obj) + '\n'),
  table: out,
  assert: (ok, ...args) => {
    if (!ok) err(args.length ? `Assertion failed: ${util.format(...args)}` : 'Assertion failed');
  },
  count: (label = 'default') => { counts.set(label, (counts.get(label) ?? 0) + 1); out(`${label}: ${counts.get(label)}`); },
  countReset: (label = 'default') => counts.delete(label),
  time: (label = 'default') => timers.set(label, Date.now()),
  timeEnd: (label = 'default') => out(`${label}: ${Date.now() - (timers.get(label) ?? Date.now())}ms`),
  timeLog: (label = 'default') => out(`${label}: ${Date.now() - (timers.get(label) ?? Date.now())}ms`),
  group: out, groupEnd: () => {},
};

// --- timers on a virtual clock: the host runs them in order once the script is done ------------
let virtualNow = 0;
let timerSeq = 0;
const pending = new Map();
class Timeout {
  constructor(id) { this.id = id; }
  ref() { return this; }
  unref() { return this; }
  hasRef() { return true; }
  refresh() { return this; }
  [Symbol.toPrimitive]() { return this.id; }
}
function schedule(fn, ms, args, repeat) {
  if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function');
  const delay = Math.max(1, Number(ms) || 0);
  const id = ++timerSeq;
  pending.set(id, { at: virtualNow + delay, fn, args, repeat: repeat ? delay : 0, seq: id });
  return new Timeout(id);
}
const cancel = (t) => { if (t != null) pending.delete(typeof t === 'object' ? t.id : Number(t)); };
globalThis.setTimeout = (fn, ms, ...args) => schedule(fn, ms, args, false);
globalThis.setInterval = (fn, ms, ...args) => schedule(fn, ms, args, true);
globalThis.setImmediate = (fn, ...args) => schedule(fn, 0, args, false);
globalThis.clearTimeout = cancel;
globalThis.clearInterval = cancel;
globalThis.clearImmediate = cancel;

// --- require ---------------------------------------------------------------------------------
const builtins = { assert, 'assert/strict': assert.strict, util };
const module = { exports: {} };
globalThis.module = module;
globalThis.exports = module.exports;
globalThis.require = (name) => {
  const id = String(name).replace(/^node:/, '');
  if (Object.prototype.hasOwnProperty.call(builtins, id)) return builtins[id];
  const e = new Error(`Cannot find module '${name}'`);
  e.code = 'MODULE_NOT_FOUND';
  throw e;
};

// --- what the host calls ---------------------------------------------------------------------
const toNumber = Number; // (a program may replace the global)
/** Like Node's report of an uncaught exception: the throw site's source line, then the error. */
function formatUncaught(e, program) {
  if (!(e instanceof Error)) return `Uncaught ${util.inspect(e)}\n`;
  const stack = typeof e.stack === 'string' ? e.stack : '';
  const site = /test\.js:(\d+)(?::(\d+))?/.exec(stack);
  let text = '';
  if (site) {
    const line = program.split('\n')[Number(site[1]) - 1] ?? '';
    text += `/sandbox/test.js:${site[1]}\n${line}\n${' '.repeat(Math.max(0, Number(site[2] ?? 1) - 1))}^\n\n`;
  }
  text += `${String(e)}\n${stack}`;
  const extra = Object.keys(e).filter((k) => k !== 'stack' && k !== 'message');
  if (extra.length) text += ` {\n${extra.map((k) => `  ${k}: ${util.inspect(e[k])}`).join(',\n')}\n}`;
  return text + '\n\nNode.js v18.20.8 (benchtop: QuickJS)\n';
}

globalThis.__benchtop = {
  /** Runs the next due timer; false when none is left. Its exceptions propagate to the host. */
  runNextTimer() {
    if (pending.size === 0) return false;
    let next;
    for (const t of pending.values()) if (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq)) next = t;
    virtualNow = next.at;
    if (next.repeat) next.at += next.repeat;
    else pending.delete(next.seq);
    next.fn(...next.args);
    return true;
  },
  virtualNow: () => virtualNow,
  defaultExitCode: () => toNumber(process.exitCode ?? 0) || 0,
  /** process.on('uncaughtException'): true when listeners took the error (they may throw or exit). */
  handleUncaught(e) {
    if (listeners.uncaughtException.length === 0) return false;
    for (const fn of [...listeners.uncaughtException]) fn.call(process, e, 'uncaughtException');
    return true;
  },
  /**
   * Node's 'exit' event, once: the listeners get the code and may change it (exitCode, or exit(n),
   * which the host notes itself). A listener's error goes to the host.
   */
  emitExit(code) {
    process.exitCode = code;
    for (const fn of listeners.exit.splice(0)) fn.call(process, code);
    return toNumber(process.exitCode ?? 0) || 0;
  },
  formatUncaught,
};
