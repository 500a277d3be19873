import type { AppManifest } from './app-assets.js';

/** Where the app's page is served, by `calltape view` and by the proxy alike. */
export const appPagePath = '/calltape/app/';

/**
 * The app's headers: the page may load only its own script and stylesheet and talk only to
 * this server (no inline script, so injected markup cannot run), and no other page may frame it.
 * `X-Frame-Options` is for browsers that predate CSP's `frame-ancestors`.
 */
export const appPageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

/** The app's HTML page: an empty frame the bundled script fills. */
export function appPage(manifest: AppManifest): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>calltape view</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${manifest.style}">
<script type="module" src="${manifest.script}"></script>
</head>
<body><div id="app"></div></body>
</html>
`;
}
