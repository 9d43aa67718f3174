/** Before any test: build the Node bundles (CLI and runtime worker) from the current sources. */
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build-node.mjs'], { stdio: 'inherit' });
}
