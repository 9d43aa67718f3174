/// <reference types="vitest/config" />
import { copyFileSync, cpSync, createReadStream, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { SANDBOX_HEADER_POLICY, SANDBOX_PAGE, sandboxHtml } from './runtimes/host/sandbox-page.js';
import { CATALOG, runtimeFilePath } from './runtimes/host/catalog.js';
import { offlineShell } from './src/offline/shell-plugin.js';

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
        if (!/\.(mjs|js|wasm|zip|json)$/.test(f) || f === 'package.json') continue;
        // Two dev servers starting at once (parallel test runs) copied the same files over each
        // other and failed (ENOENT): a file already there is kept, a new one is renamed into place.
        const have = statSync(to + f, { throwIfNoEntry: false });
        const source = statSync(from + f);
        if (have && have.size === source.size && have.mtimeMs >= source.mtimeMs) continue;
        const partial = `${to}${f}.${process.pid}.partial`;
        cpSync(from + f, partial);
        renameSync(partial, to + f);
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
 * The sha256 of each runtime file, compiled into the page (RUNTIME_FILE_HASHES): the page asks for
 * `…?v=<hash>`, so the browser's cache of runtime files (runtime-files.ts) never serves a stale
 * file after an update, and checks every file against it before use, so a rewritten cache entry
 * is never run (docs/security.md). A `.gz` file has two: some servers (vite preview among them)
 * send it with `content-encoding: gzip`, and the browser hands over the unpacked bytes.
 */
function runtimeFileHashes(): Record<string, string[]> {
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const hashes: Record<string, string[]> = {};
  for (const [path, file] of catalogFiles()) {
    const bytes = readFileSync(file);
    hashes[path] = path.endsWith('.gz') ? [sha256(bytes), sha256(gunzipSync(bytes))] : [sha256(bytes)];
  }
  return hashes;
}

/** The size of each runtime file, compiled into the page (RUNTIME_FILE_BYTES): what Run will download, and its percent. */
function runtimeFileBytes(): Record<string, number> {
  return Object.fromEntries([...catalogFiles()].map(([path, file]) => [path, statSync(file).size]));
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
 * Where we serve it ourselves (dev server, `vite preview`), headers add what only a header can:
 * only the app's own origin may frame it, and it is sandboxed even if framed without the
 * attribute. (The frame's script refuses to run unsandboxed or for another parent either way.)
 */
function runtimeSandboxPage(): Plugin {
  const headers = (res: { setHeader(name: string, value: string): unknown }) => {
    res.setHeader('content-security-policy', SANDBOX_HEADER_POLICY);
    res.setHeader('x-content-type-options', 'nosniff');
  };
  const isSandboxPage = (url: string | undefined) => url?.split('?')[0] === `/${SANDBOX_PAGE}`;
  return {
    name: 'benchtop-runtime-sandbox',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (!isSandboxPage(req.url)) return next();
        headers(res);
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(sandboxHtml().html);
      });
    },
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        if (isSandboxPage(req.url)) headers(res);
        next();
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: SANDBOX_PAGE, source: sandboxHtml().html });
    },
  };
}

/** assets/<language>-<hash>.js for runtimes/<language>/worker.ts (`npm run bench` sizes them by name). */
function workerFileName(chunk: { facadeModuleId: string | null }): string {
  const language = /\/runtimes\/([\w-]+)\/worker\.ts$/.exec(chunk.facadeModuleId ?? '')?.[1];
  return `assets/${language ?? '[name]'}-[hash].js`;
}

export default defineConfig(({ isPreview }) => ({
  // Only code compiled for the browser (build, dev server) reads the hashes: `vite preview` serves
  // the build as it is and Vitest runs no browser code, so neither spends seconds hashing the
  // runtime files (a preview server starts for the e2e tests and for `npm run bench`).
  define: isPreview || process.env.VITEST ? {} : { RUNTIME_FILE_HASHES: JSON.stringify(runtimeFileHashes()), RUNTIME_FILE_BYTES: JSON.stringify(runtimeFileBytes()) },
  plugins: [pyodideFromOwnOrigin(), runtimeFiles(), runtimeSandboxPage(), svelte(), offlineShell()],
  // Classic workers: the runtime worker runs from a blob: URL inside the sandbox frame, with no
  // chunk to import from the network, so it is one self-contained script.
  // Pyodide's loader imports `node-fetch` on its Node path only (never taken in a browser worker).
  // Each language's worker script (runtimes/<language>/worker.ts) is named after its language.
  worker: { format: 'iife', rolldownOptions: { external: ['node-fetch'], output: { entryFileNames: workerFileName } } },
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
    globalSetup: ['tests/global-setup.ts'],
    reporters: ['default', './tests/summary-reporter.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Two cores: test files that start runtimes or a browser would only fight each other.
    fileParallelism: false,
    projects: [
      { extends: true, test: { name: 'node', include: ['tests/{unit,integration,security}/**/*.test.ts'] } },
      // The built app in Chromium: one preview server for all its files (tests/support/app-server.ts),
      // started only when an e2e file is in the run.
      { extends: true, test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'], globalSetup: ['tests/support/app-server.ts'] } },
    ],
  },
}));
