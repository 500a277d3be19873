import type { Suite, SuiteCase } from '../scoring/suite-types.js';
import { shellCommand } from '../shell-command.js';

/** The drafts of a suite as the review lists them: id, mark, kind, provenance, prompt and what is expected. */
export function renderDrafts(suite: Suite, shownPath: string): string {
  if (suite.drafts.length === 0) return `${shownPath}: no draft cases\n`;
  const pending = suite.drafts.filter((draft) => draft.review === 'pending').length;
  const lines = [`${shownPath}: ${suite.drafts.length} draft case(s), ${pending} pending review`];
  for (const draft of suite.drafts) lines.push('', ...renderDraft(draft));
  lines.push(
    '',
    `Decide with: calltape review ${shellCommand([shownPath])} --accept <ids|all> --reject <ids|all> [--keep-rejected]`,
  );
  return `${lines.join('\n')}\n`;
}

/** One draft's lines: id, mark, kind and tool, then prompt, guideline, topic, why it was promoted, and what is expected. */
export function renderDraft(draft: SuiteCase): string[] {
  const origin = draft.provenance;
  const lines = [
    `${draft.test_id} [${draft.review ?? 'pending'}]${origin ? ` ${origin.source}${origin.kind ? ` ${origin.kind}` : ''}${origin.tool ? ` · ${origin.tool}` : ''}` : ''}`,
  ];
  if (draft.prompt !== undefined) lines.push(`  prompt:    ${draft.prompt}`);
  if (origin?.guideline) lines.push(`  guideline: ${origin.guideline}`);
  if (origin?.topic) lines.push(`  topic:     ${origin.topic}`);
  if (origin?.session)
    lines.push(`  session:   ${origin.session}${origin.cassette ? ` (${origin.cassette})` : ''}`);
  for (const failure of origin?.failures ?? []) lines.push(`  failed:    ${failure}`);
  lines.push(`  expects:   ${describeExpectation(draft)}`);
  const captured = origin?.captured;
  if (captured)
    lines.push(
      `  agent did: ${captured.calls.join(', ') || 'no tool call'} — ${captured.verdict === 'pass' ? 'as expected' : captured.verdict === 'fail' ? 'NOT as expected' : `${captured.verdict}${captured.error ? `: ${captured.error}` : ''}`}`,
    );
  return lines;
}

/** What a draft expects, in one line: the tool and arguments, what it forbids, the trajectory checks. */
export function describeExpectation(draft: SuiteCase): string {
  const parts: string[] = [];
  if (draft.expected_tool === null) parts.push('no tool call');
  else if (draft.expected_tool !== undefined)
    parts.push(
      `${[draft.expected_tool].flat().join(' | ')}${draft.arguments && Object.keys(draft.arguments).length > 0 ? ` ${JSON.stringify(draft.arguments)}` : ''}`,
    );
  if (draft.never && draft.never.length > 0)
    parts.push(
      `never ${draft.never.map((call) => (typeof call === 'string' ? call : [call.tool].flat().join(' | '))).join(', ')}`,
    );
  if (draft.expected_calls) parts.push(`${draft.expected_calls.length} call(s)`);
  if (draft.expect?.calls)
    parts.push(
      `${draft.expect.mode ?? 'all'}: ${draft.expect.calls.map((call) => (typeof call === 'string' ? call : `${[call.tool].flat().join(' | ')}${call.arguments ? ` ${JSON.stringify(call.arguments)}` : ''}`)).join(', ')}`,
    );
  return parts.join('; ') || 'trajectory checks';
}
