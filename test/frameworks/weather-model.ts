import type { JsonValue } from '../../src/trace/trace.js';
import { anthropicEvents, anthropicMessage } from '../support/anthropic-messages-events.js';
import { geminiArray, geminiChunks, geminiResponse, geminiSse } from '../support/gemini-chunks.js';
import { chatCompletion, chatCompletionChunks, encodeSse } from '../support/openai-chat-chunks.js';
import { responsesEvents, responsesObject } from '../support/openai-responses-events.js';
import { seededRandom } from '../support/random.js';
import type { ReceivedRequest, ScriptedResponse } from '../support/scripted-upstream.js';

/** What the weather model read from a request, whatever its wire. */
export interface Conversation {
  readonly wire: 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini';
  readonly system: string;
  readonly lastUser: string;
  /** Tool results after the model's last turn, in order. */
  readonly trailingResults: readonly string[];
  /** Every tool result in the conversation, in order (the hidden rounds calltape spliced back in included). */
  readonly results: readonly string[];
  readonly stream: boolean;
}

interface Call {
  readonly id: string;
  readonly city: string;
}

/**
 * A scripted weather assistant that speaks all four wires, so every framework meets the same
 * model: it calls `get_weather` once per city the user names ("Paris", "Paris and Tokyo" for a
 * parallel turn), then reports the tool results verbatim; otherwise it echoes the user. Call ids
 * are fixed per city; each answer has its own message id, as real providers give (LangGraph's
 * message reducer merges messages that share an id).
 */
export function weatherModel(request: ReceivedRequest, callNumber: number): ScriptedResponse {
  const conversation = readConversation(request);
  if (!conversation)
    return {
      kind: 'json',
      status: 404,
      body: {
        error: {
          message: `weather model: no route ${request.method} ${request.url}`,
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      },
    };
  const { text, calls } = decide(conversation);
  const random = seededRandom(callNumber + 1);
  switch (conversation.wire) {
    case 'openai-chat': {
      const turn = {
        id: `chatcmpl-weather-${callNumber}`,
        ...(text ? { text } : {}),
        toolCalls: calls.map((call) => ({
          id: call.id,
          name: 'get_weather',
          arguments: JSON.stringify({ city: call.city }),
        })),
      };
      return conversation.stream
        ? {
            kind: 'sse',
            body: encodeSse(chatCompletionChunks(turn, random, { includeUsage: true })),
          }
        : { kind: 'json', body: chatCompletion(turn) };
    }
    case 'openai-responses': {
      const turn = {
        id: `resp_weather_${callNumber}`,
        ...(text ? { text } : {}),
        calls: calls.map((call) => ({
          callId: call.id,
          name: 'get_weather',
          arguments: JSON.stringify({ city: call.city }),
        })),
      };
      return conversation.stream
        ? { kind: 'sse', body: responsesEvents(turn, random) }
        : { kind: 'json', body: responsesObject(turn) };
    }
    case 'gemini':
      return geminiWeather(request, text, calls, random);
    case 'anthropic-messages': {
      const turn = {
        id: `msg_weather_${callNumber}`,
        ...(text ? { text } : {}),
        toolUses: calls.map((call) => ({
          id: `toolu_${call.id}`,
          name: 'get_weather',
          input: JSON.stringify({ city: call.city }),
        })),
      };
      return conversation.stream
        ? { kind: 'sse', body: anthropicEvents(turn, random) }
        : { kind: 'json', body: anthropicMessage(turn) };
    }
  }
}

/**
 * Gemini answers as Gemini 3 does: no call ids, the first call of a turn signed with a
 * `thoughtSignature`, and a conversation whose earlier calls lost their signature refused with
 * 400 INVALID_ARGUMENT — so every client, and calltape's spliced hidden rounds, must send each
 * signature back unchanged. The answer's form is the path's: events with `?alt=sse`, else the
 * JSON array, or one object for `:generateContent`.
 */
function geminiWeather(
  request: ReceivedRequest,
  text: string,
  calls: readonly Call[],
  random: ReturnType<typeof seededRandom>,
): ScriptedResponse {
  const unsigned = unsignedTurn(JSON.parse(request.body || '{}') as Record<string, JsonValue>);
  if (unsigned !== undefined)
    return {
      kind: 'json',
      status: 400,
      body: {
        error: {
          code: 400,
          message: `Function call is missing a thought_signature in functionCall parts (contents[${unsigned}]).`,
          status: 'INVALID_ARGUMENT',
        },
      },
    };
  const turn = {
    ...(text ? { text } : {}),
    calls: calls.map((call, index) => ({
      name: 'get_weather',
      args: JSON.stringify({ city: call.city }),
      ...(index === 0
        ? { thoughtSignature: weatherSignature(calls.map((each) => each.city)) }
        : {}),
    })),
    modelVersion: 'gemini-3-flash-preview',
  };
  const url = new URL(request.url, 'http://upstream');
  if (!url.pathname.endsWith(':streamGenerateContent'))
    return { kind: 'json', body: geminiResponse(turn) };
  const chunks = geminiChunks(turn, random);
  // Written in pieces of up to 48 bytes, so the client and calltape both read a stream cut anywhere.
  const split = { seed: 7, maxPiece: 48 };
  return url.searchParams.get('alt') === 'sse'
    ? { kind: 'sse', body: geminiSse(chunks), split }
    : {
        kind: 'sse',
        headers: { 'content-type': 'application/json; charset=UTF-8' },
        body: geminiArray(chunks),
        split,
      };
}

/** The signature the weather model gives a turn calling for `cities` (base64, as Gemini's are). */
export function weatherSignature(cities: readonly string[]): string {
  return Buffer.from(`weather-turn:${cities.join(',')}`).toString('base64');
}

/** The index of the first model content whose first function call lacks the signature its turn was given. */
function unsignedTurn(body: Record<string, JsonValue>): number | undefined {
  const contents = asList(body['contents']);
  const index = contents.findIndex((content) => {
    if (field(content, 'role') !== 'model') return false;
    const callParts = asList(field(content, 'parts')).filter(
      (part) => field(part, 'functionCall') !== null,
    );
    if (callParts.length === 0) return false;
    const cities = callParts.map((part) =>
      field(field(field(part, 'functionCall'), 'args'), 'city'),
    );
    return field(callParts[0] ?? null, 'thoughtSignature') !== weatherSignature(cities.map(String));
  });
  return index === -1 ? undefined : index;
}

function decide(conversation: Conversation): { text: string; calls: readonly Call[] } {
  if (conversation.trailingResults.length > 0)
    return { text: `Forecast: ${conversation.trailingResults.join(' | ')}`, calls: [] };
  const cities = ['Paris', 'Tokyo'].filter((city) => conversation.lastUser.includes(city));
  if (cities.length > 0)
    return { text: '', calls: cities.map((city) => ({ id: `call_${city.toLowerCase()}`, city })) };
  return { text: `You said: ${conversation.lastUser}`, calls: [] };
}

/** Reads the conversation out of a request on any of the three wires (undefined for other routes). */
export function readConversation(request: ReceivedRequest): Conversation | undefined {
  const path = new URL(request.url, 'http://upstream').pathname;
  const body = JSON.parse(request.body || '{}') as Record<string, JsonValue>;
  const stream = body['stream'] === true;
  if (path.endsWith('/chat/completions'))
    return { wire: 'openai-chat', stream, ...readChat(asList(body['messages'])) };
  if (path.endsWith('/responses'))
    return { wire: 'openai-responses', stream, ...readResponses(body) };
  if (path.endsWith('/messages'))
    return { wire: 'anthropic-messages', stream, ...readAnthropic(body) };
  if (/:(generateContent|streamGenerateContent)$/.test(path))
    return { wire: 'gemini', stream: path.endsWith(':streamGenerateContent'), ...readGemini(body) };
  return undefined;
}

type Read = Pick<Conversation, 'system' | 'lastUser' | 'trailingResults' | 'results'>;

function readChat(messages: readonly JsonValue[]): Read {
  const system = messages
    .filter(
      (message) => field(message, 'role') === 'system' || field(message, 'role') === 'developer',
    )
    .map((message) => textOf(field(message, 'content')))
    .join('\n');
  const lastUser = textOf(
    field(
      [...messages].reverse().find((message) => field(message, 'role') === 'user') ?? null,
      'content',
    ),
  );
  const trailingResults: string[] = [];
  for (
    let index = messages.length - 1;
    index >= 0 && field(messages[index] ?? null, 'role') === 'tool';
    index--
  )
    trailingResults.unshift(textOf(field(messages[index] ?? null, 'content')));
  const results = messages
    .filter((message) => field(message, 'role') === 'tool')
    .map((message) => textOf(field(message, 'content')));
  return { system, lastUser, trailingResults, results };
}

function readResponses(body: Record<string, JsonValue>): Read {
  const input = body['input'];
  const system = typeof body['instructions'] === 'string' ? body['instructions'] : '';
  if (typeof input === 'string')
    return { system, lastUser: input, trailingResults: [], results: [] };
  const items = asList(input);
  const users = items.filter((item) => field(item, 'role') === 'user');
  const trailingResults: string[] = [];
  for (let index = items.length - 1; index >= 0; index--) {
    const type = field(items[index] ?? null, 'type');
    if (type === 'function_call_output')
      trailingResults.unshift(textOf(field(items[index] ?? null, 'output')));
    else if (type !== 'function_call') break;
  }
  const inlineSystem = items
    .filter((item) => field(item, 'role') === 'system' || field(item, 'role') === 'developer')
    .map((item) => textOf(field(item, 'content')));
  const results = items
    .filter((item) => field(item, 'type') === 'function_call_output')
    .map((item) => textOf(field(item, 'output')));
  return {
    system: [system, ...inlineSystem].filter(Boolean).join('\n'),
    lastUser: textOf(field(users.at(-1) ?? null, 'content')),
    trailingResults,
    results,
  };
}

function readAnthropic(body: Record<string, JsonValue>): Read {
  const messages = asList(body['messages']);
  const system = textOf(body['system'] ?? null);
  const last = messages.at(-1) ?? null;
  const resultsIn = (message: JsonValue): string[] =>
    field(message, 'role') === 'user'
      ? asList(field(message, 'content'))
          .filter((block) => field(block, 'type') === 'tool_result')
          .map((block) => textOf(field(block, 'content')))
      : [];
  const users = messages.filter(
    (message) => field(message, 'role') === 'user' && resultsIn(message).length === 0,
  );
  return {
    system,
    lastUser: textOf(field(users.at(-1) ?? null, 'content')),
    trailingResults: resultsIn(last),
    results: messages.flatMap(resultsIn),
  };
}

function readGemini(body: Record<string, JsonValue>): Read {
  const contents = asList(body['contents']);
  const responses = (content: JsonValue): string[] =>
    field(content, 'role') === 'model'
      ? []
      : asList(field(content, 'parts'))
          .map((part) => field(part, 'functionResponse'))
          .filter((response) => response !== null)
          .map((response) => resultText(field(response, 'response')));
  const users = contents.filter(
    (content) => field(content, 'role') !== 'model' && responses(content).length === 0,
  );
  return {
    system: textOf(field(body['systemInstruction'] ?? null, 'parts')),
    lastUser: textOf(field(users.at(-1) ?? null, 'parts')),
    // Some clients (LangChain) send each result in a content of its own: every content after the model's last counts.
    trailingResults: contents
      .slice(contents.findLastIndex((content) => field(content, 'role') === 'model') + 1)
      .flatMap(responses),
    results: contents.flatMap(responses),
  };
}

/**
 * A function's result as the clients send it: `{output}` (Gemini's documented key; calltape's
 * mocks), `{name, content}` (the AI SDK), `{result}` or `{content}` (LangChain), else the object.
 */
function resultText(response: JsonValue): string {
  for (const key of ['output', 'content', 'result']) {
    const value = field(response, key);
    if (typeof value === 'string') return value;
  }
  return JSON.stringify(response);
}

function field(value: JsonValue, name: string): JsonValue {
  return value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.hasOwn(value, name)
    ? (value[name] ?? null)
    : null;
}

function asList(value: JsonValue | undefined): readonly JsonValue[] {
  return Array.isArray(value) ? value : [];
}

/** The text of a content value: a string, or the text parts of a list of content blocks. */
function textOf(content: JsonValue): string {
  if (typeof content === 'string') return content;
  return asList(content)
    .map((part) => (typeof part === 'string' ? part : field(part, 'text')))
    .filter((text): text is string => typeof text === 'string')
    .join('');
}
