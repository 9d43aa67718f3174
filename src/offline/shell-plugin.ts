/**
 * Build step for the app's service worker (src/offline/service-worker.ts): after the bundle is
 * written, lists every file of the app shell with its sha256 (the vite bundle: index.html, the
 * scripts and styles with hashed names, the runtime workers' scripts, the demo set) and compiles
 * the worker with that list into dist/service-worker.js. Hand-written rather than workbox: our one
 * rule (cache these files, check their hashes, touch nothing else) is ~80 lines, where
 * vite-plugin-pwa brings workbox-build and its Babel/Rollup tool chain. Node-only (vite.config.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import type { Plugin } from 'vite';
import { SANDBOX_HEADER_POLICY, SANDBOX_PAGE } from '../../runtimes/host/sandbox-page.js';

export const SERVICE_WORKER = 'service-worker.js';
const CACHE_PREFIX = 'benchtop-shell-';

/** Files of the bundle the page never needs offline: the measurement page (`npm run bench`). */
const LEFT_OUT = /^(bench\.html|assets\/bench-[\w-]+\.js)$|\.map$/;

export function offlineShell(): Plugin {
  let outDir = '';
  return {
    name: 'benchtop-offline-shell',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : join(config.root, config.build.outDir);
    },
    writeBundle: {
      order: 'post',
      handler(_options, bundle) {
        const files: Record<string, string> = {};
        for (const name of Object.keys(bundle).sort()) {
          if (LEFT_OUT.test(name)) continue;
          files[name] = createHash('sha256').update(readFileSync(join(outDir, name))).digest('hex');
        }
        const version = createHash('sha256').update(JSON.stringify(files)).digest('hex').slice(0, 16);
        const shell = { cache: CACHE_PREFIX + version, prefix: CACHE_PREFIX, files, sandbox: SANDBOX_PAGE, sandboxPolicy: SANDBOX_HEADER_POLICY };
        const built = buildSync({
          entryPoints: [fileURLToPath(new URL('./service-worker.ts', import.meta.url))],
          bundle: true,
          write: false,
          format: 'iife',
          target: 'es2022',
          minify: true,
          define: { SHELL: JSON.stringify(shell) },
        });
        writeFileSync(join(outDir, SERVICE_WORKER), built.outputFiles[0]!.text);
      },
    },
  };
}
