import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import { packageRoot } from '../package-root.js';
import { BatchQueue } from './batch-queue.js';
import type { CapturedRound } from './captured-round.js';
import type { FromStoreWorker, StoreWorkerData, ToStoreWorker } from './store-protocol.js';

/** Takes captured rounds off the proxy's hands. */
export interface Recorder {
  record(round: CapturedRound): void;
  /** Recordings re-keyed on open because the matching rules changed. */
  readonly rekeyed: number;
  /** Writes everything recorded so far and closes the store. */
  close(): Promise<void>;
}

/**
 * Starts the store worker for `config.cassette` and resolves once the store is open (or rejects
 * with STORE_IO). Rounds are batched per event-loop turn and posted to the worker.
 */
export async function startWorkerRecorder(config: Config, onError: (message: string) => void): Promise<Recorder> {
  const data: StoreWorkerData = { cassette: config.cassette, match: { ignorePaths: config.match.ignorePaths, normalisers: config.match.normalisers }, redactHeaders: config.redact.headers, bodyPatterns: config.redact.bodyPatterns };
  const worker = new Worker(workerScript(), { workerData: data });
  const post = (message: ToStoreWorker): void => worker.postMessage(message);
  const rekeyed = await new Promise<number>((resolve, reject) => {
    const onMessage = (message: FromStoreWorker): void => {
      worker.off('message', onMessage).off('error', reject);
      if (message.type === 'ready') resolve(message.rekeyed);
      else reject(new CalltapeError('STORE_IO', message.type === 'failed' ? message.message : `unexpected ${message.type} from the store worker`));
    };
    worker.on('message', onMessage).once('error', reject);
  });
  let closed: Promise<void> | undefined;
  worker.on('message', (message: FromStoreWorker) => {
    if (message.type === 'write-error') onError(`could not store ${message.lost} interaction(s): ${message.message}`);
  });
  worker.on('error', (error) => onError(`the store worker failed: ${error.message}`));
  const queue = new BatchQueue<CapturedRound>((rounds) => post({ type: 'rounds', rounds }));
  return {
    rekeyed,
    record: (round) => queue.push(round),
    close() {
      closed ??= (async () => {
        queue.flush();
        // Messages are handled in order, so 'closed' arrives after every batch is written.
        const done = new Promise<void>((resolve) => {
          const onClosed = (message: FromStoreWorker): void => {
            if (message.type === 'closed') resolve();
          };
          worker.on('message', onClosed);
          worker.once('exit', () => resolve());
        });
        post({ type: 'close' });
        await done;
        await worker.terminate();
      })();
      return closed;
    },
  };
}

/** The compiled worker script. Under a TypeScript test runner the compiled copy in dist/ is used. */
function workerScript(): URL | string {
  if (!fileURLToPath(import.meta.url).endsWith('.ts')) return new URL('./store-worker.js', import.meta.url);
  const compiled = join(packageRoot, 'dist/src/cassette/store-worker.js');
  if (!existsSync(compiled)) throw new CalltapeError('STORE_IO', `${compiled} is missing`, 'Run `npm run build` first (npm test does).');
  return compiled;
}
