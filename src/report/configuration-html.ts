import { matrixLines, type ConfigurationMatrix } from './configuration-matrix.js';
import { escapeHtml } from './escape-html.js';

/** The configurations side by side as an HTML table: the same rows and cells as the terminal table. */
export function configurationHtmlTable(matrix: ConfigurationMatrix): string {
  const span = matrix.columns.length + 1;
  const body = matrixLines(matrix).map((line) =>
    line.kind === 'row'
      ? `<tr><th>${escapeHtml(line.label)}</th>${line.cells.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`
      : `<tr><th colspan="${span}">${escapeHtml(line.title)}</th></tr>`,
  );
  return `<table class="side-by-side"><tr><th></th>${matrix.columns.map((column) => `<th>${escapeHtml(column.run)}</th>`).join('')}</tr>${body.join('')}</table>`;
}

/** A self-contained page holding only the side-by-side table (`calltape compare … --html`). */
export function configurationHtmlPage(title: string, matrix: ConfigurationMatrix): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1b1f24}
table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{border:1px solid #d0d7de;padding:.25rem .6rem;text-align:left}
</style></head><body>
<h1>${escapeHtml(title)}</h1>
${configurationHtmlTable(matrix)}
</body></html>
`;
}
