import { existsSync } from 'node:fs';
import { cassettePath } from '../cassette/cassette-name.js';
import type { MatchRules } from '../cassette/canonical-request.js';
import { missingCassetteHint } from '../cassette/missing-cassette-hint.js';
import { CassetteReader } from '../cassette/sqlite/cassette-reader.js';
import { openForReplay } from '../cassette/sqlite/replay-cassette.js';
import type { Recorder } from '../cassette/worker-recorder.js';
import type { ProxyMode } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { Logger } from './logger.js';

/** A cassette ready for a mode: opened (created, migrated, re-keyed) by the store worker, with a reader where replay needs one. */
export interface CassetteContext {
  readonly path: string;
  readonly reader: CassetteReader | undefined;
}

/**
 * The cassettes one proxy serves: its configured one and those named per request with
 * `/c/<name>/`, which resolve to `<name>.sqlite` in the configured cassette's folder.
 */
export class CassetteRegistry {
  private readonly readers = new Map<string, CassetteReader>();
  /** Every cassette opened, with the mode it was opened in. */
  private readonly modes = new Map<string, ProxyMode>();

  constructor(
    private readonly recorder: Recorder | undefined,
    private readonly folder: string,
    private readonly logger: Logger,
    /** The rules replay keys stale recordings by, in memory. */
    private readonly rules: MatchRules,
  ) {}

  /** The file a cassette name stands for (the name was validated to stay inside the folder). */
  pathOf(name: string): string {
    return cassettePath(this.folder, name);
  }

  async get(path: string, mode: ProxyMode): Promise<CassetteContext> {
    if (mode === 'passthrough' || !this.recorder) return { path, reader: undefined };
    if ((mode === 'replay' || mode === 'diff') && !existsSync(path)) throw new CalltapeError('CASSETTE_MISS', `calltape: no such cassette to ${mode}: ${path}`, missingCassetteHint(path, 'calltape proxy --mode record (or auto)'));
    if (!this.modes.has(path)) this.modes.set(path, mode);
    // Replay and diff only read: the worker, which writes, never opens the file for them.
    const readOnly = mode === 'replay' || mode === 'diff';
    if (!readOnly) {
      const rekeyed = await this.recorder.open(path);
      if (rekeyed > 0) this.logger.info(`${path}: re-keyed ${rekeyed} recording(s) for the current match rules`);
    }
    if (mode === 'record') return { path, reader: undefined };
    let reader = this.readers.get(path);
    if (!reader) {
      if (readOnly) {
        const { db, rekeyed } = openForReplay(path, this.rules);
        if (rekeyed > 0) this.logger.info(`${path}: re-keyed ${rekeyed} recording(s) in memory for the current match rules (the file is left as it is)`);
        reader = new CassetteReader(path, db);
      } else reader = new CassetteReader(path);
      this.readers.set(path, reader);
    }
    return { path, reader };
  }

  /** Per cassette opened: its mode and the ids of its recordings that were served. */
  usage(served: ReadonlySet<string>): { path: string; mode: ProxyMode; servedIds: string[] }[] {
    return [...this.modes.entries()].map(([path, mode]) => ({ path, mode, servedIds: this.readers.get(path)?.ids().filter((id) => served.has(id)) ?? [] }));
  }

  /** Ids of recordings (in every cassette opened for replay) that were never served. */
  unusedRecordings(served: ReadonlySet<string>): string[] {
    return [...this.readers.values()].flatMap((reader) => reader.ids().filter((id) => !served.has(id)));
  }

  close(): void {
    for (const reader of this.readers.values()) reader.close();
    this.readers.clear();
  }
}
