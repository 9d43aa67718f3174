// Moved to src/bench/chromium.mjs (src/cli must not import scripts/). Kept for the e2e tests and
// scripts/screenshots.mjs, which the e2e branch is rewriting onto one page helper: delete it then.
export { CHROMIUM_ARGS, CHROMIUM_PATH } from '../src/bench/chromium.mjs';
