import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';
import type { JsonValue } from '../../src/trace/trace.js';
import {
  ollamaChatLines,
  ollamaChatResponse,
  type ScriptedOllamaTurn,
} from './ollama-chat-lines.js';
import { seededRandom } from './random.js';
import type { ReceivedRequest, ScriptedResponse } from './scripted-upstream.js';

const fixtures = join(packageRoot, 'src/providers/ollama/__fixtures__');

/** `GET /api/tags` as Ollama's documentation records it. */
export const ollamaTags = JSON.parse(
  readFileSync(join(fixtures, 'ollama-docs-tags.json'), 'utf8'),
) as JsonValue;

/** `POST /api/show` for the model asked about (the shape of Ollama's documented answer, trimmed). */
export function ollamaShow(model: string): JsonValue {
  return {
    modelfile: `FROM ${model}`,
    parameters: 'num_keep 24',
    template: '{{ .Prompt }}',
    details: { parent_model: '', format: 'gguf', family: 'llama', parameter_size: '3.2B' },
    model_info: { 'general.architecture': 'llama' },
    capabilities: ['completion', 'tools'],
  };
}

interface WireMessage {
  role: string;
  content?: string;
  tool_name?: string;
  tool_call_id?: string;
}

/**
 * A scripted Ollama server: lists and shows models, and chats like a small tool-using model —
 * weather in two cities is two parallel calls (with ids when `ids`, none as an Ollama before
 * v0.12.10), a balance is one call, and once tool results are in it reports them back verbatim.
 * Streams (the default) are NDJSON written in random pieces.
 */
export function ollamaModel(options: { readonly ids: boolean }) {
  return (request: ReceivedRequest, callNumber: number): ScriptedResponse => {
    if (request.method === 'GET' && request.url.endsWith('/api/tags'))
      return { kind: 'json', body: ollamaTags };
    const body = JSON.parse(request.body || '{}') as {
      model?: string;
      stream?: boolean;
      messages?: WireMessage[];
    };
    if (request.url.endsWith('/api/generate'))
      return {
        kind: 'json',
        body: {
          model: body.model ?? '',
          created_at: '2026-12-03T15:00:00Z',
          response: 'Hi.',
          done: true,
        },
      };
    if (request.url.endsWith('/api/show'))
      return { kind: 'json', body: ollamaShow(body.model ?? '') };
    const messages = body.messages ?? [];
    const results = messages.filter((message) => message.role === 'tool');
    const text = [...messages].reverse().find((message) => message.role === 'user')?.content ?? '';
    const id = (name: string) => (options.ids ? { id: `call_${name}` } : {});
    let turn: ScriptedOllamaTurn;
    if (results.length > 0)
      turn = {
        text: `Results: ${results.map((result) => `${result.tool_name ?? '?'}=${result.content ?? ''}`).join('; ')}`,
      };
    else if (/balance and email/.test(text))
      turn = {
        text: 'Checking both.',
        calls: [
          { ...id('balance'), name: 'get_balance', arguments: '{"account":"savings"}' },
          { ...id('mail'), name: 'send_email', arguments: '{"to":"ann@example.com"}' },
        ],
      };
    else if (/balance/.test(text))
      turn = {
        calls: [{ ...id('balance'), name: 'get_balance', arguments: '{"account":"savings"}' }],
      };
    else if (/weather/i.test(text))
      turn = {
        calls: [
          { ...id('paris'), name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
          { ...id('tokyo'), name: 'get_weather', arguments: '{"city":"Tokyo","unit":"celsius"}' },
        ],
      };
    else turn = { text: `You said: ${text}` };
    if (body.stream === false) return { kind: 'json', body: ollamaChatResponse(turn) };
    return {
      kind: 'sse',
      body: ollamaChatLines(turn, seededRandom(callNumber + 11)),
      split: { seed: callNumber, maxPiece: 13 },
      headers: { 'content-type': 'application/x-ndjson' },
    };
  };
}
