// The runtime frame's only script, inlined into sandbox.html (sandbox-page.ts) and allowed there by
// its hash. The frame is loaded with sandbox="allow-scripts": an opaque origin, so neither it nor
// its workers can open the app's storage, and its Content Security Policy allows no connection at
// all, which its blob: workers inherit. It starts runtime workers from the code the page hands it,
// gives each the runtime files of its language, and relays their loads' messages (runs and
// results go on a channel of each worker's own, handed over with its init). What the first worker
// of a language compiled while loading (its `shared` message, before `ready`: clang's WebAssembly
// modules) stays here and goes to that language's later workers with their files.
//
// It serves the app's own page and nothing else (docs/security.md, "the frame"): it refuses to do
// anything unless its own origin is opaque (framed without the sandbox attribute, by another site
// or as a top-level page, it would run with the app's origin and reach the app's storage), and it
// takes orders only from a MessagePort that its parent, on the app's own origin, hands it once.
'use strict';
(() => {
  // location.origin is the origin of this page's URL (the app's); self.origin is this document's,
  // "null" when sandboxed.
  const appOrigin = location.origin;
  if (self.origin !== 'null' || parent === self) {
    document.documentElement.dataset.refused = 'not sandboxed';
    return;
  }
  const workers = new Map();
  const files = new Map();
  // language → what its first worker compiled while loading (runtimes/loader.ts RuntimeShared).
  const shared = new Map();
  // One worker script per language, as a blob: URL (the frame may not load any other script).
  const scripts = new Map();
  let port = null;
  const toPage = (message) => port.postMessage(message);

  addEventListener('message', function handOver(event) {
    if (event.source !== parent || event.origin !== appOrigin || event.data !== 'benchtop-sandbox' || event.ports.length !== 1) return;
    removeEventListener('message', handOver);
    port = event.ports[0];
    port.onmessage = (e) => {
      if (typeof e.data === 'object' && e.data !== null) handle(e.data, e.ports);
    };
    toPage({ kind: 'ready' });
  });

  function isShared(value) {
    if (typeof value !== 'object' || value === null) return false;
    const modules = Object.values(value.modules || {});
    const bytes = Object.values(value.bytes || {});
    return modules.every((x) => x instanceof WebAssembly.Module) && bytes.every((x) => x instanceof Uint8Array);
  }

  function handle(m, ports) {
    switch (m.kind) {
      case 'ping':
        toPage({ kind: 'pong' });
        break;
      case 'code':
        if (!scripts.has(m.language)) scripts.set(m.language, URL.createObjectURL(new Blob([m.code], { type: 'text/javascript' })));
        break;
      case 'files-port': {
        // The other end is the page's runtime-files worker, which posts this language's checked
        // files on it once (as Blobs: handles, so no copy of the bytes lands on this thread, nor
        // in each worker's init) and never listens: the frame sends nothing back on it.
        const from = ports && ports[0];
        if (!from || typeof m.language !== 'string') break;
        from.onmessage = (f) => {
          from.close();
          const d = f.data;
          if (typeof d !== 'object' || d === null || d.language !== m.language || typeof d.files !== 'object' || d.files === null) return;
          files.set(m.language, d.files);
          toPage({ kind: 'files-ready', language: m.language });
        };
        break;
      }
      case 'spawn': {
        const script = scripts.get(m.language);
        if (!script || workers.has(m.worker)) break;
        const id = m.worker;
        let worker;
        try {
          worker = new Worker(script, { name: `benchtop-${m.language}` });
        } catch (e) {
          toPage({ kind: 'exit', worker: id, reason: `could not start a worker: ${e && e.message}` });
          break;
        }
        workers.set(id, worker);
        let ready = false;
        worker.addEventListener('message', (e) => {
          const message = e.data;
          if (message && message.type === 'shared') {
            // Taken only while the worker is loading (before any program has run in it), and only
            // the first for its language; never relayed (a compiled module cannot reach the page).
            if (!ready && !shared.has(m.language) && isShared(message.shared)) shared.set(m.language, message.shared);
            return;
          }
          if (message && message.type !== 'status') ready = true;
          toPage({ kind: 'message', worker: id, message });
        });
        worker.addEventListener('messageerror', () => toPage({ kind: 'exit', worker: id, reason: 'unreadable message' }));
        worker.addEventListener('error', (e) => {
          e.preventDefault();
          toPage({ kind: 'exit', worker: id, reason: e.message || 'worker error' });
        });
        break;
      }
      case 'post': {
        const worker = workers.get(m.worker);
        if (!worker) break;
        let message = m.message;
        if (message && message.type === 'init') {
          const given = shared.get(message.language);
          let handed = files.get(message.language);
          if (given && handed) {
            // The compiled modules replace their .wasm files: no 75 MB copy for each later worker.
            handed = { ...handed };
            for (const name of Object.keys(given.modules || {})) delete handed[name];
          }
          message = { ...message, settings: { ...message.settings, files: handed, ...(given ? { shared: given } : {}) } };
        }
        // The page's end of the worker's direct channel for runs and results comes with init.
        const direct = message && message.type === 'init' && ports && ports[0];
        worker.postMessage(message, direct ? [direct] : []);
        break;
      }
      case 'terminate': {
        const worker = workers.get(m.worker);
        if (worker) worker.terminate();
        workers.delete(m.worker);
        break;
      }
    }
  }
})();
