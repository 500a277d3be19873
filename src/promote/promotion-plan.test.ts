import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionRound } from '../cassette/recorded-exchange.js';
import type { Interaction, JsonValue, Message, ToolCall } from '../trace/trace.js';
import type { TrajectoryCall } from '../trace/trajectory.js';
import { planPromotion, replayExtent } from './promotion-plan.js';

const encoder = new TextEncoder();

function message(role: Message['role'], text: string, extra: Partial<Message> = {}): Message {
  return { role, text, toolCalls: [], toolCallId: undefined, isError: undefined, ...extra };
}

function toolCall(id: string, name: string, argumentsRaw: string, index = 0): ToolCall {
  let parsed: ToolCall['arguments'];
  try {
    parsed = { ok: true, value: JSON.parse(argumentsRaw) as JsonValue };
  } catch (error) {
    parsed = { ok: false, error: (error as Error).message };
  }
  return { id, index, name, argumentsRaw, arguments: parsed, complete: true };
}

/** One round trip: the conversation it sent, and the calls (or text) the model answered with. */
function round(
  position: number,
  messages: readonly Message[],
  calls: readonly ToolCall[],
  options: {
    status?: Interaction['status'];
    stream?: boolean;
    provider?: Interaction['provider'];
  } = {},
): SessionRound {
  const body = JSON.stringify({
    id: `chatcmpl-${position}`,
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: calls.length === 0 ? 'Done.' : null,
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: call.argumentsRaw },
                })),
              }
            : {}),
        },
        finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
      },
    ],
  });
  const interaction: Interaction = {
    id: `i-${position}`,
    sessionId: 'S-1',
    provider: options.provider ?? 'openai-chat',
    method: 'POST',
    path: '/v1/chat/completions',
    request: {
      model: 'gpt-test',
      stream: options.stream ?? false,
      messages,
      tools: [],
      toolChoice: undefined,
    },
    response: {
      id: `chatcmpl-${position}`,
      model: 'gpt-test',
      output: {
        text: calls.length === 0 ? 'Done.' : '',
        refusal: undefined,
        toolCalls: calls,
        finishReason: { unified: calls.length > 0 ? 'tool-calls' : 'stop', raw: undefined },
      },
      alternatives: [],
      usage: undefined,
    },
    status: options.status ?? 'complete',
    httpStatus: 200,
    error: undefined,
    timing: { startedAt: 1_000 + position, firstByteMs: 1, totalMs: 2 },
  };
  return {
    interaction,
    agentRequest: {
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'send 20 to Ann' }],
      tools: [{ type: 'function', function: { name: 'transfer', parameters: { type: 'object' } } }],
    },
    response: { httpStatus: 200, contentType: 'application/json', body: encoder.encode(body) },
  };
}

const user = message('user', 'send 20 to Ann');
const transfer = toolCall('call_1', 'transfer', '{"to":"Ann","amount":20}');
const result = message('tool', '{"ok":true}', { toolCallId: 'call_1' });

describe('planPromotion', () => {
  it('starts the case from the first request, mocks the results the session saw, and expects the calls made', () => {
    const plan = planPromotion({
      sessionId: 'S-1',
      rounds: [round(0, [user], [transfer]), round(1, [user, result], [])],
      failures: ['limits/out_of_range: amount: above 10'],
      cassette: 'recordings/live.sqlite',
    });
    expect(plan.testId).toBe('send-20-to-ann');
    expect(plan.testCase).toEqual({
      test_id: 'send-20-to-ann',
      prompt: 'send 20 to Ann',
      messages: [{ role: 'user', content: 'send 20 to Ann' }],
      expect: {
        mode: 'exact',
        calls: [{ tool: 'transfer', arguments: { to: 'Ann', amount: 20 } }],
      },
      mocks: ['mocks/promoted/send-20-to-ann.yaml'],
      review: 'pending',
      provenance: {
        source: 'promoted',
        session: 'S-1',
        cassette: 'recordings/live.sqlite',
        failures: ['limits/out_of_range: amount: above 10'],
      },
    });
    expect(plan.mocks?.content).toEqual({
      mocks: [
        {
          tool: 'transfer',
          description: 'what session S-1 got back, call by call',
          sequence: [{ result: '{"ok":true}' }],
          after: 'error',
        },
      ],
    });
    expect(plan.answers).toHaveLength(2);
    expect(plan.calls).toEqual([{ name: 'transfer', arguments: '{"to":"Ann","amount":20}' }]);
    expect(plan.notes).toEqual([]);
  });

  it('leaves out failed round trips and the turns after the next user message, and says so', () => {
    const again = message('user', 'and 5 to Bob');
    const plan = planPromotion({
      sessionId: 'S-1',
      rounds: [
        round(0, [user], [], { status: 'upstream-error' }),
        round(1, [user], [transfer]),
        round(2, [user, result], []),
        round(3, [user, result, message('assistant', 'Done.'), again], []),
      ],
      failures: [],
      cassette: 'c.sqlite',
    });
    expect(plan.answers).toHaveLength(2);
    expect(plan.notes).toEqual([
      "1 failed round trip(s) left out (the agent's retry stands in for them)",
      '1 round trip(s) after the next user turn left out (a case is one user turn)',
    ]);
    expect(plan.testCase['provenance']).not.toHaveProperty('failures');
  });

  it('stops where a call has no result to mock, and mocks nothing for that tool', () => {
    const plan = planPromotion({
      sessionId: 'S-1',
      rounds: [round(0, [user], [transfer])],
      failures: [],
      cassette: 'c.sqlite',
    });
    expect(plan.mocks).toBeUndefined();
    expect(plan.testCase).not.toHaveProperty('mocks');
    expect(plan.testCase['expect']).toEqual({
      mode: 'exact',
      calls: [{ tool: 'transfer', arguments: { to: 'Ann', amount: 20 } }],
    });
  });

  it('expects no tool call when the session made none, and answers a streamed round as one JSON completion', () => {
    const streamed = round(0, [user], [], { stream: true });
    const sse = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] })}\n\ndata: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;
    const plan = planPromotion({
      sessionId: 'S-1',
      rounds: [
        {
          ...streamed,
          response: {
            httpStatus: 200,
            contentType: 'text/event-stream',
            body: encoder.encode(sse),
          },
        },
      ],
      failures: [],
      cassette: 'c.sqlite',
    });
    expect(plan.testCase['expected_tool']).toBeNull();
    expect(plan.answers[0]?.contentType).toBe('application/json');
    expect(JSON.parse(plan.answers[0]?.body ?? '')).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { content: 'Hi' }, finish_reason: 'stop' }],
    });
  });

  it('refuses a session on another wire, or with nothing that completed, naming it', () => {
    expect(() =>
      planPromotion({
        sessionId: 'S-9',
        rounds: [round(0, [user], [], { provider: 'anthropic-messages' })],
        failures: [],
        cassette: 'c.sqlite',
      }),
    ).toThrow('session "S-9": spoken on anthropic-messages');
    expect(() =>
      planPromotion({
        sessionId: 'S-9',
        rounds: [round(0, [user], [], { status: 'truncated' })],
        failures: [],
        cassette: 'c.sqlite',
      }),
    ).toThrow('session "S-9": none of its 1 round trip(s) completed');
  });

  it('names the case after the session, with only file-safe characters, when the prompt gives no letters', () => {
    const plan = planPromotion({
      sessionId: '../weird id/é',
      rounds: [round(0, [message('user', '42?')], [])],
      failures: [],
      cassette: 'c.sqlite',
    });
    expect(plan.testId).toBe('session-weird-id');
  });

  it('avoids the names the suite has taken and puts the mock file in the folder it is given', () => {
    const plan = planPromotion({
      sessionId: 'S-2',
      rounds: [round(0, [user], [transfer]), round(1, [user, result], [])],
      failures: [],
      cassette: 'c.sqlite',
      taken: new Set(['send-20-to-ann']),
      mocksDir: '../shared/mocks/',
    });
    expect(plan.testId).toBe('send-20-to-ann-2');
    expect(plan.mocks?.file).toBe('../shared/mocks/send-20-to-ann-2.yaml');
    expect(plan.testCase['mocks']).toEqual(['../shared/mocks/send-20-to-ann-2.yaml']);
  });
});

const trajectoryCall = (
  name: string,
  answered: boolean,
  turn: number,
  step: number,
): TrajectoryCall => ({
  id: `call_${step}`,
  name,
  argumentsRaw: '{}',
  arguments: { ok: true, value: {} },
  complete: true,
  turn,
  index: 0,
  step,
  result: answered ? { text: 'ok', isError: undefined } : undefined,
  mocked: false,
});

describe('replayExtent', () => {
  it('stops at a round the driver gets back, with every mocked call before it answered', () => {
    const turns = fc.array(
      fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.boolean()), { maxLength: 3 }),
      { minLength: 1, maxLength: 6 },
    );
    fc.assert(
      fc.property(turns, (shape) => {
        let step = 0;
        const calls = shape.map((turn, index) =>
          turn.map(([name, answered]) => trajectoryCall(name, answered, index, step++)),
        );
        const { stop, mocked } = replayExtent(calls);
        expect(stop).toBeGreaterThanOrEqual(0);
        expect(stop).toBeLessThan(calls.length);
        const upTo = calls.slice(0, stop + 1).flat();
        // A mocked tool always has an answer to give.
        for (const call of upTo) if (mocked.has(call.name)) expect(call.result).toBeDefined();
        // Rounds before the stop are walked by the proxy's tool loop: all their calls are mocked.
        for (const turn of calls.slice(0, stop))
          expect(turn.length > 0 && turn.every((call) => mocked.has(call.name))).toBe(true);
        // The stop round goes back to the driver: nothing called, or a call that is not mocked.
        const last = calls[stop] ?? [];
        expect(last.length === 0 || last.some((call) => !mocked.has(call.name))).toBe(true);
      }),
    );
  });
});
