import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiAdapter } from './gemini-adapter.js';

const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '__fixtures__', name), 'utf8');
const parse = (body: string, contentType: string) =>
  geminiAdapter.parseResponse({
    httpStatus: 200,
    contentType,
    body: [new TextEncoder().encode(body)],
    ending: 'finished',
  });
const asArrayStream = (lines: string): string =>
  `[${lines.split('\n').filter(Boolean).join('\n,\r\n')}]`;

describe('parseGeminiResponse over recorded answers', () => {
  it('gives a call answered whole the same id as the same call streamed (ids made from name and arguments)', () => {
    const whole = parse(fixture('ai-sdk-google-tool-call.json'), 'application/json');
    const streamed = parse(
      asArrayStream(fixture('ai-sdk-google-tool-call.chunks.txt')),
      'application/json',
    );
    expect(whole.status).toBe('complete');
    expect(whole.response?.output.toolCalls).toEqual(streamed.response?.output.toolCalls);
    expect(whole.response?.usage).toEqual({
      inputTokens: 29,
      outputTokens: 15 + 893,
      totalTokens: 937,
      cachedInputTokens: undefined,
      reasoningTokens: 893,
    });
  });

  it('assembles deeply nested arguments streamed as partialArgs (Vertex, streamFunctionCallArguments)', () => {
    const result = parse(
      asArrayStream(fixture('ai-sdk-google-vertex-stream-tool-call-arguments-nested.1.chunks.txt')),
      'application/json',
    );
    const [call] = result.response?.output.toolCalls ?? [];
    expect(result.status).toBe('complete');
    expect(call?.name).toBe('cookRecipe');
    const recipe = (call?.arguments.ok ? call.arguments.value : {}) as {
      recipe: { name: string; ingredients: { amount: string; name: string }[]; steps: string[] };
    };
    expect(recipe.recipe.name).toBe('Lasagna');
    expect(recipe.recipe.ingredients).toHaveLength(10);
    expect(recipe.recipe.ingredients[9]).toEqual({ amount: '1/2 tsp', name: 'Pepper' });
    expect(recipe.recipe.steps[1]).toBe(
      'Cook lasagna noodles according to package directions, drain and set aside.',
    );
    expect(recipe.recipe.steps[4]).toBe(
      'In a 9x13 baking dish, spread a thin layer of meat sauce.',
    );
  });

  it('marks a call whose streamed arguments never ended as incomplete, kept as far as it came', () => {
    const lines = fixture('ai-sdk-google-stream-tool-call-arguments.chunks.txt')
      .split('\n')
      .filter(Boolean);
    const sse = lines
      .slice(0, 2)
      .map((line) => `data: ${line}\r\n\r\n`)
      .join('');
    const cut = parse(sse, 'text/event-stream');
    expect(cut.status).toBe('truncated');
    expect(
      cut.response?.output.toolCalls.map((call) => [call.name, call.argumentsRaw, call.complete]),
    ).toEqual([['getWeather', '{"location":"Boston"}', false]]);
    // An unfinished call cannot become a whole answer without inventing its end.
    expect(geminiAdapter.convertBody(sse, { stream: false, includeUsage: false })).toBeUndefined();
  });
});
