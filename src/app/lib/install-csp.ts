/** Imported first by src/main.ts: the connect-src policy is in place before any other module runs. */
import { installConnectPolicy } from './csp';

installConnectPolicy();
