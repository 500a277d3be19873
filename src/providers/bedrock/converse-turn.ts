import type { JsonValue } from '../../trace/trace.js';
import { asArray, asNumber, asObject, asString, type JsonObject } from '../json-access.js';
import type { StreamEvent } from './event-stream.js';

/** One content block of a Converse answer, as the trace and the two answer forms need it. */
export type ConverseBlock =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'toolUse';
      readonly toolUseId: string | undefined;
      readonly name: string;
      /** The input JSON text exactly as streamed (deltas joined), or serialised from a whole answer. */
      readonly input: string;
      /** False until the block's `contentBlockStop` arrived. */
      readonly closed: boolean;
    }
  /** Any other block (reasoning, citations…), kept whole so it survives a conversion. */
  | { readonly kind: 'other'; readonly block: JsonObject };

/** A Converse answer in either form, reduced to one shape. */
export interface ConverseTurn {
  readonly blocks: readonly ConverseBlock[];
  readonly stopReason: string | undefined;
  readonly usage: JsonObject | undefined;
  readonly metrics: JsonObject | undefined;
  /** Fields of the answer beyond the message, stop reason, usage and metrics (`additionalModelResponseFields`, `trace`…). */
  readonly extra: JsonObject;
  /** The stream's `messageStop` arrived (always true for a whole answer). */
  readonly stopped: boolean;
  /** An exception message sent inside the stream: its type and message. */
  readonly exception: { readonly type: string; readonly message: string } | undefined;
}

/** The turn a whole Converse answer (`{output:{message}}, stopReason, usage, metrics}`) carries. */
export function turnOfAnswer(answer: JsonObject): ConverseTurn {
  const {
    output,
    stopReason,
    usage,
    metrics,
    ...extra
  }: { readonly [key: string]: JsonValue | undefined } = answer;
  const content = asArray(asObject(asObject(output)?.['message'])?.['content']);
  return {
    blocks: content.flatMap((value): ConverseBlock[] => {
      const block = asObject(value);
      if (!block) return [];
      const text = asString(block['text']);
      if (text !== undefined) return [{ kind: 'text', text }];
      const use = asObject(block['toolUse']);
      if (use)
        return [
          {
            kind: 'toolUse',
            toolUseId: asString(use['toolUseId']),
            name: asString(use['name']) ?? '',
            input: JSON.stringify(use['input'] ?? {}),
            closed: true,
          },
        ];
      return [{ kind: 'other', block }];
    }),
    stopReason: asString(stopReason),
    usage: asObject(usage),
    metrics: asObject(metrics),
    extra: extra as JsonObject,
    stopped: true,
    exception: undefined,
  };
}

/**
 * The turn a ConverseStream's events add up to: text deltas joined per block, a `toolUse`
 * block's name and id from its `contentBlockStart` and its input from the string deltas, the
 * stop reason from `messageStop`, usage and metrics from `metadata`. Pure.
 */
export function turnOfEvents(events: readonly StreamEvent[]): ConverseTurn {
  const blocks = new Map<number, ConverseBlock>();
  let stopReason: string | undefined;
  let usage: JsonObject | undefined;
  let metrics: JsonObject | undefined;
  let stopped = false;
  let exception: ConverseTurn['exception'];
  const extra: Record<string, JsonValue> = {};
  for (const event of events) {
    const payload = asObject(event.payload) ?? {};
    if (event.messageType !== 'event') {
      exception ??= { type: event.type, message: asString(payload['message']) ?? event.type };
      continue;
    }
    const index = asNumber(payload['contentBlockIndex']) ?? 0;
    switch (event.type) {
      case 'contentBlockStart': {
        const use = asObject(asObject(payload['start'])?.['toolUse']);
        if (use)
          blocks.set(index, {
            kind: 'toolUse',
            toolUseId: asString(use['toolUseId']),
            name: asString(use['name']) ?? '',
            input: '',
            closed: false,
          });
        break;
      }
      case 'contentBlockDelta':
        blocks.set(index, withDelta(blocks.get(index), asObject(payload['delta']) ?? {}));
        break;
      case 'contentBlockStop': {
        const block = blocks.get(index);
        if (block?.kind === 'toolUse') blocks.set(index, { ...block, closed: true });
        break;
      }
      case 'messageStop': {
        stopped = true;
        stopReason = asString(payload['stopReason']);
        const fields = payload['additionalModelResponseFields'];
        if (fields !== undefined) extra['additionalModelResponseFields'] = fields;
        break;
      }
      case 'metadata':
        usage = asObject(payload['usage']);
        metrics = asObject(payload['metrics']);
        if (payload['trace'] !== undefined) extra['trace'] = payload['trace'];
        break;
    }
  }
  return {
    blocks: [...blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block),
    stopReason,
    usage,
    metrics,
    extra,
    stopped,
    exception,
  };
}

function withDelta(block: ConverseBlock | undefined, delta: JsonObject): ConverseBlock {
  const text = asString(delta['text']);
  if (text !== undefined)
    return { kind: 'text', text: (block?.kind === 'text' ? block.text : '') + text };
  const input = asString(asObject(delta['toolUse'])?.['input']);
  if (input !== undefined && block?.kind === 'toolUse')
    return { ...block, input: block.input + input };
  // Reasoning and citation deltas: kept as the last delta seen, enough to know the block was there.
  return block ?? { kind: 'other', block: delta };
}

/** The whole Converse answer of a finished turn; undefined when a call's input is not JSON. */
export function answerOfTurn(turn: ConverseTurn): JsonObject | undefined {
  const content: JsonValue[] = [];
  for (const block of turn.blocks) {
    if (block.kind === 'text') content.push({ text: block.text });
    else if (block.kind === 'other') content.push(block.block);
    else {
      let input: JsonValue;
      try {
        input = JSON.parse(block.input === '' ? '{}' : block.input) as JsonValue;
      } catch {
        return undefined;
      }
      content.push({
        toolUse: { toolUseId: block.toolUseId ?? '', name: block.name, input },
      });
    }
  }
  return {
    output: { message: { role: 'assistant', content } },
    ...(turn.stopReason !== undefined ? { stopReason: turn.stopReason } : {}),
    ...(turn.usage ? { usage: turn.usage } : {}),
    ...(turn.metrics ? { metrics: turn.metrics } : {}),
    ...turn.extra,
  };
}

/**
 * The ConverseStream events of a finished turn, as Bedrock sends them: `messageStart`, per block
 * a start (tool use), one delta and a stop, `messageStop`, then `metadata`.
 */
export function eventsOfTurn(turn: ConverseTurn): StreamEvent[] {
  const event = (type: string, payload: JsonValue): StreamEvent => ({
    messageType: 'event',
    type,
    payload,
  });
  const events: StreamEvent[] = [event('messageStart', { role: 'assistant' })];
  turn.blocks.forEach((block, contentBlockIndex) => {
    if (block.kind === 'toolUse') {
      events.push(
        event('contentBlockStart', {
          contentBlockIndex,
          start: { toolUse: { toolUseId: block.toolUseId ?? '', name: block.name } },
        }),
        event('contentBlockDelta', {
          contentBlockIndex,
          delta: { toolUse: { input: block.input } },
        }),
      );
    } else if (block.kind === 'text') {
      events.push(event('contentBlockDelta', { contentBlockIndex, delta: { text: block.text } }));
    } else {
      // A whole block of another kind has no delta form the trace reads; it is left out of the stream.
      return;
    }
    events.push(event('contentBlockStop', { contentBlockIndex }));
  });
  const fields = turn.extra['additionalModelResponseFields'];
  events.push(
    event('messageStop', {
      stopReason: turn.stopReason ?? 'end_turn',
      ...(fields !== undefined ? { additionalModelResponseFields: fields } : {}),
    }),
  );
  if (turn.usage || turn.metrics)
    events.push(
      event('metadata', {
        ...(turn.usage ? { usage: turn.usage } : {}),
        metrics: turn.metrics ?? { latencyMs: 0 },
      }),
    );
  return events;
}
