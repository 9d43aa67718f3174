/**
 * Defence in depth for runtime workers (docs/security.md): once the runtime has loaded, take away
 * what no test program may use. The walls that do not depend on this are the sandboxed frame's
 * opaque origin and Content Security Policy (browser) and the worker's empty environment (Node);
 * this only removes the handles, so that a program that finds a way out of its runtime (a
 * Pyodide JsProxy, say) finds nothing to call.
 */

/** Globals of a worker that reach the network, storage, other contexts or code loading. */
export const WORKER_GLOBALS_REMOVED = [
  'fetch', 'XMLHttpRequest', 'WebSocket', 'WebSocketStream', 'EventSource', 'WebTransport',
  'importScripts', 'Worker', 'SharedWorker', 'ServiceWorker', 'indexedDB', 'caches', 'cookieStore',
  'BroadcastChannel', 'FileSystemHandle', 'FileSystemFileHandle', 'FileSystemDirectoryHandle',
  'webkitRequestFileSystem', 'webkitRequestFileSystemSync', 'webkitResolveLocalFileSystemURL',
  'postMessage', 'close', 'onmessage', 'onmessageerror',
] as const;

/** Deletes `names` from an object and every prototype on its chain (own properties only). */
function removeEverywhere(target: object, names: readonly string[]): string[] {
  const left: string[] = [];
  for (const name of names) {
    for (let o: object | null = target; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
      if (Object.prototype.hasOwnProperty.call(o, name)) {
        try {
          delete (o as Record<string, unknown>)[name];
        } catch {
          // A non-configurable property: checked below.
        }
      }
    }
    if (name in target) left.push(name);
  }
  return left;
}

/**
 * Makes the constructors that compile code from strings (`Function`, `AsyncFunction`, …)
 * unreachable through `.constructor`, the usual way out of an object graph to `eval`. Under a
 * Content Security Policy without 'unsafe-eval' they throw anyway; under Node nothing else stops
 * them.
 */
export function poisonCodeFromStrings(): void {
  const blocked = function Function(): never {
    throw new EvalError('benchtop: code generation from strings is disabled in test runtimes');
  };
  const prototypes = [
    Function.prototype,
    Object.getPrototypeOf(async function () {}),
    Object.getPrototypeOf(function* () {}),
    Object.getPrototypeOf(async function* () {}),
  ] as object[];
  for (const proto of prototypes) {
    Object.defineProperty(proto, 'constructor', { value: blocked, writable: false, configurable: false });
  }
}

/** Browser worker: removes the network, storage and messaging globals; returns any that stayed. */
export function lockdownBrowserWorker(scope: object): string[] {
  return removeEverywhere(scope, WORKER_GLOBALS_REMOVED);
}

// The Node half (module gate, `process`, Node globals) is in node-lockdown.ts.
