import { existsSync } from 'node:fs';
import { cassetteFileRefusal } from '../cassette/cassette-file-check.js';
import { cassettePath } from '../cassette/cassette-name.js';
import type { MatchRules } from '../cassette/canonical-request.js';
import { missingCassetteHint } from '../cassette/missing-cassette-hint.js';
import { CassetteReader } from '../cassette/sqlite/cassette-reader.js';
import { openForReplay } from '../cassette/sqlite/replay-cassette.js';
import type { Recorder } from '../cassette/worker-recorder.js';
import type { ProxyMode } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { Logger } from '../logger.js';

/** A cassette ready for a mode: opened (created, migrated, re-keyed) by the store worker, with a reader where replay needs one. */
export interface CassetteContext {
  readonly path: string;
  readonly reader: CassetteReader | undefined;
}

/** What bounds and guards the cassettes requests name. */
export interface CassetteRegistryOptions {
  /** The proxy's own cassette: always allowed, never closed early. */
  readonly pinned: string;
  /** calltape's own databases (shadow, runs): never opened as cassettes. */
  readonly reservedPaths: readonly string[];
  /** Cassettes open at once (readers and the store worker's connections); the least recently used is closed past it. */
  readonly maxOpen: number;
}

/**
 * The cassettes one proxy serves: its configured one and those named per request with
 * `/c/<name>/`, which resolve to `<name>.sqlite` in the configured cassette's folder. A long-running
 * proxy can be asked for any number of names, so open cassettes are capped and closed least
 * recently used; requested files are checked to be regular files in that folder.
 */
export class CassetteRegistry {
  private readonly readers = new Map<string, CassetteReader>();
  /** Every cassette open here or in the store worker, least recently used first (Map keeps insertion order). */
  private readonly openPaths = new Set<string>();
  /** Ids served from readers that were closed early, so the end-of-run bookkeeping still sees them. */
  private readonly closedIds = new Map<string, string[]>();
  /** Every cassette opened, with the mode it was opened in. */
  private readonly modes = new Map<string, ProxyMode>();
  /** Cassettes the store worker has open for recording, so a record-mode request need not wait for anything. */
  private readonly recording = new Set<string>();
  /** The cassette touched last (the newest in `openPaths`). */
  private latest: string | undefined;

  constructor(
    private readonly recorder: Recorder | undefined,
    private readonly folder: string,
    private readonly logger: Logger,
    /** The rules replay keys stale recordings by, in memory. */
    private readonly rules: MatchRules,
    private readonly options: CassetteRegistryOptions = {
      pinned: '',
      reservedPaths: [],
      maxOpen: Number.POSITIVE_INFINITY,
    },
  ) {}

  /** The file a cassette name stands for (the name was validated to stay inside the folder). */
  pathOf(name: string): string {
    return cassettePath(this.folder, name);
  }

  async get(path: string, mode: ProxyMode): Promise<CassetteContext> {
    if (mode === 'passthrough' || !this.recorder) return { path, reader: undefined };
    if (path !== this.options.pinned) {
      const refusal = cassetteFileRefusal(this.folder, path, this.options.reservedPaths);
      if (refusal)
        throw new CalltapeError('INVALID_REQUEST', `calltape: cassette refused: ${refusal}`);
    }
    if ((mode === 'replay' || mode === 'diff') && !existsSync(path))
      throw new CalltapeError(
        'CASSETTE_MISS',
        `calltape: no such cassette to ${mode}: ${path}`,
        missingCassetteHint(path, 'calltape proxy --mode record (or auto)'),
      );
    if (!this.modes.has(path)) this.modes.set(path, mode);
    this.touch(path);
    // Replay and diff only read: the worker, which writes, never opens the file for them.
    const readOnly = mode === 'replay' || mode === 'diff';
    if (!readOnly) await this.recorder.open(path);
    if (mode === 'record') {
      this.recording.add(path);
      return { path, reader: undefined };
    }
    let reader = this.readers.get(path);
    if (!reader) {
      if (readOnly) {
        const { db, rekeyed } = openForReplay(path, this.rules);
        if (rekeyed > 0)
          this.logger.info(
            `${path}: re-keyed ${rekeyed} recording(s) in memory for the current match rules (the file is left as it is)`,
          );
        reader = new CassetteReader(path, db);
      } else reader = new CassetteReader(path);
      this.readers.set(path, reader);
    }
    return { path, reader };
  }

  /**
   * The context at once when nothing has to be opened or waited for (passthrough, a cassette
   * already open for recording, or one already open for replay or diff), else undefined: the
   * request path then awaits `open`. Saves a round of promises per request, and on replay the
   * file system check of `get` (issue 37: a replayed call's profile showed it), since the
   * reader's connection or in-memory copy keeps serving what it opened.
   */
  ready(path: string, mode: ProxyMode): CassetteContext | undefined {
    if (mode === 'passthrough' || !this.recorder) return { path, reader: undefined };
    if (mode === 'replay' || mode === 'diff') {
      const reader = this.readers.get(path);
      if (!reader) return undefined;
      this.touch(path);
      return { path, reader };
    }
    if (mode !== 'record' || !this.recording.has(path)) return undefined;
    this.touch(path);
    return { path, reader: undefined };
  }

  /** `get`, with a failure as the error to answer the agent with (logged here): what every route does with one. */
  async open(path: string, mode: ProxyMode): Promise<CassetteContext | CalltapeError> {
    try {
      return await this.get(path, mode);
    } catch (error) {
      const failure =
        error instanceof CalltapeError
          ? error
          : new CalltapeError('STORE_IO', `calltape: ${path}: ${(error as Error).message}`);
      this.logger.error(failure.message);
      return failure;
    }
  }

  /** Marks a cassette most recently used, closing the least recently used ones past the cap. */
  private touch(path: string): void {
    // Most requests name the cassette the last one did: it is already the most recently used.
    if (path === this.latest && this.openPaths.has(path)) return;
    this.latest = path;
    this.openPaths.delete(path);
    this.openPaths.add(path);
    for (const oldest of this.openPaths) {
      if (this.openPaths.size <= this.options.maxOpen) break;
      if (oldest === this.options.pinned || oldest === path) continue;
      this.openPaths.delete(oldest);
      this.recording.delete(oldest);
      const reader = this.readers.get(oldest);
      if (reader) {
        this.closedIds.set(oldest, reader.ids());
        reader.close();
        this.readers.delete(oldest);
      }
      this.recorder?.release(oldest);
    }
  }

  /** Cassettes open right now (here and in the store worker). */
  get openCount(): number {
    return this.openPaths.size;
  }

  /** Per cassette opened: its mode and the ids of its recordings that were served (also of readers closed early). */
  usage(served: ReadonlySet<string>): { path: string; mode: ProxyMode; servedIds: string[] }[] {
    return [...this.modes.entries()].map(([path, mode]) => ({
      path,
      mode,
      servedIds: (this.readers.get(path)?.ids() ?? this.closedIds.get(path) ?? []).filter((id) =>
        served.has(id),
      ),
    }));
  }

  /** Ids of recordings (in every cassette opened for replay) that were never served. */
  unusedRecordings(served: ReadonlySet<string>): string[] {
    return [...this.closedIds.values(), ...[...this.readers.values()].map((reader) => reader.ids())]
      .flat()
      .filter((id) => !served.has(id));
  }

  close(): void {
    for (const reader of this.readers.values()) reader.close();
    this.readers.clear();
    this.openPaths.clear();
    this.recording.clear();
  }
}
