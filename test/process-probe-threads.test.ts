import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/package-root.js';
import { temporaryFolder } from './support/test-proxy.js';

/** The compiled probe the benches load with `--import`; `npm test` builds it before the suite. */
const probePath = join(packageRoot, 'dist/bench/process-probe.js');

// A worker thread inherits `--import`, so the store worker loaded the probe too; no signal reaches
// a worker, so its GC profiler was never stopped and kept a JSON record of every GC: ~50 MB of the
// RSS growth a 30-minute soak blamed on the proxy (docs/decisions/0003-proxy-at-the-floor.md).
describe('process probe in a worker thread (soak RSS grew by the probe’s own GC profile)', () => {
  it('probes the main thread and leaves worker threads alone', () => {
    if (!existsSync(probePath))
      throw new Error(`${probePath} is missing: run \`npm run build\` (npm test does) first`);
    // A worker from a file, as the store worker is (an `eval` worker does not load `--import`).
    const workerFile = join(temporaryFolder(), 'worker.mjs');
    writeFileSync(
      workerFile,
      "import { parentPort } from 'node:worker_threads';\nparentPort.postMessage(process.listenerCount('SIGUSR2'));\n",
    );
    const script = `
      const { Worker } = require('node:worker_threads');
      const main = process.listenerCount('SIGUSR2');
      const worker = new Worker(${JSON.stringify(workerFile)});
      worker.once('message', (inWorker) => {
        console.log(JSON.stringify({ main, inWorker }));
        process.exit(0);
      });
    `;
    const result = spawnSync(process.execPath, ['--import', probePath, '-e', script], {
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ main: 1, inWorker: 0 });
  });
});
