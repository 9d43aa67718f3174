// First: the page's connect-src policy (docs/security.md), before any other module can connect.
import './app/lib/install-csp';
import { mount } from 'svelte';
import App from './app/App.svelte';
import './app/global.css';

const target = document.getElementById('app');
if (!target) throw new Error('missing #app element');

export default mount(App, { target });

// Offline after the first visit (src/offline/service-worker.ts): the built app only; the dev
// server's modules change on every edit and are not in its list.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  navigator.serviceWorker.register(`${import.meta.env.BASE_URL}service-worker.js`).catch((e: unknown) => console.warn(`offline use unavailable: ${(e as Error).message}`));
}
