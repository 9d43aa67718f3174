export { CHROMIUM_ARGS, CHROMIUM_PATH } from '../src/bench/chromium.mjs';
