#!/usr/bin/env node
/**
 * `npm test`'s last step: Vitest's two projects side by side, as two Vitest processes: `node`
 * (unit, integration, security) and `e2e` (the built app in Chromium). Each project runs its files
 * one at a time (vite.config.ts), so the two together use the machine's two cores; run one after
 * the other they took 44 minutes in CI, close to its 45-minute limit. Output lines are prefixed
 * with their project; the last line is the plain `N passed, N failed` over both, which CI reads.
 * Arguments go to both (`npm test -- tests/unit` runs only the unit files).
 */
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

// The Node bundles are built once here; each project's global set-up then skips it
// (tests/global-setup.ts), so the two processes do not write dist-node/ at the same time.
execFileSync(process.execPath, ['scripts/build-node.mjs'], { stdio: 'inherit' });
const env = { ...process.env, BENCHTOP_NODE_BUILT: '1' };
const SUMMARY = /^(\d+) passed, (\d+) failed/;
const ANSI = /\x1b\[[0-9;]*m/g;

function runProject(name) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--project', name, '--passWithNoTests', ...process.argv.slice(2)], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let summary = null;
    const started = Date.now();
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        const match = SUMMARY.exec(line.replace(ANSI, ''));
        if (match) summary = { passed: Number(match[1]), failed: Number(match[2]) };
        process.stdout.write(`[${name}] ${line}\n`);
      });
    }
    child.on('close', (code, signal) => resolve({ name, code, signal, summary, seconds: (Date.now() - started) / 1000 }));
  });
}

const results = await Promise.all(['node', 'e2e'].map(runProject));
let passed = 0;
let failed = 0;
for (const r of results) {
  console.log(`${r.name}: ${r.summary ? `${r.summary.passed} passed, ${r.summary.failed} failed` : `no summary (exit ${r.code ?? r.signal})`} in ${r.seconds.toFixed(0)} s`);
  passed += r.summary?.passed ?? 0;
  // A project that ended without its summary line (it crashed, or could not start) counts as a failure.
  failed += r.summary ? r.summary.failed : 1;
  if (r.summary && r.code !== 0 && r.summary.failed === 0) failed += 1; // non-zero exit with nothing counted failed: an unhandled error
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
