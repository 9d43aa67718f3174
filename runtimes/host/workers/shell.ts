// The Shell runtime worker of the page (see ../catalog.ts).
import { createShellRuntime } from '../../shell/just-bash';
import { serveBrowserWorker } from '../browser-worker';

serveBrowserWorker('shell', () => createShellRuntime());
