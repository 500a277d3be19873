import type { JsonValue } from '../../trace/trace.js';

type Raw = { readonly [key: string]: JsonValue };

/** promptfoo's CSV columns: vars, `__expected*` assertions, `__description`, `__threshold`, `__metric`. */
export function testFromCsvRow(row: ReadonlyMap<string, string>): Raw {
  const vars: { [key: string]: JsonValue } = Object.create(null) as { [key: string]: JsonValue };
  const assert: JsonValue[] = [];
  let description: string | undefined;
  let threshold: number | undefined;
  let metric: string | undefined;
  for (const [column, cell] of row) {
    if (column.startsWith('__expected')) {
      if (cell.trim() !== '')
        assert.push({ ...assertionFromString(cell.trim()), csvColumn: column });
    } else if (column === '__description') description = cell;
    else if (column === '__threshold') threshold = Number(cell);
    else if (column === '__metric') metric = cell;
    else if (!column.startsWith('__')) vars[column] = cell;
  }
  return {
    vars,
    assert: metric === undefined ? assert : assert.map((item) => ({ ...(item as Raw), metric })),
    ...(description === undefined ? {} : { description }),
    ...(threshold === undefined || Number.isNaN(threshold) ? {} : { threshold }),
  };
}

const csvTypes =
  /^(not-)?(equals|contains|icontains|contains-any|contains-all|regex|starts-with|is-json|javascript|python|llm-rubric|similar|levenshtein|tool-call-f1|is-valid-openai-tools-call|trajectory:[a-z-]+)(?:\(([\d.]+)\))?:\s?([\s\S]*)$/;

/** A CSV cell as promptfoo reads it: `fn:`/`eval:` JavaScript, `grade:` a rubric, `type: value`, else equals. */
function assertionFromString(cell: string): Raw {
  const alias = /^(fn|eval|grade):\s?([\s\S]*)$/.exec(cell);
  if (alias)
    return { type: alias[1] === 'grade' ? 'llm-rubric' : 'javascript', value: alias[2] ?? '' };
  const typed = csvTypes.exec(cell);
  if (!typed) return { type: 'equals', value: cell };
  const value = typed[4] ?? '';
  return {
    type: `${typed[1] ?? ''}${typed[2] ?? ''}`,
    ...(value === '' ? {} : { value }),
    ...(typed[3] === undefined ? {} : { threshold: Number(typed[3]) }),
  };
}
