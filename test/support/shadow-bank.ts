import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import WebSocket from 'ws';
import {
  chatCompletion,
  chatCompletionChunks,
  encodeSse,
  type ScriptedTurn,
} from './openai-chat-chunks.js';
import { seededRandom } from './random.js';
import type { ReceivedRequest, ScriptedResponse } from './scripted-upstream.js';

/** The tools the bank agent offers the model. */
export const bankTools: OpenAI.Chat.Completions.ChatCompletionFunctionTool[] = [
  {
    type: 'function',
    function: {
      name: 'transfer_money',
      description: 'Move money to another account.',
      parameters: {
        type: 'object',
        properties: {
          amount: { type: 'number' },
          currency: { type: 'string' },
          to: { type: 'string' },
        },
        required: ['amount', 'currency', 'to'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_balance',
      description: 'The balance of the account.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'delete_account',
      description: 'Close the account for good.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    },
  },
];

/**
 * A scripted bank model: what it calls depends on the user's words, so each request makes the
 * call a test needs. `loop` keeps asking for the balance whatever the results say.
 */
export function bankModel(request: ReceivedRequest, callNumber: number): ScriptedResponse {
  const body = JSON.parse(request.body) as {
    stream?: boolean;
    messages: { role: string; content: string | null }[];
  };
  const user = body.messages.find((message) => message.role === 'user')?.content ?? '';
  const results = body.messages.filter((message) => message.role === 'tool').length;
  const call = (name: string, args: string): ScriptedTurn => ({
    toolCalls: [{ id: `call_${callNumber}`, name, arguments: args }],
  });
  const turn: ScriptedTurn =
    results > 0 && !user.includes('loop')
      ? { text: 'Done.' }
      : user.includes('transfer big')
        ? call('transfer_money', '{"amount":25000,"currency":"USD","to":"ACCT-12345"}')
        : user.includes('transfer yen')
          ? call('transfer_money', '{"amount":50,"currency":"JPY","to":"ACCT-12345"}')
          : user.includes('bad schema')
            ? call('transfer_money', '{"amount":"lots","currency":"USD","to":"ACCT-12345"}')
            : user.includes('delete')
              ? call('delete_account', '{}')
              : user.includes('transfer')
                ? call('transfer_money', '{"amount":120,"currency":"EUR","to":"ACCT-12345"}')
                : call('get_balance', '{}');
  return body.stream
    ? {
        kind: 'sse',
        body: encodeSse(
          chatCompletionChunks(turn, seededRandom(callNumber + 1), { includeUsage: true }),
        ),
        split: { seed: callNumber, maxPiece: 17 },
      }
    : { kind: 'json', body: chatCompletion(turn) };
}

/** The bank's policies, `extra` appended; a session ends after `idleTimeout` without a request. */
export const bankPolicies = (extra = '', idleTimeout = '150ms'): string => `
sessions:
  idle_timeout: ${idleTimeout}
policies:
  - id: valid-arguments
    kind: schema
  - id: transfer-limits
    kind: arguments
    tool: transfer_money
    arguments:
      amount: { min: 0.01, max: 10000 }
      currency: { any_of: [USD, EUR, GBP] }
  - id: no-account-deletion
    kind: never
    tools: [delete_account]
  - id: no-loops
    kind: steps
    max_repeats: 2
${extra}`;

export function writePolicies(folder: string, text: string, name = 'policies.yaml'): string {
  const file = join(folder, name);
  writeFileSync(file, text);
  return file;
}

/** One agent request: the user's words, in a session of its own unless given. */
export async function ask(
  client: OpenAI,
  words: string,
  options: { session?: string; stream?: boolean } = {},
): Promise<void> {
  const headers = options.session ? { 'x-calltape-session': options.session } : undefined;
  const params = {
    model: 'gpt-test',
    messages: [{ role: 'user' as const, content: words }],
    tools: bankTools,
  };
  if (options.stream) {
    const stream = await client.chat.completions.create({ ...params, stream: true }, { headers });
    for await (const _chunk of stream);
  } else {
    await client.chat.completions.create(params, { headers });
  }
}

/** An agent stuck in a loop: asks for the balance, gets it, and asks again, `rounds` times in one session. */
export async function loopingAgent(client: OpenAI, session: string, rounds: number): Promise<void> {
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
    { role: 'user', content: 'balance loop please' },
  ];
  for (let round = 0; round < rounds; round++) {
    const completion = await client.chat.completions.create(
      { model: 'gpt-test', messages, tools: bankTools },
      { headers: { 'x-calltape-session': session } },
    );
    const message = completion.choices[0]?.message;
    if (!message?.tool_calls) return;
    messages.push(message);
    for (const call of message.tool_calls)
      messages.push({ role: 'tool', tool_call_id: call.id, content: '{"balance":100}' });
  }
}

export interface FeedClient {
  readonly events: Record<string, unknown>[];
  waitFor(
    predicate: (event: Record<string, unknown>) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  close(): void;
}

/** A feed subscriber collecting every event. */
export async function openFeed(
  url: string,
  headers: Record<string, string> = {},
): Promise<FeedClient> {
  const socket = new WebSocket(url, { headers });
  const events: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data: Buffer) => {
    events.push(JSON.parse(data.toString('utf8')) as Record<string, unknown>);
    for (const wake of waiters.splice(0)) wake();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`feed answered ${response.statusCode}`)),
    );
  });
  return {
    events,
    async waitFor(predicate, what, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(predicate);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(
            `no feed event: ${what} (got ${events.map((event) => String(event['type'])).join(', ')})`,
          );
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => socket.close(),
  };
}

/** The value of one series in a Prometheus text exposition (0 when absent). */
export function metricValue(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number {
  const wanted = Object.entries(labels);
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = new Map(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [
        pair[1],
        pair[2],
      ]),
    );
    if (
      wanted.every(([key, value]) => present.get(key) === value) &&
      (wanted.length > 0 || present.size === 0)
    )
      return Number(match[3]);
  }
  return 0;
}

/** Polls until `check` passes or the time is up (then throws its last error). */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
