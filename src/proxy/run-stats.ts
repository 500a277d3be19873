import type { Logger } from '../logger.js';
import { maxReasons, type ReplayStats } from './replay-lookup.js';

/** Run statistics before the first request. */
export function emptyStats(): ReplayStats {
  return {
    hits: 0,
    misses: 0,
    recorded: 0,
    unanswered: 0,
    expired: 0,
    served: new Set(),
    missReasons: [],
    missedIn: new Map(),
    diffs: [],
    compared: 0,
    refused: 0,
  };
}

/** Diff mode: a live answer compared with its recording (counted; kept and logged when they differ). */
export function noteDiff(
  stats: ReplayStats,
  diff: ReplayStats['diffs'][number],
  logger: Logger,
): void {
  stats.compared++;
  if (diff.lines.length === 0) return;
  if (stats.diffs.length < maxReasons) stats.diffs.push(diff);
  logger.info(
    `diff ${diff.request} vs recording ${diff.recordingId ?? ''}:\n  ${diff.lines.join('\n  ')}`,
  );
}
