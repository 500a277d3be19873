import { isMap, isScalar } from 'yaml';
import { CalltapeError } from '../errors.js';
import type { JsonValue } from '../trace/trace.js';
import { openSuiteDocument, saveSuiteDocument, type SuiteDocument } from './suite-document.js';

/** A case as plain data, the way it is written in the suite file. */
export type CaseValue = { [field: string]: JsonValue };

/** Where the case with this test_id sits in the suite's `cases` list (its position when it has no id); -1 when none. */
export function caseIndex(suite: SuiteDocument, id: string): number {
  return suite.cases.items.findIndex((item, index) => {
    if (!isMap(item)) return false;
    const idNode = item.get('test_id', true);
    return (
      (isScalar(idNode) && typeof idNode.value === 'string'
        ? idNode.value
        : `case-${index + 1}`) === id
    );
  });
}

/** A pending draft of a suite file as plain data (for an editor, or to flip it). */
export function readDraft(path: string, id: string): CaseValue {
  const suite = openSuiteDocument(path);
  const item = suite.cases.items[pendingIndex(suite, id)];
  return (isMap(item) ? item.toJSON() : {}) as CaseValue;
}

/**
 * Replaces a pending draft with `value` (its test_id kept when the value drops it) and writes the
 * suite whole: temporary file, loaded back as a suite, renamed. A value the suite rules refuse
 * (config/suite.schema.json, a duplicate id) is CONFIG_INVALID naming the file, the case and the
 * field, and the file is left as it was.
 */
export function replaceDraft(path: string, id: string, value: CaseValue): void {
  const suite = openSuiteDocument(path);
  const index = pendingIndex(suite, id);
  suite.cases.items[index] = suite.document.createNode({ test_id: id, ...value });
  saveSuiteDocument(suite);
}

function pendingIndex(suite: SuiteDocument, id: string): number {
  const index = caseIndex(suite, id);
  const item = suite.cases.items[index];
  if (!isMap(item) || item.get('review') !== 'pending')
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${suite.path}: case "${id}": ${index === -1 ? 'no such case' : 'not pending review'}`,
    );
  return index;
}
