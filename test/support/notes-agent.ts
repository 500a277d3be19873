import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type OpenAI from 'openai';
import { chatCompletion } from './openai-chat-chunks.js';
import type { Script } from './scripted-upstream.js';

/** A model that asks for the notes server's `delete_everything` (prefixed, as agents name MCP tools), then is done. */
export const wipeModel: Script = (request) => {
  // Anything but a chat request (a page's favicon, passed through) finds nothing to read.
  const body = JSON.parse(request.body || '{"messages":[]}') as { messages: { role: string }[] };
  return {
    kind: 'json',
    body: chatCompletion(
      body.messages.some((message) => message.role === 'tool')
        ? { text: 'Done.' }
        : { toolCalls: [{ id: 'call_1', name: 'notes__delete_everything', arguments: '{}' }] },
    ),
  };
};

/**
 * One agent session against `wipeModel` in `session`: the model's `notes__delete_everything` is
 * carried out on the MCP server (which refuses it), then the agent adds of its own accord — an
 * MCP call no model call explains — and tells the model (after `afterMcpCalls`). Resolves with
 * the server's answer.
 */
export async function wipeThenAdd(
  client: OpenAI,
  mcp: Client,
  session: Record<string, string>,
  afterMcpCalls: () => Promise<void> = () => Promise.resolve(),
): Promise<Awaited<ReturnType<Client['callTool']>>> {
  const tools: OpenAI.Chat.Completions.ChatCompletionFunctionTool[] = [
    {
      type: 'function',
      function: { name: 'notes__delete_everything', parameters: { type: 'object' } },
    },
  ];
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
    { role: 'user', content: 'wipe my notes' },
  ];
  const first = await client.chat.completions.create(
    { model: 'gpt-test', messages, tools },
    { headers: session },
  );
  const asked = first.choices[0]?.message;
  const call = asked?.tool_calls?.[0];
  if (!asked || call?.type !== 'function') throw new Error('the model asked for no tool');
  const answer = await mcp.callTool({ name: 'delete_everything', arguments: {} });
  await mcp.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  await afterMcpCalls();
  // OpenAI tool messages carry no error flag: only the MCP server's answer says the tool failed.
  messages.push(asked, { role: 'tool', tool_call_id: call.id, content: 'permission denied' });
  await client.chat.completions.create(
    { model: 'gpt-test', messages, tools },
    { headers: session },
  );
  return answer;
}
