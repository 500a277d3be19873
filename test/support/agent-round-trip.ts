import type { Interaction, Message } from '../../src/trace/trace.js';

/** The one tool the scripted agent offers: `lookup(id)`. */
export const lookupTool = {
  name: 'lookup',
  description: undefined,
  parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  strict: undefined,
};

/** A user message with `text`. */
export const user = (text: string): Message => ({
  role: 'user',
  text,
  toolCalls: [],
  toolCallId: undefined,
  isError: undefined,
});

/**
 * Round trip `turn` of an agent asking `lookup` again and again, resending the whole history each
 * time: the request carries `history`, and the call and its result (`result <turn>`) are appended to it.
 */
export function roundTrip(session: string, turn: number, history: Message[]): Interaction {
  const call = {
    id: `call_${turn}`,
    index: 0,
    name: 'lookup',
    argumentsRaw: '{"id":"A"}',
    arguments: { ok: true as const, value: { id: 'A' } },
    complete: true,
  };
  const interaction: Interaction = {
    id: `${session}-${turn}`,
    sessionId: session,
    provider: 'openai-chat',
    method: 'POST',
    path: '/v1/chat/completions',
    request: {
      model: 'gpt-test',
      stream: false,
      messages: [...history],
      tools: [lookupTool],
      toolChoice: undefined,
    },
    response: {
      id: `r${turn}`,
      model: 'gpt-test',
      output: {
        text: '',
        refusal: undefined,
        toolCalls: [call],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      },
      alternatives: [],
      usage: undefined,
    },
    status: 'complete',
    httpStatus: 200,
    error: undefined,
    timing: { startedAt: 1_000 + turn, firstByteMs: 1, totalMs: 2 },
  };
  history.push(
    { role: 'assistant', text: '', toolCalls: [call], toolCallId: undefined, isError: undefined },
    {
      role: 'tool',
      text: `result ${turn}`,
      toolCalls: [],
      toolCallId: call.id,
      isError: undefined,
    },
  );
  return interaction;
}
