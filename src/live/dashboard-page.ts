import { pageAsset } from '../page-assets.js';

/** The dashboard: one self-contained HTML file (inline script and styles, no CDN), read once. */
export function dashboardPage(): string {
  return pageAsset('dashboard.html');
}
