import type { JsonValue } from '../trace/trace.js';

/** What became of one item of the source: converted as is, approximated (how), or not converted (why). */
export interface ImportNote {
  /** Where in the source: the file and the JSON path (`simple.test.json: eval_cases[0].conversation[1].final_response`). */
  readonly item: string;
  readonly outcome: 'converted' | 'approximated' | 'not converted';
  /** How it was converted or approximated, or why it was not. */
  readonly detail: string;
}

/** A suite written from another tool's eval format, and what happened to each part of it. */
export interface ImportedSuite {
  /** The suite document (config/suite.schema.json), keys in the order they are written. */
  readonly suite: { readonly [key: string]: JsonValue };
  /** Every item of the source, in source order: nothing is dropped without a note. */
  readonly notes: readonly ImportNote[];
  /**
   * Files the suite names, written beside it (code judge modules, schemas, mocks): each `path`
   * relative to the suite's folder, as the suite names it. Absent: the suite is the only file.
   */
  readonly files?: readonly SourceFile[];
}

/** One source file, read but not yet interpreted: its path as the user named it, and its text. */
export interface SourceFile {
  readonly path: string;
  readonly text: string;
}

/** A further file of the source the user names on the command line (`--<option> <file>`). */
export interface ImporterFile {
  /** The option's name without dashes (`items` for `--items <file>`); also its key in `companions`. */
  readonly option: string;
  /** What `calltape import --help` says the file is. */
  readonly description: string;
}

/**
 * Reads a file the source names (promptfoo's `file://` includes): `path` as written, relative to
 * the source's folder. Throws CalltapeError CONFIG_INVALID naming `where` (file and field) when the
 * path leaves the project or cannot be read.
 */
export type ReadNamedFile = (path: string, where: string) => SourceFile;

/**
 * An eval format calltape imports (`calltape import <kind>`). Pure: the command reads the files
 * (the source, and what `companions` names beside it) and writes the suite.
 */
export interface Importer {
  /** What `calltape import --help` says the kind reads. */
  readonly description: string;
  /** Files beside the source that refine it when present (ADK: `test_config.json`). */
  readonly companions: readonly string[];
  /** Files the user may name on the command line; `convert` finds them in `companions` under the option's name. */
  readonly files?: readonly ImporterFile[];
  /** The suite; throws CalltapeError CONFIG_INVALID naming the file and the JSON path of bad input. */
  convert(
    source: SourceFile,
    companions: ReadonlyMap<string, SourceFile>,
    read?: ReadNamedFile,
  ): ImportedSuite;
}
