/**
 * BFCL's string comparison, as a named normaliser so its suites score as it scores them:
 * lower-cased, with spaces and `,./-_*^` removed and `'` treated as `"`.
 */
export function looseString(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s,./\-_*^]/g, '')
    .replace(/'/g, '"');
}
