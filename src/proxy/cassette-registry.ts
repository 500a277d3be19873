import { existsSync } from 'node:fs';
import { cassettePath } from '../cassette/cassette-name.js';
import { CassetteReader } from '../cassette/sqlite/cassette-reader.js';
import type { Recorder } from '../cassette/worker-recorder.js';
import type { ProxyMode } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { Logger } from '../logger.js';

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

  constructor(
    private readonly recorder: Recorder | undefined,
    private readonly folder: string,
    private readonly logger: Logger,
  ) {}

  /** The file a cassette name stands for (the name was validated to stay inside the folder). */
  pathOf(name: string): string {
    return cassettePath(this.folder, name);
  }

  async get(path: string, mode: ProxyMode): Promise<CassetteContext> {
    if (mode === 'passthrough' || !this.recorder) return { path, reader: undefined };
    if ((mode === 'replay' || mode === 'diff') && !existsSync(path)) throw new CalltapeError('CASSETTE_MISS', `calltape: no such cassette to ${mode}: ${path}`, 'Record it first (--mode record or auto).');
    const rekeyed = await this.recorder.open(path);
    if (rekeyed > 0) this.logger.info(`${path}: re-keyed ${rekeyed} recording(s) for the current match rules`);
    if (mode === 'record') return { path, reader: undefined };
    let reader = this.readers.get(path);
    if (!reader) {
      reader = new CassetteReader(path);
      this.readers.set(path, reader);
    }
    return { path, reader };
  }

  /** `get`, with a failure as the error to answer the agent with (logged here): what every route does with one. */
  async open(path: string, mode: ProxyMode): Promise<CassetteContext | CalltapeError> {
    try {
      return await this.get(path, mode);
    } catch (error) {
      const failure = error instanceof CalltapeError ? error : new CalltapeError('STORE_IO', `calltape: ${path}: ${(error as Error).message}`);
      this.logger.error(failure.message);
      return failure;
    }
  }

  /** Per cassette opened for replay: the ids of its recordings that were served. */
  servedPerCassette(served: ReadonlySet<string>): { path: string; servedIds: string[] }[] {
    return [...this.readers.entries()].map(([path, reader]) => ({ path, servedIds: reader.ids().filter((id) => served.has(id)) }));
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
