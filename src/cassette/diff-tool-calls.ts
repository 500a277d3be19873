import diff from 'microdiff';
import type { AssistantOutput, ToolCall } from '../trace/trace.js';
import { formatPath } from './describe-mismatch.js';

/**
 * Where a live answer's tool calls differ from the recorded ones (diff mode): calls are paired
 * by position; a different count, name or argument value is one line each. Empty when the
 * calls agree (ids, which providers mint anew each time, are not compared).
 */
export function diffToolCalls(
  recorded: AssistantOutput | undefined,
  live: AssistantOutput | undefined,
): string[] {
  const before = recorded?.toolCalls ?? [];
  const after = live?.toolCalls ?? [];
  const lines: string[] = [];
  if (before.length !== after.length)
    lines.push(
      `tool calls: ${before.length} recorded, ${after.length} live (${names(before)} → ${names(after)})`,
    );
  for (let index = 0; index < Math.min(before.length, after.length); index++) {
    const old = before[index] as ToolCall;
    const now = after[index] as ToolCall;
    if (old.name !== now.name) {
      lines.push(`call ${index}: ${old.name} → ${now.name}`);
      continue;
    }
    if (!old.arguments.ok || !now.arguments.ok) {
      if (old.argumentsRaw !== now.argumentsRaw)
        lines.push(
          `call ${index} ${now.name}: arguments ${JSON.stringify(old.argumentsRaw)} → ${JSON.stringify(now.argumentsRaw)}`,
        );
      continue;
    }
    const changes = diff({ value: old.arguments.value }, { value: now.arguments.value });
    for (const change of changes) {
      const path = formatPath(change.path.slice(1)) || '(arguments)';
      const from = change.type === 'CREATE' ? '(absent)' : JSON.stringify(change.oldValue);
      const to = change.type === 'REMOVE' ? '(absent)' : JSON.stringify(change.value);
      lines.push(`call ${index} ${now.name}: ${path}: ${from} → ${to}`);
    }
  }
  return lines;
}

function names(calls: readonly ToolCall[]): string {
  return calls.length === 0 ? 'none' : calls.map((call) => call.name).join(', ');
}
