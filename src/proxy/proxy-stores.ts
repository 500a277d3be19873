import { dirname } from 'node:path';
import { effectiveRules } from '../cassette/match-key.js';
import { startWorkerRecorder, type Recorder } from '../cassette/worker-recorder.js';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { LiveService } from '../live/live-service.js';
import type { Logger } from '../logger.js';
import { CassetteRegistry } from './cassette-registry.js';
import type { ReplayStats } from './replay-lookup.js';
import { noteDiff } from './run-stats.js';

/** Where rounds are stored and looked up: the store worker and the cassettes open on it. */
export interface ProxyStores {
  readonly recorder: Recorder;
  readonly cassettes: CassetteRegistry;
}

/**
 * Starts the store worker and opens the configured cassette. The worker creates, migrates and
 * re-keys the cassettes it writes, and compares for diff; it starts at its first use, so
 * passthrough and replay run without it. On failure the worker is closed and the error is a
 * `STORE_IO` one.
 */
export async function openStores(
  config: Config,
  logger: Logger,
  live: Pick<LiveService, 'storeDropped'>,
  stats: ReplayStats,
): Promise<ProxyStores> {
  const recorder = startWorkerRecorder(config, {
    error: (message) => logger.error(message),
    diff: (diff) => noteDiff(stats, diff, logger),
    dropped: () => live.storeDropped(),
    rekeyed: (cassette, count) =>
      logger.info(`${cassette}: re-keyed ${count} recording(s) for the current match rules`),
  });
  const cassettes = new CassetteRegistry(
    recorder,
    dirname(config.cassette),
    logger,
    effectiveRules(config.match),
    {
      pinned: config.cassette,
      reservedPaths: [config.shadow.database],
      maxOpen: config.cassettes.maxOpen,
    },
  );
  try {
    await cassettes.get(config.cassette, config.mode);
  } catch (error) {
    await recorder.close();
    throw error instanceof CalltapeError
      ? new CalltapeError('STORE_IO', error.message, error.hint)
      : error;
  }
  return { recorder, cassettes };
}
