// The JavaScript runtime worker of the page (see ../catalog.ts).
import { createJavaScriptRuntime } from '../../javascript/quickjs';
import { serveBrowserWorker } from '../browser-worker';

serveBrowserWorker('javascript', (s) => createJavaScriptRuntime({ wasm: s.files?.['quickjs.wasm'] }));
