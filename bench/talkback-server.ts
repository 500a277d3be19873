/**
 * talkback (the peer VCR proxy) in its own process for the replay benchmark, so it gets a core
 * just as calltape does. BENCH_TALKBACK_MODE is `record` or `replay`; prints its port.
 */
import type { AddressInfo } from 'node:net';
import talkbackModule from 'talkback';

// talkback is CommonJS (module.exports = talkback) with `export default` typings; take whichever is there.
const talkback = ((talkbackModule as { default?: unknown }).default ??
  talkbackModule) as typeof talkbackModule.default;

const mode = process.env['BENCH_TALKBACK_MODE'] ?? 'replay';
const server = talkback({
  host: process.env['BENCH_UPSTREAM'] ?? 'http://127.0.0.1:1',
  path: process.env['BENCH_TAPES'] ?? 'tapes',
  port: 0,
  record:
    mode === 'record' ? talkback.Options.RecordMode.NEW : talkback.Options.RecordMode.DISABLED,
  fallbackMode: talkback.Options.FallbackMode.NOT_FOUND,
  silent: true,
  summary: false,
});
const http = await server.start();
process.stdout.write(`${(http.address() as AddressInfo).port}\n`);
