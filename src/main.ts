// First: the page's connect-src policy (docs/security.md), before any other module can connect.
import './app/lib/install-csp';
import { mount } from 'svelte';
import App from './app/App.svelte';
import './app/global.css';

const target = document.getElementById('app');
if (!target) throw new Error('missing #app element');

export default mount(App, { target });
