import Table from 'cli-table3';
import { matrixLines, type ConfigurationMatrix } from './configuration-matrix.js';

/** The configurations side by side as a terminal table: one column per configuration. */
export function configurationTable(matrix: ConfigurationMatrix): string {
  const head = ['', ...matrix.columns.map((column) => column.run)];
  const table = new Table({ head, style: { head: [], border: [] } });
  for (const line of matrixLines(matrix))
    table.push(
      line.kind === 'row'
        ? [line.label, ...line.cells]
        : [{ colSpan: head.length, content: line.title }],
    );
  return `${table.toString()}\n`;
}
