/**
 * A runtime worker's own process under the CLI (bundled to dist-node/worker-process.mjs). node.ts
 * forks one per pool slot, under Node's permission model and with an empty environment; this
 * process only hosts the runtime worker thread (node-worker.ts: a thread, for its 64 MB stack, as
 * deep as `node` / `python3` allow) and relays messages between it and the CLI. Nothing here
 * parses a message: the pool (pool.ts) checks what comes back.
 */
import { Worker } from 'node:worker_threads';

const send = process.send?.bind(process);
if (!send) throw new Error('benchtop: worker-process.mjs runs only as a forked child of the CLI');

const worker = new Worker(new URL('./worker.mjs', import.meta.url), {
  resourceLimits: { stackSizeMb: 64 },
  env: {},
  argv: [],
  execArgv: [],
  // Not piped to ours: a program's output is what its runtime captures, nothing else.
  stdout: true,
  stderr: true,
});
worker.stdout.resume();
worker.stderr.resume();
process.on('message', (message) => worker.postMessage(message));
worker.on('message', (message) => send(message));
worker.on('error', (e) => {
  // Told to the CLI through the exit reason (node.ts keeps the end of our stderr).
  process.stderr.write(`${String(e?.message ?? e).slice(0, 300)}\n`);
  process.exit(70);
});
worker.on('exit', (code) => process.exit(code || 1));
// The CLI went away (or killed its end of the channel): nothing left to serve.
process.on('disconnect', () => process.exit(0));
