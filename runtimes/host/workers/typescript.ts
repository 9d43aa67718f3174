// The TypeScript runtime worker of the page (see ../catalog.ts).
import { createTypeScriptRuntime } from '../../typescript/sucrase';
import { serveBrowserWorker } from '../browser-worker';

serveBrowserWorker('typescript', (s) => createTypeScriptRuntime({ wasm: s.files?.['quickjs.wasm'] }));
