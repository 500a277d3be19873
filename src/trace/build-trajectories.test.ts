import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildTrajectories, judgeSessionPrefix } from './build-trajectories.js';
import { ConversationChain } from './conversation-chain.js';
import { mcpResultsByCall } from '../mcp/mcp-call-results.js';
import { statusCheck } from '../scoring/trajectory/status-check.js';
import type { HostedToolCall, Interaction, JsonValue, Message, ToolCall } from './trace.js';
import type { Trajectory } from './trajectory.js';

let clock = 0;
const call = (id: string, name: string, args: object): ToolCall => ({
  id,
  index: 0,
  name,
  argumentsRaw: JSON.stringify(args),
  arguments: { ok: true, value: args as never },
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
const assistant = (text: string, calls: ToolCall[] = []): Message =>
  message('assistant', text, { toolCalls: calls });

/** A round trip: the messages sent, and the answer (text and calls). */
function round(
  id: string,
  messages: Message[],
  answer: { text?: string; calls?: ToolCall[] },
  sessionId = id,
): Interaction {
  return {
    id,
    sessionId,
    provider: 'openai-chat',
    method: 'POST',
    path: '/v1/chat/completions',
    request: { model: 'm', stream: false, messages, tools: [], toolChoice: undefined },
    response: {
      id: undefined,
      model: 'm',
      output: {
        text: answer.text ?? '',
        refusal: undefined,
        toolCalls: answer.calls ?? [],
        finishReason: { unified: answer.calls?.length ? 'tool-calls' : 'stop', raw: undefined },
      },
      alternatives: [],
      usage: undefined,
    },
    status: 'complete',
    httpStatus: 200,
    error: undefined,
    timing: { startedAt: ++clock, firstByteMs: 1, totalMs: 2 },
  };
}

/** A two-turn agent run: the model searches, then answers from the result. */
function agentRun(prefix: string, question: string, sessionId?: string): Interaction[] {
  const system = message('system', 'You answer questions.');
  const user = message('user', question);
  const search = call(`${prefix}_call_1`, 'search', { q: question });
  const first = round(`${prefix}-1`, [system, user], { calls: [search] }, sessionId);
  const second = round(
    `${prefix}-2`,
    [
      system,
      user,
      assistant('', [search]),
      message('tool', 'result for ' + question, { toolCallId: search.id }),
    ],
    { text: `The answer to ${question}` },
    sessionId,
  );
  return [first, second];
}

describe('conversation chaining', () => {
  it('puts a request that extends an earlier request and its answer into that session', () => {
    const [first, second] = agentRun('a', 'What is the refund window?');
    const chain = new ConversationChain();
    expect(chain.assign(first as Interaction)).toBe('a-1');
    expect(chain.assign(second as Interaction)).toBe('a-1');
  });

  it('keeps different conversations apart, and explicit session ids win', () => {
    const chain = new ConversationChain();
    const [a1, a2] = agentRun('a', 'refunds?');
    const [b1, b2] = agentRun('b', 'shipping?');
    expect([a1, b1, b2, a2].map((interaction) => chain.assign(interaction as Interaction))).toEqual(
      ['a-1', 'b-1', 'b-1', 'a-1'],
    );
    const [e1] = agentRun('e', 'refunds?', 'explicit');
    expect(chain.assign(e1 as Interaction)).toBe('explicit');
  });

  it('chains on the call id, so an agent that re-serialises echoed arguments still chains', () => {
    const chain = new ConversationChain();
    const [first, second] = agentRun('a', 'q');
    chain.assign(first as Interaction);
    const messages = (second as Interaction).request.messages.map((m) =>
      m.role === 'assistant'
        ? {
            ...m,
            toolCalls: m.toolCalls.map((c) => ({ ...c, argumentsRaw: ` ${c.argumentsRaw} ` })),
          }
        : m,
    );
    expect(
      chain.assign({
        ...(second as Interaction),
        request: { ...(second as Interaction).request, messages },
      }),
    ).toBe('a-1');
  });

  it('forgets the oldest conversations beyond its capacity', () => {
    const chain = new ConversationChain(2);
    const runs = ['a', 'b', 'c'].map((prefix) => agentRun(prefix, prefix));
    for (const [first] of runs) chain.assign(first as Interaction);
    expect(chain.sessionOf(runs[0]?.[1] as Interaction)).toBe('a-2');
    expect(chain.sessionOf(runs[2]?.[1] as Interaction)).toBe('c-1');
  });
});

describe('buildTrajectories', () => {
  it('leaves recorded reads (a model list before the chat) out of every trajectory', () => {
    const run = agentRun('r', 'refunds?', 'case-1');
    const list: Interaction = {
      ...round('r-tags', [], {}, 'case-1'),
      provider: 'ollama-chat',
      method: 'GET',
      path: '/api/tags',
      response: undefined,
      read: true,
    };
    const unlabelled: Interaction = { ...list, id: 'r-show', sessionId: 'r-show', read: true };
    const trajectories = buildTrajectories([list, ...run, unlabelled]);
    expect(
      trajectories.map((trajectory) => [trajectory.sessionId, trajectory.counts.rounds]),
    ).toEqual([['case-1', 2]]);
  });

  it('groups a chained run into turns with calls, results, final text and counts; judge sessions stay out', () => {
    const run = agentRun('a', 'refunds?');
    const judge = round(
      'j-1',
      [message('user', 'judge this')],
      { text: '{"pass":true}' },
      `${judgeSessionPrefix}:x`,
    );
    const [trajectory, ...others] = buildTrajectories([...run].reverse().concat(judge));
    expect(others).toEqual([]);
    expect(trajectory).toMatchObject({
      sessionId: 'a-1',
      finalText: 'The answer to refunds?',
      counts: { rounds: 2, calls: 1, byTool: { search: 1 }, userTurns: 1 },
      calls: [
        {
          id: 'a_call_1',
          name: 'search',
          turn: 0,
          index: 0,
          step: 0,
          result: { text: 'result for refunds?', isError: undefined },
          mocked: false,
        },
      ],
    });
    expect(trajectory?.turns.map((turn) => turn.interactionId)).toEqual(['a-1', 'a-2']);
  });

  it('issue 30: counts calls of tools named constructor, toString and __proto__ as numbers, like any tool', () => {
    const names = ['constructor', 'toString', '__proto__', 'constructor'];
    const calls = names.map((name, index) => call(`c${index}`, name, {}));
    const [trajectory] = buildTrajectories([round('p-1', [message('user', 'go')], { calls })]);
    const byTool = trajectory?.counts.byTool ?? {};
    expect(Object.keys(byTool).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.entries(byTool).sort()).toEqual([
      ['__proto__', 1],
      ['constructor', 2],
      ['toString', 1],
    ]);
    expect(JSON.parse(JSON.stringify(byTool))).toEqual(
      JSON.parse('{"constructor":2,"toString":1,"__proto__":1}'),
    );
  });

  it('counts user turns as the longest request of the run shows them', () => {
    const [first, second] = agentRun('u', 'first?', 'u');
    const followUp = round(
      'u-3',
      [...(second?.request.messages ?? []), assistant('The answer'), message('user', 'and then?')],
      { text: 'then this' },
      'u',
    );
    expect(
      buildTrajectories([first as Interaction, second as Interaction, followUp])[0]?.counts
        .userTurns,
    ).toBe(2);
  });

  it('any interleaving of concurrent runs gives the same trajectories (property)', () => {
    const runs = ['a', 'b', 'c'].map((prefix) => agentRun(prefix, `question ${prefix}`));
    fc.assert(
      fc.property(fc.shuffledSubarray([0, 1, 2], { minLength: 3, maxLength: 3 }), (order) => {
        // Each run's own turns stay in order (a turn needs the previous answer); runs interleave freely.
        const interleaved = order
          .flatMap((index) => [runs[index]?.[0] as Interaction])
          .concat(order.map((index) => runs[index]?.[1] as Interaction));
        const restamped = interleaved.map((interaction, position) => ({
          ...interaction,
          timing: { ...interaction.timing, startedAt: position },
        }));
        const trajectories = buildTrajectories(restamped).map((trajectory) => [
          trajectory.sessionId,
          trajectory.turns.map((turn) => turn.interactionId),
        ]);
        expect(trajectories.sort()).toEqual([
          ['a-1', ['a-1', 'a-2']],
          ['b-1', ['b-1', 'b-2']],
          ['c-1', ['c-1', 'c-2']],
        ]);
      }),
    );
  });
});

describe('what MCP servers answered', () => {
  const run = agentRun('m', 'refunds?', 'mcp-session');
  const served = (answer: { result?: JsonValue; error?: { code: number; message: string } }) => ({
    id: 'mcp-1',
    sessionId: 'relay-session',
    sessionGiven: false,
    startedAt: (run[0] as Interaction).timing.startedAt + 0.5,
    subject: 'search',
    params: { name: 'search', arguments: { q: 'refunds?' } },
    result: answer.result,
    error: answer.error,
  });

  it('fails the step-status check on a call the server answered with isError, though the OpenAI tool message has no error flag', () => {
    const failed = served({
      result: { content: [{ type: 'text', text: 'permission denied' }], isError: true },
    });
    const [trajectory] = buildTrajectories(run, mcpResultsByCall(run, [failed]));
    expect(trajectory?.calls[0]?.result).toEqual({ text: 'result for refunds?', isError: true });
    expect(statusCheck({ must_succeed: ['search'] }, trajectory as Trajectory).status).toBe('fail');
    const [unaware] = buildTrajectories(run);
    expect(statusCheck({ must_succeed: ['search'] }, unaware as Trajectory).status).toBe('pass');
  });

  it('counts a JSON-RPC error as a failed call, and a plain answer as a success', () => {
    const [errored] = buildTrajectories(
      run,
      mcpResultsByCall(run, [served({ error: { code: -32602, message: 'bad arguments' } })]),
    );
    expect(statusCheck({ max_failed_calls: 0 }, errored as Trajectory).status).toBe('fail');
    const [answered] = buildTrajectories(
      run,
      mcpResultsByCall(run, [served({ result: { content: [{ type: 'text', text: 'ok' }] } })]),
    );
    expect(answered?.calls[0]?.result).toEqual({ text: 'result for refunds?', isError: false });
  });
});

describe('hosted tool calls in the trajectory', () => {
  const hostedCall = (
    id: string,
    name: string,
    result: { text: string; isError: boolean } | undefined,
    server?: string,
  ): HostedToolCall => ({
    ...call(id, name, { q: 'news' }),
    kind: server === undefined ? 'web_search_call' : 'mcp_call',
    server,
    result,
  });
  const withHosted = (interaction: Interaction, hosted: HostedToolCall[]): Interaction => ({
    ...interaction,
    response: interaction.response && {
      ...interaction.response,
      output: { ...interaction.response.output, hostedCalls: hosted },
    },
  });
  const [first, second] = agentRun('h', 'news?');
  const run = [
    withHosted(first as Interaction, [
      hostedCall('ws_1', 'web_search', { text: 'https://example.com', isError: false }),
      hostedCall('mcp_1', 'lookup', { text: 'timed out', isError: true }, 'crm'),
    ]),
    second as Interaction,
  ];
  const [trajectory] = buildTrajectories(run);

  it('places the calls the provider ran before the calls its turn ends with, marked hosted, with their results', () => {
    expect(
      trajectory?.calls.map((placed) => [placed.step, placed.turn, placed.name, placed.hosted]),
    ).toEqual([
      [0, 0, 'web_search', { kind: 'web_search_call', server: undefined }],
      [1, 0, 'lookup', { kind: 'mcp_call', server: 'crm' }],
      [2, 0, 'search', undefined],
    ]);
    expect(trajectory?.calls[1]?.result).toEqual({ text: 'timed out', isError: true });
    expect(trajectory?.counts.byTool).toEqual({ web_search: 1, lookup: 1, search: 1 });
  });

  it('lets the step-status checks read a hosted call’s failure', () => {
    const status = statusCheck(
      { max_failed_calls: 0, must_succeed: ['web_search'] },
      trajectory as Trajectory,
    );
    expect(status.status).toBe('fail');
    expect(status.reasons).toEqual(['too_many_failed_calls']);
  });
});
