import { matrixLines, type ConfigurationMatrix } from '../../report/configuration-matrix.js';

/**
 * Run configurations side by side, one column each: the same rows and cells as `calltape
 * compare` prints (tools offered, pass rate, judges, tokens, cost, latency, then pass rate per
 * expected tool and per tag).
 */
export function ConfigurationTable({
  matrix,
  caption,
}: {
  matrix: ConfigurationMatrix;
  caption: string;
}) {
  const span = matrix.columns.length + 1;
  return (
    <div class="table-wrap">
      <table class="side-by-side">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <td />
            {matrix.columns.map((column, index) => (
              <th key={index} scope="col">
                {column.run}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {matrixLines(matrix).map((line, index) =>
            line.kind === 'row' ? (
              <tr key={index}>
                <th scope="row">{line.label}</th>
                {line.cells.map((cell, column) => (
                  <td key={column}>{cell}</td>
                ))}
              </tr>
            ) : (
              <tr key={index} class="section">
                <th scope="colgroup" colSpan={span}>
                  {line.title}
                </th>
              </tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}
