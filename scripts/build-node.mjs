// Builds what Node runs: the CLI (dist-node/cli.mjs), the generator (dist-node/generate.mjs), the conformance report
// (dist-node/conformance.mjs), the runtime worker (dist-node/worker.mjs, in its own process: worker-process.mjs) and the remote runner
// (dist-node/runner.mjs), from the same sources as the page. npm packages stay external (loaded from node_modules).
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

execFileSync(process.execPath, [new URL('./build-node-env.mjs', import.meta.url).pathname, '--quiet'], { stdio: 'inherit' });

/** `import text from './file?raw'`, as Vite does it. */
const raw = {
  name: 'raw',
  setup(b) {
    b.onResolve({ filter: /\?raw$/ }, (args) => ({
      path: new URL(args.path.replace(/\?raw$/, ''), `file://${args.resolveDir}/`).pathname,
      namespace: 'raw',
    }));
    b.onLoad({ filter: /.*/, namespace: 'raw' }, (args) => ({ contents: readFileSync(args.path, 'utf8'), loader: 'text' }));
  },
};

await build({
  entryPoints: { cli: 'src/cli/main.ts', generate: 'src/cli/generate.ts', conformance: 'src/cli/conformance.ts', bench: 'src/cli/bench.ts', 'cpp-objects': 'src/cli/cpp-objects.ts', worker: 'runtimes/host/node-worker.ts', 'worker-process': 'runtimes/host/node-process.ts', runner: 'runner/main.ts' },
  outdir: 'dist-node',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  plugins: [raw],
  logLevel: 'error',
});
