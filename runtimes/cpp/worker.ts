// The page's C++ runtime worker (runtimes/host/browser.ts starts one per pool slot).
import { serveBrowserWorker } from '../host/browser-worker';
import { loader } from './loader';

serveBrowserWorker(loader);
