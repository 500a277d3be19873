import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Interaction, Message, ToolCall } from '../trace/trace.js';
import { agentAttributes, chatSpan, evaluationAttributes, toolSpan } from './gen-ai-spans.js';
import { policyEvaluation } from '../live/verdict-spans.js';

const call = (id: string | undefined, name: string, args: string): ToolCall => ({
  id,
  index: 0,
  name,
  argumentsRaw: args,
  arguments: (() => {
    try {
      return { ok: true as const, value: JSON.parse(args) as never };
    } catch {
      return { ok: false as const, error: 'bad json' };
    }
  })(),
  complete: true,
});
const message = (role: Message['role'], text: string, extra: Partial<Message> = {}): Message => ({
  role,
  text,
  toolCalls: [],
  toolCallId: undefined,
  isError: undefined,
  ...extra,
});

function interaction(overrides: Partial<Interaction> = {}, calls: ToolCall[] = []): Interaction {
  return {
    id: 'i1',
    sessionId: 's1',
    provider: 'anthropic-messages',
    method: 'POST',
    path: '/v1/messages',
    request: {
      model: 'claude-x',
      stream: false,
      messages: [message('system', 'Be brief.'), message('user', 'Weather?')],
      tools: [
        {
          name: 'get_weather',
          description: 'Weather.',
          parameters: { type: 'object' },
          strict: undefined,
        },
      ],
      toolChoice: undefined,
    },
    response: {
      id: 'msg_1',
      model: 'claude-x-2025',
      output: {
        text: '',
        refusal: undefined,
        toolCalls: calls,
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      },
      alternatives: [],
      usage: {
        inputTokens: 10,
        outputTokens: 4,
        totalTokens: 14,
        cachedInputTokens: 3,
        reasoningTokens: undefined,
      },
    },
    status: 'complete',
    httpStatus: 200,
    error: undefined,
    timing: { startedAt: 1000, firstByteMs: 5, totalMs: 40 },
    ...overrides,
  };
}

const contentKeys = [
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'gen_ai.system_instructions',
  'gen_ai.tool.definitions',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
];

describe('chat spans', () => {
  it("names Ollama's wire as provider ollama (not one of the convention's well-known values)", () => {
    const span = chatSpan(interaction({ provider: 'ollama-chat', path: '/api/chat' }), {
      content: false,
    });
    expect(span.attributes['gen_ai.provider.name']).toBe('ollama');
  });

  it('names the span after the requested model and maps the round onto the convention', () => {
    const span = chatSpan(interaction({}, [call('toolu_1', 'get_weather', '{"city":"Paris"}')]), {
      content: false,
    });
    expect(span).toMatchObject({
      name: 'chat claude-x',
      kind: 'client',
      startMs: 1000,
      endMs: 1040,
    });
    expect(span.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-x',
      'gen_ai.response.model': 'claude-x-2025',
      'gen_ai.response.id': 'msg_1',
      'gen_ai.response.finish_reasons': ['tool_use'],
      'gen_ai.conversation.id': 's1',
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 4,
      'gen_ai.usage.cache_read.input_tokens': 3,
      'calltape.interaction.id': 'i1',
      'calltape.wire': 'anthropic-messages',
      'http.response.status_code': 200,
    });
  });

  it('puts Anthropic system text in gen_ai.system_instructions and the rest in gen_ai.input.messages when content is opted in', () => {
    const span = chatSpan(interaction({}, [call('toolu_1', 'get_weather', '{"city":"Paris"}')]), {
      content: true,
    });
    expect(JSON.parse(String(span.attributes['gen_ai.system_instructions']))).toEqual([
      { type: 'text', content: 'Be brief.' },
    ]);
    expect(JSON.parse(String(span.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Weather?' }] },
    ]);
    expect(JSON.parse(String(span.attributes['gen_ai.output.messages']))).toEqual([
      {
        role: 'assistant',
        parts: [
          { type: 'tool_call', id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } },
        ],
        finish_reason: 'tool_use',
      },
    ]);
  });

  it('gives a failed round error.type and an error status, and no conversation id to a round without a session', () => {
    const span = chatSpan(
      interaction({
        id: 'solo',
        sessionId: 'solo',
        status: 'upstream-error',
        httpStatus: 429,
        error: 'rate limited',
        response: undefined,
      }),
      { content: false },
    );
    expect(span.error).toBe('rate limited');
    expect(span.attributes['error.type']).toBe('429');
    expect(span.attributes['gen_ai.conversation.id']).toBeUndefined();
  });

  it('never carries an opt-in content attribute unless asked, and never ends before it starts (property)', () => {
    const arbitraryInteraction = fc.record({
      stream: fc.boolean(),
      startedAt: fc.integer({ min: 0, max: 2 ** 40 }),
      totalMs: fc.integer({ min: 0, max: 600_000 }),
      status: fc.constantFrom(
        'complete',
        'upstream-error',
        'truncated',
        'aborted',
        'proxy-error' as const,
      ),
      text: fc.string(),
      args: fc.string(),
      provider: fc.constantFrom('openai-chat', 'openai-responses', 'anthropic-messages' as const),
    });
    fc.assert(
      fc.property(arbitraryInteraction, fc.boolean(), (drawn, content) => {
        const round = interaction(
          {
            provider: drawn.provider,
            status: drawn.status,
            request: {
              ...interaction().request,
              stream: drawn.stream,
              messages: [message('user', drawn.text)],
            },
            timing: { startedAt: drawn.startedAt, firstByteMs: 1, totalMs: drawn.totalMs },
          },
          [call('c', 'f', drawn.args)],
        );
        const chat = chatSpan(round, { content });
        const tool = toolSpan(
          call('c', 'f', drawn.args),
          {
            startMs: chat.endMs,
            endMs: chat.endMs - 5,
            definition: undefined,
            mocked: false,
            outcome: { content: drawn.text, isError: false },
          },
          { content },
        );
        for (const span of [chat, tool]) {
          expect(span.endMs).toBeGreaterThanOrEqual(span.startMs);
          for (const key of contentKeys)
            expect(Object.hasOwn(span.attributes, key)).toBe(
              content && Object.hasOwn(span.attributes, key),
            );
          for (const key of Object.keys(span.attributes))
            expect(key).toMatch(/^(gen_ai|calltape|http|error)\./);
        }
        if (!content)
          for (const key of contentKeys)
            expect(chat.attributes[key] ?? tool.attributes[key]).toBeUndefined();
      }),
    );
  });
});

describe('tool spans', () => {
  it('carries the call id and the description, and the result only when opted in and not an error', () => {
    const context = {
      startMs: 10,
      endMs: 50,
      definition: {
        name: 'get_weather',
        description: 'Weather.',
        parameters: {},
        strict: undefined,
      },
      mocked: true,
      outcome: { content: '{"sky":"sunny"}', isError: false },
    };
    expect(toolSpan(call('call_1', 'get_weather', '{}'), context, { content: false })).toEqual({
      name: 'execute_tool get_weather',
      kind: 'internal',
      startMs: 10,
      endMs: 50,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'get_weather',
        'gen_ai.tool.type': 'function',
        'gen_ai.tool.call.id': 'call_1',
        'gen_ai.tool.description': 'Weather.',
        'calltape.tool.mocked': true,
      },
    });
    expect(
      toolSpan(call('call_1', 'get_weather', '{}'), context, { content: true }).attributes[
        'gen_ai.tool.call.result'
      ],
    ).toBe('{"sky":"sunny"}');
    const failed = toolSpan(
      call('call_1', 'get_weather', '{}'),
      { ...context, outcome: { content: 'boom', isError: true } },
      { content: true },
    );
    expect(failed.attributes['gen_ai.tool.call.result']).toBeUndefined();
    expect(failed.attributes['error.type']).toBe('tool_error');
  });
});

describe('evaluations', () => {
  it('labels a policy pass, fail, or error when it could not decide', () => {
    const failures = [
      { policy: 'limits', reason: 'out_of_range' as const, message: 'amount 25000 is over 10000' },
      { policy: 'judge', reason: 'judge_error' as const, message: 'the judge did not answer' },
    ];
    expect(evaluationAttributes(policyEvaluation('limits', failures, 0, undefined))).toEqual({
      'gen_ai.evaluation.name': 'limits',
      'gen_ai.evaluation.score.label': 'fail',
      'gen_ai.evaluation.score.value': 0,
      'gen_ai.evaluation.explanation': 'amount 25000 is over 10000',
    });
    expect(
      evaluationAttributes(policyEvaluation('judge', failures, undefined, undefined)),
    ).toMatchObject({ 'gen_ai.evaluation.score.label': 'error', 'error.type': 'judge_error' });
    expect(
      evaluationAttributes(policyEvaluation('schema', failures, 1, { 'gen_ai.tool.name': 't' })),
    ).toEqual({
      'gen_ai.evaluation.name': 'schema',
      'gen_ai.evaluation.score.label': 'pass',
      'gen_ai.evaluation.score.value': 1,
      'gen_ai.tool.name': 't',
    });
  });
});

describe('Gemini rounds in GenAI spans', () => {
  it.each([
    ['/v1beta/models/gemini-2.5-flash:generateContent', 'gcp.gemini'],
    [
      '/v1beta1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
      'gcp.vertex_ai',
    ],
    ['/v1/publishers/google/models/gemini-2.5-flash:generateContent', 'gcp.vertex_ai'],
  ])('names the provider of %s %s', (path, provider) => {
    const span = chatSpan(interaction({ provider: 'gemini', path }), { content: false });
    expect(span.attributes['gen_ai.provider.name']).toBe(provider);
    expect(agentAttributes('s1', 'gemini', {}, path)['gen_ai.provider.name']).toBe(provider);
  });
});
