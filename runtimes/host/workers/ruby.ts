// The Ruby runtime worker of the page (see ../catalog.ts).
import { createRubyRuntime } from '../../ruby/rubywasm';
import { serveBrowserWorker } from '../browser-worker';

serveBrowserWorker('ruby', (s) => createRubyRuntime({ files: s.files ?? {} }));
