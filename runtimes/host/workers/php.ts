// The PHP runtime worker of the page (see ../catalog.ts).
import { createPhpRuntime } from '../../php/php';
import { serveBrowserWorker } from '../browser-worker';

serveBrowserWorker('php', (s) => createPhpRuntime({ files: s.files ?? {} }));
