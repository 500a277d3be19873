import { render } from 'preact';
import { App } from './app.js';
import { embedded } from './api-client.js';
import './app.css';

// An exported file opens on its run unless its address names a screen.
if (embedded && (location.hash === '' || location.hash === '#')) location.hash = embedded.start;
const root = document.getElementById('app');
if (root) render(<App />, root);
