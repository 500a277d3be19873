import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/config.js';
import { packageRoot } from '../../src/package-root.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy } from '../support/test-proxy.js';

const run = promisify(execFile);
// Compiled by `npm run build` (npm test builds before the suite), like the CLI the e2e tests run.
const client = join(packageRoot, 'dist/test/support/oversized-body-client.js');

let upstream: ScriptedUpstream | undefined;
afterAll(async () => upstream?.close());

describe('a 50 MB body under concurrency got no answer (EPIPE) while alone it got 413', () => {
  // The client is its own process (as an agent is), busy writing its bodies while the answers
  // arrive: closing a connection with its body unread made the kernel reset it, and the answer was lost.
  it.each(['record'] as const)(
    'answers every oversized request that is still being sent with 413 (%s)',
    async (mode) => {
      upstream ??= await startScriptedUpstream();
      const proxy = await startTestProxy(upstream.url, {
        mode,
        limits: { ...defaultConfig.limits, maxBodyBytes: 1024 * 1024 },
      });
      try {
        const { stdout } = await run(process.execPath, [
          client,
          `${proxy.url}/v1`,
          '16',
          String(12 * 1024 * 1024),
        ]);
        expect(JSON.parse(stdout)).toEqual(Array.from({ length: 16 }, () => '413'));
        expect(upstream.received).toHaveLength(0);
      } finally {
        await proxy.close();
      }
    },
  );
});
