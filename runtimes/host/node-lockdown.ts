/**
 * The in-process wall of a runtime thread under Node (docs/security.md, "The CLI (Node)"): once
 * the runtime has loaded, no module can be loaded any more, `process` has no way left to native
 * code, signals, other processes or the inspector, and no global reaches the network or compiles
 * code. The other wall is the process's (node.ts): Node's permission model, an empty environment
 * and no code from strings, which hold even if something here is missed.
 */
import Module from 'node:module';
import { poisonCodeFromStrings } from './lockdown';

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;

/** `process` members that reach native code, modules, signals, other processes or files. */
export const PROCESS_REMOVED = [
  'binding', '_linkedBinding', 'dlopen', 'getBuiltinModule', 'loadEnvFile', 'kill', '_kill',
  '_debugProcess', '_debugEnd', '_startProfilerIdleNotifier', '_stopProfilerIdleNotifier', '_rawDebug',
  'abort', 'chdir', 'umask', 'setuid', 'setgid', 'seteuid', 'setegid', 'setgroups', 'initgroups',
  'openStdin', 'setSourceMapsEnabled', 'setUncaughtExceptionCaptureCallback', 'report', 'mainModule',
  'channel', 'send', 'disconnect',
] as const;

/** Globals of a Node thread that reach the network, other threads or code from strings. */
export const NODE_GLOBALS_REMOVED = [
  'fetch', 'WebSocket', 'EventSource', 'BroadcastChannel', 'require', 'eval', 'module', 'exports',
  '__filename', '__dirname',
] as const;

let closeLoading: (() => void) | null = null;

/**
 * Puts a gate in front of every CommonJS load (`require`, `createRequire`: how Emscripten's
 * glue reaches `child_process`, `fs`, `ws`, …): open while the runtime loads, shut for good by
 * lockdownNodeWorker. ES `import()` needs code, and there is no code from strings (above).
 */
export function gateModuleLoading(): void {
  if (closeLoading) return;
  const modules = Module as unknown as { _load: Load };
  const load = modules._load;
  let closed = false;
  Object.defineProperty(modules, '_load', {
    value: function (this: unknown, request: string, parent: unknown, isMain: boolean) {
      if (closed) throw new Error(`benchtop: test programs may not load modules (${String(request).slice(0, 80)})`);
      return load.call(this, request, parent, isMain);
    },
    writable: false,
    configurable: false,
  });
  closeLoading = () => (closed = true);
}

/** Node worker thread: no module loading, no code from strings, nothing on `process` or the globals to reach out with. */
export function lockdownNodeWorker(): void {
  if (!closeLoading) throw new Error('benchtop: gateModuleLoading() must run before the runtime loads');
  closeLoading();
  poisonCodeFromStrings();
  const proc = process as unknown as Record<string, unknown>;
  for (const name of PROCESS_REMOVED) {
    try {
      delete proc[name];
    } catch {
      // Not configurable on this Node version: the process's wall still holds.
    }
  }
  const g = globalThis as Record<string, unknown>;
  for (const name of NODE_GLOBALS_REMOVED) delete g[name];
}
