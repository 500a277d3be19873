/**
 * Text from tool arguments, case names and messages goes into a Markdown report that GitHub
 * renders as HTML (pull request comments, the step summary). These keep such text inert.
 */

/** Text for a table cell or inline position: HTML and Markdown table syntax escaped, on one line. */
export function markdownText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n|\r/g, ' ');
}

/** A fenced code block whose fence is longer than any run of backticks inside, so nothing can close it early. */
export function fencedBlock(lines: readonly string[]): string[] {
  const longest = Math.max(
    0,
    ...lines.map((line) => Math.max(0, ...[...line.matchAll(/`+/g)].map((run) => run[0].length))),
  );
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [fence, ...lines, fence];
}
