// Node's `process` global for programs in QuickJS (see prelude.js). Loaded before anything else.
const hostWrite = globalThis.__benchtop_write;
const hostExit = globalThis.__benchtop_exit;
delete globalThis.__benchtop_write;
delete globalThis.__benchtop_exit;
// Taken now: a program could replace the global before calling process.exit.
const toNumber = Number;

// The host keeps at most 1 MB of each stream (runtimes/host/output.ts: OUTPUT_LIMIT): never hand it more
// than that at once, only the length of the rest, so that printing 100 MB costs no 100 MB copy.
// Once the host says a stream is full, only lengths are passed.
const CAP = 1 << 20;
const full = [false, false, false];
export const write = (fd, text) => {
  const s = String(text);
  if (full[fd]) full[fd] = hostWrite(fd, '', s.length);
  else if (s.length <= CAP) full[fd] = hostWrite(fd, s);
  else full[fd] = hostWrite(fd, s.slice(0, CAP), s.length - CAP);
};

/**
 * Thrown by process.exit() to unwind the program, after the host has noted the code: the host
 * never asks the program's realm what a thrown value means, since a program may catch this and
 * reach its class (it ends here as in Node, where catching process.exit changes nothing).
 */
class ExitSignal {
  constructor(code) {
    this.code = code;
  }
}

// --- process ---------------------------------------------------------------------------------
// The two process events a test program may rely on: 'exit' (its listeners run when the program
// ends, inside its own run: their output and exit code count there) and 'uncaughtException'
// (a listener takes the error instead of the run ending). Other events are accepted and ignored.
export const listeners = { exit: [], uncaughtException: [] };
const addListener = (event, fn) => {
  if ((event === 'exit' || event === 'uncaughtException') && typeof fn === 'function') listeners[event].push(fn);
  return process;
};
const removeListener = (event, fn) => {
  const list = event === 'exit' || event === 'uncaughtException' ? listeners[event] : [];
  const at = list.findIndex((l) => l === fn || l.listener === fn);
  if (at >= 0) list.splice(at, 1);
  return process;
};
const once = (event, fn) => {
  const wrapper = function (...args) {
    removeListener(event, wrapper);
    return fn.apply(this, args);
  };
  wrapper.listener = fn;
  return addListener(event, wrapper);
};

export const process = {
  argv: ['node', '/sandbox/test.js'],
  env: {},
  platform: 'linux',
  version: 'v18.20.8',
  versions: { node: '18.20.8' },
  exitCode: undefined,
  exit(code) {
    const n = toNumber(code === undefined ? process.exitCode ?? 0 : code) || 0;
    hostExit(n);
    throw new ExitSignal(n);
  },
  stdout: { write: (s) => { write(1, String(s)); return true; }, isTTY: false },
  stderr: { write: (s) => { write(2, String(s)); return true; }, isTTY: false },
  stdin: { isTTY: false, on() { return this; } },
  nextTick: (fn, ...args) => queueMicrotask(() => fn(...args)),
  on: addListener,
  addListener,
  once,
  off: removeListener,
  removeListener,
  removeAllListeners(event) {
    for (const name of event === undefined ? Object.keys(listeners) : [event]) if (listeners[name]) listeners[name].length = 0;
    return process;
  },
  listenerCount: (event) => (event === 'exit' || event === 'uncaughtException' ? listeners[event].length : 0),
  emitWarning() {},
  cwd: () => '/sandbox',
  hrtime: Object.assign((prev) => {
    const ns = BigInt(Math.round(performance.now() * 1e6));
    const t = [Number(ns / 1000000000n), Number(ns % 1000000000n)];
    return prev ? [t[0] - prev[0], t[1] - prev[1]] : t;
  }, { bigint: () => BigInt(Math.round(performance.now() * 1e6)) }),
  memoryUsage: () => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0 }),
};
globalThis.process = process;
globalThis.global = globalThis;

