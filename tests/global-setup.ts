/** Before any test: build the Node bundles (CLI and runtime worker) from the current sources. */
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  // Once per run: the root config and each project that extends it (vite.config.ts) list this file.
  if (process.env.BENCHTOP_NODE_BUILT) return;
  execFileSync(process.execPath, ['scripts/build-node.mjs'], { stdio: 'inherit' });
  process.env.BENCHTOP_NODE_BUILT = '1';
}
