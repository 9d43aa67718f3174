/**
 * The app's service worker (issue #17, offline after the first visit): it keeps the app shell —
 * index.html and every file of the build (scripts with hashed names, styles, the runtime workers'
 * scripts, the embedded demo set) — in Cache Storage and serves it from there, so the page starts
 * with the network gone. The runtimes' own files are not its job: runtimes/host/runtime-files.ts
 * keeps them in a cache of their own and checks them itself. Requests for anything else (a
 * provider, a runner, a dataset URL) are not touched: the browser handles them as if there were
 * no worker, under the page's own Content Security Policy.
 *
 * The runtime frame (sandbox.html): a page this worker controls loads it without the sandbox
 * attribute (runtimes/host/sandbox.ts: Chromium never hands a sandboxed frame's navigation to a
 * service worker), so the worker always serves it with the sandbox as a header of its own,
 * `sandbox allow-scripts; frame-ancestors 'self'`, whatever the server sent: the same opaque
 * origin, and the frame's <meta> policy unchanged (docs/security.md).
 *
 * Every file is checked against the sha256 the build computed (SHELL, compiled in by
 * src/offline/shell-plugin.ts) when it is cached and each time it is served: a cache entry that
 * something rewrote is never served (docs/security.md). Built into dist/service-worker.js.
 */
/// <reference lib="webworker" />
// A module (its `self` is its own, not the runtime workers'); esbuild bundles it into one script.
export {};
declare const self: ServiceWorkerGlobalScope;
declare const SHELL: { cache: string; prefix: string; files: Record<string, string>; sandbox: string; sandboxPolicy: string };

const scope = new URL(self.registration.scope);
/** URL (no query) → hex sha256, for each file of the shell. */
const HASHES = new Map(Object.entries(SHELL.files).map(([path, hash]) => [new URL(path, scope).href, hash]));
const INDEX = new URL('index.html', scope).href;
const SANDBOX = new URL(SHELL.sandbox, scope).href;

async function sha256(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The file from the network, if it is the build's; cached when `cache` is given. */
async function download(url: string, request: RequestInfo, cache?: Cache): Promise<Response> {
  const response = await fetch(request, { cache: 'no-cache' });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  if ((await sha256(await response.clone().arrayBuffer())) !== HASHES.get(url)) throw new Error(`${url} is not the file this app was built with`);
  await cache?.put(url, response.clone());
  return response;
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL.cache);
    await Promise.all([...HASHES.keys()].map((url) => download(url, url, cache)));
    // A new build takes over at once: the files it serves are its own, from its own cache.
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith(SHELL.prefix) && name !== SHELL.cache) await caches.delete(name);
    await self.clients.claim();
  })());
});

/** The runtime frame's page, always with its sandbox and no-sniff headers (see the top). */
async function serveSandbox(request: Request): Promise<Response> {
  const response = await serve(request, SANDBOX);
  const headers = new Headers(response.headers);
  headers.set('content-security-policy', SHELL.sandboxPolicy);
  headers.set('x-content-type-options', 'nosniff');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** From the cache if the entry is still the build's bytes; else from the network (and cached again). */
async function serve(request: Request, url: string): Promise<Response> {
  const cache = await caches.open(SHELL.cache);
  const hit = await cache.match(url);
  if (hit && (await sha256(await hit.clone().arrayBuffer())) === HASHES.get(url)) return hit;
  if (hit) await cache.delete(url);
  // A navigation is fetched as a plain GET of the file: a navigate request cannot be replayed into fetch() options.
  try {
    return await download(url, request.mode === 'navigate' ? url : request, cache);
  } catch {
    return fetch(request); // what the browser would have done without us (and its error)
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  url.search = '';
  url.hash = '';
  const key = request.mode === 'navigate' && url.href === scope.href ? INDEX : url.href;
  if (key === SANDBOX) event.respondWith(serveSandbox(request));
  else if (HASHES.has(key)) event.respondWith(serve(request, key));
});
