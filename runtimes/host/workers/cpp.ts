// The C++ runtime worker of the page (see ../catalog.ts).
import { createCppRuntime } from '../../cpp/clang';
import { serveBrowserWorker } from '../browser-worker';

serveBrowserWorker('cpp', (s) => createCppRuntime({ files: s.files ?? {} }));
