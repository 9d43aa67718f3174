// The Perl runtime worker of the page (see ../catalog.ts).
import { createPerlRuntime } from '../../perl/zeroperl';
import { serveBrowserWorker } from '../browser-worker';

serveBrowserWorker('perl', (s) => createPerlRuntime({ files: s.files ?? {} }));
