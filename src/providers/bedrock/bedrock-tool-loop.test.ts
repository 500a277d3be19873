import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitBytes } from '../../../test/support/split-bytes.js';
import { answerKey, keyAfter, type PrefixKey } from '../../trace/prefix-hash.js';
import type { JsonValue } from '../../trace/trace.js';
import { bedrockConverseAdapter } from './bedrock-converse-adapter.js';
import { bedrockToolLoop } from './bedrock-tool-loop.js';
import { binaryBytes, binaryString } from './convert-converse-body.js';
import { eventsOfTurn, type ConverseTurn } from './converse-turn.js';
import { decodeEventStream, encodeEventStream } from './event-stream.js';
import { eventStreamContentType } from './parse-converse-response.js';
import { parseConverseRequest } from './parse-converse-request.js';
import { streamContentBlocks } from './stream-content-blocks.js';

/** A turn that says something and calls two tools, `lookup` (mocked below) and `deploy` (the agent's). */
const turn: ConverseTurn = {
  blocks: [
    { kind: 'text', text: 'Checking — ünïcode ✓' },
    { kind: 'toolUse', toolUseId: 'tooluse_a', name: 'lookup', input: '{"q":"x"}', closed: true },
    { kind: 'toolUse', toolUseId: 'tooluse_b', name: 'deploy', input: '{"env":"é"}', closed: true },
  ],
  stopReason: 'tool_use',
  usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
  metrics: { latencyMs: 3 },
  extra: {},
  stopped: true,
  exception: undefined,
};
const stream = binaryString(encodeEventStream(eventsOfTurn(turn)));
const answer = {
  output: {
    message: {
      role: 'assistant',
      content: [
        { text: 'Checking — ünïcode ✓' },
        { toolUse: { toolUseId: 'tooluse_a', name: 'lookup', input: { q: 'x' } } },
        { toolUse: { toolUseId: 'tooluse_b', name: 'deploy', input: { env: 'é' } } },
      ],
    },
  },
  stopReason: 'tool_use',
};
const json = binaryString(new TextEncoder().encode(JSON.stringify(answer)));

const parse = (body: string | Uint8Array[], contentType: string) =>
  bedrockConverseAdapter.parseResponse({
    httpStatus: 200,
    contentType,
    body: typeof body === 'string' ? [binaryBytes(body)] : body,
    ending: 'finished',
  });

const results = [{ callId: 'tooluse_a', content: '{"hits":2}', isError: false }];

describe('Bedrock tool loop', () => {
  it('writes the turn as an assistant message of toolUse blocks and the results as toolResult blocks', () => {
    const output = parse(stream, eventStreamContentType).response?.output;
    if (!output) expect.fail('no output');
    expect(
      bedrockToolLoop.turnMessages(
        output,
        [...results, { callId: 'tooluse_b', content: 'boom', isError: true }],
        stream,
      ),
    ).toEqual([
      {
        role: 'assistant',
        content: [
          { text: 'Checking — ünïcode ✓' },
          { toolUse: { toolUseId: 'tooluse_a', name: 'lookup', input: { q: 'x' } } },
          { toolUse: { toolUseId: 'tooluse_b', name: 'deploy', input: { env: 'é' } } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            toolResult: {
              toolUseId: 'tooluse_a',
              content: [{ json: { hits: 2 } }],
              status: 'success',
            },
          },
          { toolResult: { toolUseId: 'tooluse_b', content: [{ text: 'boom' }], status: 'error' } },
        ],
      },
    ]);
  });

  it('sends the blocks of a whole JSON answer back as answered', () => {
    const withReasoning = {
      ...answer,
      output: {
        message: {
          ...answer.output.message,
          content: [
            { reasoningContent: { reasoningText: { text: 'hm', signature: 'sig' } } },
            ...answer.output.message.content,
          ],
        },
      },
    };
    const body = binaryString(new TextEncoder().encode(JSON.stringify(withReasoning)));
    const output = parse(body, 'application/json').response?.output;
    if (!output) expect.fail('no output');
    expect(bedrockToolLoop.turnMessages(output, [], body)).toEqual([withReasoning.output.message]);
  });

  it('drops the mocked calls from a stream answer as valid frames, the other blocks renumbered', () => {
    const visible = bedrockToolLoop.withoutCalls(
      stream,
      { stream: true, includeUsage: false },
      new Set(['tooluse_a']),
    );
    if (visible === undefined) expect.fail('not rewritten');
    const decoded = decodeEventStream([binaryBytes(visible)]);
    expect(decoded.invalid).toBeUndefined();
    expect(decoded.trailing).toBe(0);
    const indices = decoded.events.flatMap((event) => {
      const index = (event.payload as { contentBlockIndex?: number } | undefined)
        ?.contentBlockIndex;
      return index === undefined ? [] : [index];
    });
    expect(new Set(indices)).toEqual(new Set([0, 1]));
    const parsed = parse(visible, eventStreamContentType);
    expect(parsed.status).toBe('complete');
    expect(parsed.response?.output?.text).toBe('Checking — ünïcode ✓');
    expect(parsed.response?.output?.toolCalls.map((call) => [call.id, call.argumentsRaw])).toEqual([
      ['tooluse_b', '{"env":"é"}'],
    ]);
  });

  it('decodes the same calls from the rewritten stream however its bytes are split (property)', () => {
    const visible = bedrockToolLoop.withoutCalls(
      stream,
      { stream: true, includeUsage: false },
      new Set(['tooluse_a']),
    );
    if (visible === undefined) expect.fail('not rewritten');
    const bytes = binaryBytes(visible);
    const whole = parse(visible, eventStreamContentType).response?.output?.toolCalls;
    fc.assert(
      fc.property(fc.array(fc.nat({ max: bytes.length }), { maxLength: 40 }), (cuts) => {
        const split = parse(splitBytes(bytes, cuts), eventStreamContentType);
        expect(split.status).toBe('complete');
        expect(split.response?.output?.toolCalls).toEqual(whole);
      }),
    );
  });

  it('drops the mocked calls from a whole JSON answer, keeping its UTF-8 text', () => {
    const visible = bedrockToolLoop.withoutCalls(
      json,
      { stream: false, includeUsage: false },
      new Set(['tooluse_a']),
    );
    if (visible === undefined) expect.fail('not rewritten');
    const message = (JSON.parse(Buffer.from(visible, 'latin1').toString('utf8')) as typeof answer)
      .output.message;
    expect(message.content).toEqual([
      answer.output.message.content[0],
      answer.output.message.content[2],
    ]);
  });

  it('splices the hidden turn back, merging the mocks’ results with the agent’s own', () => {
    const output = parse(stream, eventStreamContentType).response?.output;
    if (!output) expect.fail('no output');
    const request = {
      system: [{ text: 'be brief' }],
      messages: [{ role: 'user', content: [{ text: 'ship it' }] }],
    };
    const prefix = keyAfter(parseConverseRequest(request).messages);
    const visibleCalls = output.toolCalls.filter((call) => call.name === 'deploy');
    const kept = new Map<PrefixKey, readonly JsonValue[]>([
      [
        answerKey(prefix, { text: output.text, toolCalls: visibleCalls }),
        bedrockToolLoop.turnMessages(output, results, stream),
      ],
    ]);
    const agentNext = {
      ...request,
      messages: [
        ...request.messages,
        {
          role: 'assistant',
          content: [
            { text: 'Checking — ünïcode ✓' },
            { toolUse: { toolUseId: 'tooluse_b', name: 'deploy', input: { env: 'é' } } },
          ],
        },
        {
          role: 'user',
          content: [{ toolResult: { toolUseId: 'tooluse_b', content: [{ text: 'ok' }] } }],
        },
      ],
    };
    const spliced = bedrockToolLoop.splice(agentNext, (key) => kept.get(key)) as typeof agentNext;
    expect(spliced.messages).toHaveLength(3);
    expect(spliced.messages[1]).toEqual(kept.values().next().value?.[0]);
    expect(spliced.messages[2]?.content).toEqual([
      {
        toolResult: { toolUseId: 'tooluse_a', content: [{ json: { hits: 2 } }], status: 'success' },
      },
      { toolResult: { toolUseId: 'tooluse_b', content: [{ text: 'ok' }] } },
    ]);
    expect(bedrockToolLoop.splice(agentNext, () => undefined)).toBeUndefined();
  });

  it('reads the tool results a request carries and replaces their content', () => {
    const request = {
      messages: [
        { role: 'user', content: [{ text: 'go' }] },
        answer.output.message,
        {
          role: 'user',
          content: [
            {
              toolResult: {
                toolUseId: 'tooluse_a',
                content: [{ text: 'real' }],
                status: 'success',
              },
            },
          ],
        },
      ],
    };
    expect(bedrockToolLoop.toolResults(request)).toEqual([
      { callId: 'tooluse_a', name: 'lookup', argumentsRaw: '{"q":"x"}', content: 'real' },
    ]);
    const replaced = bedrockToolLoop.withToolResults(
      request,
      new Map([['tooluse_a', '{"fake":true}']]),
    );
    expect(bedrockToolLoop.toolResults(replaced)[0]?.content).toBe('{"fake":true}');
  });
});

describe('streamContentBlocks', () => {
  const event = (type: string, payload: JsonValue) => ({ messageType: 'event', type, payload });
  const thinking = [
    event('messageStart', { role: 'assistant' }),
    event('contentBlockDelta', {
      contentBlockIndex: 0,
      delta: { reasoningContent: { text: 'Need ' } },
    }),
    event('contentBlockDelta', {
      contentBlockIndex: 0,
      delta: { reasoningContent: { text: 'stock.' } },
    }),
    event('contentBlockDelta', {
      contentBlockIndex: 0,
      delta: { reasoningContent: { signature: 'c2ln' } },
    }),
    event('contentBlockStop', { contentBlockIndex: 0 }),
    event('contentBlockStart', {
      contentBlockIndex: 1,
      start: { toolUse: { toolUseId: 'tooluse_r', name: 'lookup' } },
    }),
    event('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"q":' } } }),
    event('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '"x"}' } } }),
    event('contentBlockStop', { contentBlockIndex: 1 }),
    event('messageStop', { stopReason: 'tool_use' }),
  ];

  it('sends a streamed thinking turn back with its reasoning text and signature beside the call', () => {
    expect(streamContentBlocks(thinking)).toEqual([
      { reasoningContent: { reasoningText: { text: 'Need stock.', signature: 'c2ln' } } },
      { toolUse: { toolUseId: 'tooluse_r', name: 'lookup', input: { q: 'x' } } },
    ]);
    const body = binaryString(encodeEventStream(thinking));
    const output = parse(body, eventStreamContentType).response?.output;
    if (!output) expect.fail('no output');
    expect(bedrockToolLoop.turnMessages(output, [], body)[0]).toEqual({
      role: 'assistant',
      content: streamContentBlocks(thinking),
    });
  });

  it('gives up on a call whose input is not JSON (the trace rebuilds the turn instead)', () => {
    expect(
      streamContentBlocks([
        event('contentBlockStart', {
          contentBlockIndex: 0,
          start: { toolUse: { toolUseId: 't', name: 'n' } },
        }),
        event('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '{"q"' } } }),
      ]),
    ).toBeUndefined();
  });
});
