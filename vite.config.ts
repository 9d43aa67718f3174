/// <reference types="vitest/config" />
import { copyFileSync, cpSync, createReadStream, linkSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { SANDBOX_PAGE, sandboxHtml } from './runtimes/host/sandbox-page.js';
import { CATALOG, runtimeFilePath } from './runtimes/host/catalog.js';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * `npm run dev` only: Pyodide loads itself from the app's own origin (no CDN) by its index URL;
 * its files are copied from node_modules into public/pyodide/ when the dev server starts. (The
 * built app hands every runtime its files instead: runtimeFiles below.)
 */
function pyodideFromOwnOrigin(): Plugin {
  return {
    name: 'benchtop-pyodide-files',
    apply: 'serve',
    buildStart() {
      const from = `${root}node_modules/pyodide/`;
      const to = `${root}public/pyodide/`;
      mkdirSync(to, { recursive: true });
      for (const f of readdirSync(from)) {
        if (/\.(mjs|js|wasm|zip|json)$/.test(f) && f !== 'package.json') cpSync(from + f, to + f);
      }
    },
  };
}

/** Every runtime file of the catalog: its URL path on the app's origin → its path on disk. */
function catalogFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of Object.values(CATALOG)) {
    for (const path of Object.values(entry!.files)) files.set(runtimeFilePath(path), `${root}node_modules/${path}`);
  }
  return files;
}

/**
 * A short content hash per runtime file, compiled into the page (RUNTIME_FILE_VERSIONS): the page
 * asks for `…?v=<hash>`, so the browser's cache of runtime files (sandbox.ts) never serves a stale
 * file after an update.
 */
function runtimeFileVersions(): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const [path, file] of catalogFiles()) versions[path] = createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 12);
  return versions;
}

/**
 * The in-page runtimes' files (runtimes/host/catalog.ts), served on the app's own origin as
 * runtimes/<language>/<name>: streamed from node_modules by the dev server, and put beside the
 * build (hard links where the file system allows: some are tens of MB).
 */
function runtimeFiles(): Plugin {
  let outDir = '';
  return {
    name: 'benchtop-runtime-files',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : join(root, config.build.outDir);
    },
    configureServer(server) {
      const files = catalogFiles();
      server.middlewares.use((req, res, next) => {
        const file = files.get((req.url ?? '').split('?')[0]!.replace(/^\//, ''));
        if (!file) return next();
        res.setHeader('content-type', file.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream');
        res.setHeader('content-length', String(statSync(file).size));
        createReadStream(file).pipe(res);
      });
    },
    writeBundle() {
      for (const [path, file] of catalogFiles()) {
        const to = join(outDir, path);
        mkdirSync(dirname(to), { recursive: true });
        try {
          linkSync(file, to);
        } catch {
          copyFileSync(file, to);
        }
      }
    },
  };
}

/**
 * The runtime sandbox page (runtimes/host/sandbox-page.ts): emitted as dist/sandbox.html by a
 * build, served by the dev server. Its Content Security Policy is a <meta> in the page itself,
 * with the hash of its one script, so any static host serves the wall as is (docs/security.md).
 */
function runtimeSandboxPage(): Plugin {
  return {
    name: 'benchtop-runtime-sandbox',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url?.split('?')[0] !== `/${SANDBOX_PAGE}`) return next();
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(sandboxHtml().html);
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: SANDBOX_PAGE, source: sandboxHtml().html });
    },
  };
}

export default defineConfig({
  define: { RUNTIME_FILE_VERSIONS: JSON.stringify(runtimeFileVersions()) },
  plugins: [pyodideFromOwnOrigin(), runtimeFiles(), runtimeSandboxPage(), svelte()],
  // Classic workers: the runtime worker runs from a blob: URL inside the sandbox frame, with no
  // chunk to import from the network, so it is one self-contained script.
  // Pyodide's loader imports `node-fetch` on its Node path only (never taken in a browser worker).
  worker: { format: 'iife', rolldownOptions: { external: ['node-fetch'] } },
  optimizeDeps: { exclude: ['pyodide', 'quickjs-emscripten-core', '@jitl/quickjs-ng-wasmfile-release-sync'] },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 5173, strictPort: true },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
    // bench.html: the measurement page that `npm run bench` drives in Chromium.
    rolldownOptions: { input: { main: 'index.html', bench: 'bench.html' } },
  },
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/global-setup.ts'],
    reporters: ['default', './tests/summary-reporter.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Two cores: test files that start runtimes or a browser would only fight each other.
    fileParallelism: false,
  },
});
