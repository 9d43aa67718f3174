/// <reference types="vitest/config" />
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { SANDBOX_PAGE, sandboxHtml } from './runtimes/host/sandbox-page.js';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Serves Pyodide from the app's own origin (no CDN): its runtime files are copied from
 * node_modules into public/pyodide/ whenever the dev server or a build starts.
 */
function pyodideFromOwnOrigin(): Plugin {
  return {
    name: 'benchtop-pyodide-files',
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
  plugins: [pyodideFromOwnOrigin(), runtimeSandboxPage(), svelte()],
  // Classic workers: the runtime worker runs from a blob: URL inside the sandbox frame, with no
  // chunk to import from the network, so it is one self-contained script.
  worker: { format: 'iife' },
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
