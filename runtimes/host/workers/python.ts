// The Python runtime worker of the page (see ../catalog.ts).
import { createPythonRuntime } from '../../python/pyodide';
import { serveBrowserWorker } from '../browser-worker';

serveBrowserWorker('python', (s) => createPythonRuntime({ indexURL: s.pyodideIndexURL, files: s.files }));
