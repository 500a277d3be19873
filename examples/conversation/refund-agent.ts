/**
 * A refund agent that converses, on the official `openai` package: it asks for the order, looks
 * it up, asks the user to confirm, and only then refunds. It speaks both of calltape's
 * conversation protocols (docs/reference/conversation-protocol.md):
 *
 *   node dist/examples/conversation/refund-agent.js            JSON lines on stdin/stdout
 *   node dist/examples/conversation/refund-agent.js --serve 8787   HTTP: POST http://127.0.0.1:8787/turn
 *
 * It keeps one message history per conversation; its model requests go to the base URL calltape
 * names (OPENAI_BASE_URL, or `base_urls.openai` over HTTP), so they land in the case's session.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import OpenAI from 'openai';

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;

const system =
  'You handle refunds. Ask for the order number if you do not have it, look the order up with ' +
  'get_order, tell the user what you found and ask them to confirm. Call issue_refund only after ' +
  'the user has confirmed.';

const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_order',
      description: 'Look an order up by its number',
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'string' } },
        required: ['order_id'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'issue_refund',
      description: 'Refund an order in full',
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'string' }, reason: { type: 'string' } },
        required: ['order_id'],
      },
    },
  },
];

/** The real tools (canned here). Under calltape the suite's mocks answer them inside the proxy. */
function runTool(name: string, args: { order_id?: string }): unknown {
  if (name === 'get_order') return { order_id: args.order_id, item: 'kettle', total: 42 };
  if (name === 'issue_refund') return { refund_id: 'R-1', order_id: args.order_id };
  return { error: `no tool ${name}` };
}

/** One user turn: the model (and the tools it calls) until it answers with text. */
async function answer(client: OpenAI, history: Message[], text: string): Promise<string | null> {
  history.push({ role: 'user', content: text });
  for (let step = 0; step < 8; step++) {
    const completion = await client.chat.completions.create({
      model: process.env['CALLTAPE_MODEL'] ?? 'gpt-4o-mini',
      messages: history,
      tools,
    });
    const message = completion.choices[0]?.message;
    if (!message) return null;
    history.push(message);
    if (!message.tool_calls?.length) return message.content;
    for (const call of message.tool_calls)
      if (call.type === 'function')
        history.push({
          role: 'tool',
          tool_call_id: call.id,
          content: JSON.stringify(
            runTool(
              call.function.name,
              JSON.parse(call.function.arguments) as { order_id?: string },
            ),
          ),
        });
  }
  return null;
}

/** The process protocol: a start line, then one reply line per user line; exit when stdin ends. */
async function converseOnStdio(): Promise<void> {
  const client = new OpenAI({ maxRetries: 0 });
  const history: Message[] = [{ role: 'system', content: system }];
  const write = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    const message = JSON.parse(line) as {
      type: string;
      protocol?: number;
      turn?: number;
      text?: string;
    };
    if (message.type === 'start' && message.protocol !== 1)
      return write({ type: 'end', reason: `protocol ${message.protocol} is not supported` });
    if (message.type === 'user')
      write({
        type: 'reply',
        turn: message.turn,
        text: await answer(client, history, message.text ?? ''),
      });
  }
}

/** The HTTP protocol: POST /turn with {session, turn, text, base_urls}; turn 1 starts a new history. */
function serve(port: number): void {
  const conversations = new Map<string, { client: OpenAI; history: Message[] }>();
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      void (async () => {
        const turn = JSON.parse(body) as {
          session: string;
          turn: number;
          text: string;
          base_urls: { openai: string };
        };
        let conversation = conversations.get(turn.session);
        if (turn.turn === 1 || !conversation) {
          conversation = {
            client: new OpenAI({ baseURL: turn.base_urls.openai, maxRetries: 0 }),
            history: [{ role: 'system', content: system }],
          };
          conversations.set(turn.session, conversation);
        }
        const text = await answer(conversation.client, conversation.history, turn.text);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ text }));
      })().catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      });
    });
  });
  server.listen(port, '127.0.0.1', () => {
    const address = server.address() as AddressInfo;
    process.stdout.write(`listening on http://127.0.0.1:${address.port}/turn\n`);
  });
}

if (process.argv[1]?.endsWith('refund-agent.js')) {
  const at = process.argv.indexOf('--serve');
  if (at === -1) await converseOnStdio();
  else serve(Number(process.argv[at + 1] ?? 8787));
}
