import type { JsonValue } from '../../trace/trace.js';
import { asNumber, asObject, asString, parseJson } from '../json-access.js';
import type { StreamEvent } from './event-stream.js';

/** A content block as its deltas build it up. */
interface OpenBlock {
  text?: string;
  toolUse?: { toolUseId: string; name: string; input: string };
  reasoning?: { text: string; signature?: string; redacted?: string };
}

/**
 * The content blocks of a streamed assistant turn as the Converse request takes them back:
 * `text`, `toolUse` (the input deltas joined and parsed) and `reasoningContent` (its text deltas
 * joined with the closing `signature`, or `redactedContent`), which Claude's extended thinking
 * needs sent back beside its tool calls. Undefined when a call's input is not JSON. Pure.
 */
export function streamContentBlocks(events: readonly StreamEvent[]): JsonValue[] | undefined {
  const blocks = new Map<number, OpenBlock>();
  for (const event of events) {
    const payload = asObject(event.payload);
    const index = asNumber(payload?.['contentBlockIndex']);
    if (event.messageType !== 'event' || !payload || index === undefined) continue;
    const block = blocks.get(index) ?? {};
    blocks.set(index, block);
    const use = asObject(asObject(payload['start'])?.['toolUse']);
    if (event.type === 'contentBlockStart' && use)
      block.toolUse = {
        toolUseId: asString(use['toolUseId']) ?? '',
        name: asString(use['name']) ?? '',
        input: '',
      };
    if (event.type !== 'contentBlockDelta') continue;
    const delta = asObject(payload['delta']) ?? {};
    const text = asString(delta['text']);
    if (text !== undefined) block.text = (block.text ?? '') + text;
    const input = asString(asObject(delta['toolUse'])?.['input']);
    if (input !== undefined && block.toolUse) block.toolUse.input += input;
    const reasoning = asObject(delta['reasoningContent']);
    if (reasoning) {
      block.reasoning ??= { text: '' };
      block.reasoning.text += asString(reasoning['text']) ?? '';
      const signature = asString(reasoning['signature']);
      if (signature !== undefined) block.reasoning.signature = signature;
      const redacted = asString(reasoning['redactedContent']);
      if (redacted !== undefined) block.reasoning.redacted = redacted;
    }
  }
  const content: JsonValue[] = [];
  for (const [, block] of [...blocks.entries()].sort(([a], [b]) => a - b)) {
    const written = writtenBlock(block);
    if (written === null) return undefined;
    if (written !== undefined) content.push(written);
  }
  return content;
}

/** The request form of one block; null for a call whose input is not JSON, undefined for nothing to send. */
function writtenBlock(block: OpenBlock): JsonValue | null | undefined {
  if (block.toolUse) {
    const input = parseJson(block.toolUse.input === '' ? '{}' : block.toolUse.input);
    if (!input.ok) return null;
    return { toolUse: { ...block.toolUse, input: input.value } };
  }
  if (block.reasoning?.redacted !== undefined)
    return { reasoningContent: { redactedContent: block.reasoning.redacted } };
  if (block.reasoning)
    return {
      reasoningContent: {
        reasoningText: {
          text: block.reasoning.text,
          ...(block.reasoning.signature !== undefined
            ? { signature: block.reasoning.signature }
            : {}),
        },
      },
    };
  return block.text !== undefined ? { text: block.text } : undefined;
}
