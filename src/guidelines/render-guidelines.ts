import type { Guidelines } from './guidelines.js';

/**
 * The guidelines as prompt text: per tool, the "should use" and "should not use" lists. Stable
 * (document order, no decoration that changes between runs), so a judge request built from it
 * is byte-identical run after run and replays from a cassette.
 */
export function renderGuidelines(guidelines: Guidelines): string {
  const sections = [...guidelines.tools].map(([tool, entry]) => {
    const lines = [`Tool "${tool}":`];
    if (entry.should_use.length > 0)
      lines.push(
        '  The agent should use it for:',
        ...entry.should_use.map((item) => `  - ${item}`),
      );
    if (entry.should_not_use.length > 0)
      lines.push(
        '  The agent should NOT use it for:',
        ...entry.should_not_use.map((item) => `  - ${item}`),
      );
    return lines.join('\n');
  });
  return [guidelines.description, ...sections].filter((part) => part !== '').join('\n\n');
}
