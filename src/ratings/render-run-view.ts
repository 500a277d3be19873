import type { RunView } from './run-view.js';

/** Longest result or message shown in full; longer ones are cut with a count of what was left out. */
const shownChars = 1200;

/**
 * A run as terminal text, in the order a person reads it to judge tool use: the tools offered,
 * the conversation up to the request, every turn's calls (arguments, result, failures marked),
 * and the final answer.
 */
export function renderRunView(view: RunView): string {
  const lines: string[] = [
    `── ${view.run}`,
    '',
    `Tools offered (${view.tools.length}): ${view.tools.map((tool) => tool.name).join(', ') || '(none)'}`,
  ];
  lines.push('', 'Conversation:');
  for (const message of view.conversation)
    lines.push(indent(`${message.role}: ${cut(message.text)}`));
  view.turns.forEach((turn, index) => {
    lines.push('', `Turn ${index + 1}${turn.status === 'complete' ? '' : ` (${turn.status})`}:`);
    if (turn.calls.length === 0) lines.push('  no tool calls');
    for (const call of turn.calls) {
      lines.push(`  → ${call.tool}(${call.arguments})${call.mocked ? ' [mocked]' : ''}`);
      lines.push(
        call.result === null
          ? '    ← (no result sent back)'
          : `    ← ${call.failed ? '[ERROR] ' : ''}${cut(call.result).replace(/\n/g, '\n      ')}`,
      );
    }
    if (turn.text !== '' && index < view.turns.length - 1)
      lines.push(indent(`says: ${cut(turn.text)}`));
  });
  lines.push(
    '',
    'Final answer:',
    indent(view.finalAnswer === '' ? '(no text)' : cut(view.finalAnswer)),
  );
  return lines.join('\n');
}

function cut(text: string): string {
  return text.length <= shownChars
    ? text
    : `${text.slice(0, shownChars)}… (${text.length - shownChars} more characters)`;
}

function indent(text: string): string {
  return `  ${text.replace(/\n/g, '\n    ')}`;
}
