import Table from 'cli-table3';

/** A table of one line per row (no rules between rows), coloured only on a terminal: how `calltape calls` lists calls. */
export function compactTable(head: readonly string[]): Table.Table {
  return new Table({
    head: [...head],
    style: {
      head: process.stdout.isTTY ? ['cyan'] : [],
      border: process.stdout.isTTY ? ['grey'] : [],
    },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
}
