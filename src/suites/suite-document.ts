import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { Document, isMap, isSeq, parseDocument, type YAMLSeq } from 'yaml';
import { CalltapeError } from '../errors.js';
import type { JsonValue } from '../trace/trace.js';
import { loadSuite } from './load-suite.js';

/**
 * A suite file opened for editing, comments and layout kept (the yaml package's Document model;
 * JSON is YAML, so a .json suite is edited the same way and written back as JSON).
 */
export interface SuiteDocument {
  readonly path: string;
  readonly document: Document;
  /** The `cases` list, created empty when the file had none. */
  readonly cases: YAMLSeq;
}

/** Opens a YAML or JSON suite for editing; a file that does not exist yet opens as `fresh`. */
export function openSuiteDocument(
  path: string,
  fresh: { readonly [field: string]: JsonValue } = {},
): SuiteDocument {
  const extension = extname(path).toLowerCase();
  if (extension !== '.yaml' && extension !== '.yml' && extension !== '.json')
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${path}: calltape writes suites as .yaml, .yml or .json (not ${extension || 'no extension'})`,
    );
  const document = existsSync(path)
    ? parseDocument(readFileSync(path, 'utf8'))
    : new Document({ ...fresh, cases: [] });
  if (document.errors.length > 0)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${path}: not valid ${extension === '.json' ? 'JSON' : 'YAML'}: ${document.errors[0]?.message ?? ''}`,
    );
  if (!isMap(document.contents))
    throw new CalltapeError('CONFIG_INVALID', `${path}: (suite): must be an object with cases`);
  if (!document.has('cases')) document.set('cases', document.createNode([]));
  const cases = document.get('cases', true);
  if (!isSeq(cases)) throw new CalltapeError('CONFIG_INVALID', `${path}: cases: must be a list`);
  return { path, document, cases };
}

/**
 * Writes the suite beside itself, checks the result loads as a suite (config/suite.schema.json
 * and the rest of loadSuite's rules), then renames it into place: a failure leaves the old file
 * untouched and no half-written suite behind.
 */
export function saveSuiteDocument(suite: SuiteDocument): void {
  const extension = extname(suite.path);
  const text =
    extension.toLowerCase() === '.json'
      ? `${JSON.stringify(suite.document.toJS(), null, 2)}\n`
      : suite.document.toString({ lineWidth: 0 });
  const temporary = `${suite.path.slice(0, suite.path.length - extension.length)}.calltape-${process.pid}${extension}`;
  writeFileSync(temporary, text);
  try {
    loadSuite(temporary, process.cwd());
    renameSync(temporary, suite.path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
