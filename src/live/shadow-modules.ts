/**
 * What shadow scoring needs beyond the live side every proxy runs: the policies loader (ajv, the
 * suite loader and the scoring engine behind it), the scoring worker's queue, its store, the
 * policies file's watcher and the alert webhook's client (undici's index). `live-service.ts`
 * imports this only when a policies file is configured: a proxy without `--policies` never loads,
 * compiles or keeps them (tens of MB of heap).
 */
export { postAlert } from './alert-webhook.js';
export { loadPolicies } from './load-policies.js';
export { watchFile } from './policy-watcher.js';
export { ShadowQueue } from './shadow-queue.js';
export { ShadowStore } from './shadow-store.js';
