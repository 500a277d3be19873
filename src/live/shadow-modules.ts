/**
 * What shadow scoring needs beyond the live side every proxy runs: the policies loader (ajv, the
 * suite loader and the scoring engine behind it), the scoring worker's queue, its store and the
 * policies file's watcher. `live-service.ts` imports this only when a policies file is configured:
 * a proxy without `--policies` never loads, compiles or keeps them (tens of MB of heap).
 */
export { loadPolicies } from './load-policies.js';
export { watchFile } from './policy-watcher.js';
export { ShadowQueue } from './shadow-queue.js';
export { ShadowStore } from './shadow-store.js';
