import { keyAfter, nextKey } from '../../trace/prefix-hash.js';
import type { AssistantOutput, JsonValue } from '../../trace/trace.js';
import {
  asArray,
  asNumber,
  asObject,
  asString,
  parseJson,
  type JsonObject,
} from '../json-access.js';
import { pairToolResults } from '../pair-tool-results.js';
import type { ToolLoopWire, ToolResultMessage } from '../provider-adapter.js';
import { binaryBytes, binaryString } from './convert-converse-body.js';
import { decodeEventStream, encodeEventStream, type StreamEvent } from './event-stream.js';
import { converseMessage, parseConverseRequest } from './parse-converse-request.js';
import { streamContentBlocks } from './stream-content-blocks.js';

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/**
 * The in-proxy tool loop in Converse terms: the model's turn is an `assistant` message of its
 * blocks (`text`, `toolUse`, `reasoningContent` with its signature), the results one `user` message of `toolResult` blocks. Every
 * result must sit in the user message right after the call, so the mocks' results are merged
 * with the agent's own. Answer bodies are binary strings (`ProviderAdapter.binaryBodies`): a
 * stream answer the agent sees part of is written again as event-stream frames with their CRCs.
 */
export const bedrockToolLoop: ToolLoopWire = {
  turnMessages(output, results, answerBody) {
    const assistant: JsonValue = {
      role: 'assistant',
      content:
        (answerBody === undefined ? undefined : answerContent(answerBody)) ?? blocksOf(output),
    };
    if (results.length === 0) return [assistant];
    return [assistant, { role: 'user', content: results.map(resultBlock) }];
  },

  appendMessages(body, messages) {
    const request = asObject(body) ?? {};
    return { ...request, messages: [...asArray(request['messages']), ...messages] };
  },

  splice(body, replace) {
    const request = asObject(body);
    if (!request) return undefined;
    // Keyed as the request parser reads it, system prompt first: the loop kept the hidden history under those keys.
    const system = parseConverseRequest({ system: request['system'] ?? [] }).messages;
    let key = keyAfter(system);
    let changed = false;
    let mergeNext = false;
    const messages: JsonValue[] = [];
    for (const message of asArray(request['messages'])) {
      const object = asObject(message);
      for (const part of converseMessage(object)) key = nextKey(key, part);
      if (mergeNext && object?.['role'] === 'user') {
        // The mocks' results and the agent's own share the one user message after the calls.
        const previous = asObject(messages.pop()) ?? {};
        messages.push({
          role: 'user',
          content: [...asArray(previous['content']), ...asArray(object['content'])],
        });
        mergeNext = false;
        continue;
      }
      mergeNext = false;
      const replacement = object?.['role'] === 'assistant' ? replace(key) : undefined;
      if (replacement) {
        messages.push(...replacement);
        changed = true;
        mergeNext = asObject(replacement.at(-1))?.['role'] === 'user';
      } else messages.push(message);
    }
    return changed ? { ...request, messages } : undefined;
  },

  toolResults(body) {
    return pairToolResults(
      asArray(asObject(body)?.['messages']).flatMap((message) =>
        converseMessage(asObject(message)),
      ),
    );
  },

  withToolResults(body, contents) {
    const request = asObject(body) ?? {};
    const messages = asArray(request['messages']).map((message) => {
      const object = asObject(message);
      if (object?.['role'] !== 'user') return message;
      return {
        ...object,
        content: asArray(object['content']).map((block) => {
          const result = asObject(asObject(block)?.['toolResult']);
          const id = asString(result?.['toolUseId']);
          const content = id === undefined ? undefined : contents.get(id);
          return result && content !== undefined
            ? { ...asObject(block), toolResult: { ...result, content: [resultContent(content)] } }
            : block;
        }),
      };
    });
    return { ...request, messages };
  },

  withoutCalls(body, _form, drop) {
    // The body is in the form it was answered in: a JSON answer starts with `{`, a stream with a frame's length.
    const bytes = binaryBytes(body);
    if (bytes[0] !== 0x7b) return streamWithout(bytes, drop);
    const parsed = parseJson(utf8.decode(bytes));
    const answer = parsed.ok ? asObject(parsed.value) : undefined;
    const message = asObject(asObject(answer?.['output'])?.['message']);
    if (!answer || !message) return undefined;
    const content = asArray(message['content']).filter((block) => !dropped(block, drop));
    const visible = {
      ...answer,
      output: { ...asObject(answer['output']), message: { ...message, content } },
    };
    return binaryString(encoder.encode(JSON.stringify(visible)));
  },
};

/** The blocks of the answer's message as the request takes them back: a JSON answer's as sent, a stream's assembled from its deltas. */
function answerContent(body: string): JsonValue[] | undefined {
  const bytes = binaryBytes(body);
  if (bytes[0] !== 0x7b) {
    const decoded = decodeEventStream([bytes]);
    return decoded.invalid === undefined ? streamContentBlocks(decoded.events) : undefined;
  }
  const parsed = parseJson(utf8.decode(bytes));
  const content = asObject(
    asObject(asObject(parsed.ok ? parsed.value : undefined)?.['output'])?.['message'],
  )?.['content'];
  return Array.isArray(content) ? content : undefined;
}

/** An assistant message's blocks rebuilt from the trace, when the answer's own are not at hand. */
function blocksOf(output: AssistantOutput): JsonValue[] {
  return [
    ...(output.text !== '' ? [{ text: output.text }] : []),
    ...output.toolCalls.map((call): JsonValue => ({
      toolUse: {
        toolUseId: call.id ?? '',
        name: call.name,
        input: call.arguments.ok ? call.arguments.value : {},
      },
    })),
  ];
}

function resultBlock(result: ToolResultMessage): JsonValue {
  return {
    toolResult: {
      toolUseId: result.callId,
      content: [resultContent(result.content)],
      status: result.isError ? 'error' : 'success',
    },
  };
}

/** A result as a `json` block when it is a JSON object (what Converse's `json` carries), else as `text`. */
function resultContent(content: string): JsonObject {
  const parsed = parseJson(content);
  const object = parsed.ok ? asObject(parsed.value) : undefined;
  return object ? { json: object } : { text: content };
}

function dropped(block: JsonValue, drop: ReadonlySet<string>): boolean {
  const id = asString(asObject(asObject(block)?.['toolUse'])?.['toolUseId']);
  return id !== undefined && drop.has(id);
}

/**
 * The stream without the dropped calls' blocks: their start, delta and stop events left out and
 * the blocks after them numbered again, so the agent's SDK sees indices without gaps. The other
 * events are written again as they came; undefined for a stream that does not decode whole.
 */
function streamWithout(bytes: Uint8Array, drop: ReadonlySet<string>): string | undefined {
  const decoded = decodeEventStream([bytes]);
  if (decoded.invalid !== undefined || decoded.trailing > 0) return undefined;
  const gone = new Set<number>();
  for (const event of decoded.events) {
    const payload = asObject(event.payload);
    if (event.type !== 'contentBlockStart' || !payload) continue;
    const index = asNumber(payload['contentBlockIndex']);
    const id = asString(asObject(asObject(payload['start'])?.['toolUse'])?.['toolUseId']);
    if (index !== undefined && id !== undefined && drop.has(id)) gone.add(index);
  }
  const kept: StreamEvent[] = [];
  for (const event of decoded.events) {
    const payload = asObject(event.payload);
    const index = payload ? asNumber(payload['contentBlockIndex']) : undefined;
    if (!payload || index === undefined || event.messageType !== 'event') {
      kept.push(event);
      continue;
    }
    if (gone.has(index)) continue;
    const before = [...gone].filter((removed) => removed < index).length;
    kept.push({ ...event, payload: { ...payload, contentBlockIndex: index - before } });
  }
  return binaryString(encodeEventStream(kept));
}
