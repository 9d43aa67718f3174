// The R runtime worker of the page (see ../catalog.ts).
import { createRRuntime } from '../../r/webr';
import { serveBrowserWorker } from '../browser-worker';

serveBrowserWorker('r', (s) => createRRuntime({ files: s.files ?? {} }));
