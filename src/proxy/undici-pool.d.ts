/**
 * undici's Pool on its own (undici has no exports map, so the file is reachable): the package's
 * index also loads fetch, its WebSocket, caches and mocks, ~10 MB resident that a proxy forwarding
 * through a pool never uses (issue 21). The class is the one `undici` exports.
 */
declare module 'undici/lib/dispatcher/pool.js' {
  import { Pool } from 'undici';
  export default Pool;
}
