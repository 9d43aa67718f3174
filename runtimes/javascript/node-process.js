// Node's `process` global for programs in QuickJS (see prelude.js). Loaded before anything else.
export const write = globalThis.__benchtop_write;
delete globalThis.__benchtop_write;

/** Thrown by process.exit(); the host turns it into the exit code. */
export class ExitSignal {
  constructor(code) {
    this.code = code;
  }
}

// --- process ---------------------------------------------------------------------------------
export const process = {
  argv: ['node', '/sandbox/test.js'],
  env: {},
  platform: 'linux',
  version: 'v18.20.8',
  versions: { node: '18.20.8' },
  exitCode: undefined,
  exit(code) { throw new ExitSignal(code === undefined ? process.exitCode ?? 0 : code); },
  stdout: { write: (s) => { write(1, String(s)); return true; }, isTTY: false },
  stderr: { write: (s) => { write(2, String(s)); return true; }, isTTY: false },
  stdin: { isTTY: false, on() { return this; } },
  nextTick: (fn, ...args) => queueMicrotask(() => fn(...args)),
  on() { return process; },
  once() { return process; },
  off() { return process; },
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

