import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { geminiSchemaToJsonSchema } from './gemini-schema-to-json-schema.js';
import { parseGeminiRequest } from './parse-gemini-request.js';

describe('parseGeminiRequest', () => {
  it('reads the system instruction, the contents by role and the thought parts as hidden', () => {
    const summary = parseGeminiRequest({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Use tools.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
        {
          role: 'model',
          parts: [
            { text: 'thinking…', thought: true, thoughtSignature: 'c2ln' },
            { text: 'Checking.' },
            { functionCall: { id: 'fc-1', name: 'get_weather', args: { city: 'Paris' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'fc-1', name: 'get_weather', response: { output: 'Rain' } } },
            { text: 'And tomorrow?' },
          ],
        },
      ],
    });
    expect(
      summary.messages.map((message) => [message.role, message.text, message.toolCallId]),
    ).toEqual([
      ['system', 'Be brief.\nUse tools.', undefined],
      ['user', 'Weather in Paris?', undefined],
      ['assistant', 'Checking.', undefined],
      ['tool', 'Rain', 'fc-1'],
      ['user', 'And tomorrow?', undefined],
    ]);
    expect(
      summary.messages[2]?.toolCalls.map((call) => [call.id, call.name, call.argumentsRaw]),
    ).toEqual([['fc-1', 'get_weather', '{"city":"Paris"}']]);
  });

  it('reads function declarations (Gemini Schema normalised, or parametersJsonSchema as given), leaving built-in tools out', () => {
    const summary = parseGeminiRequest({
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Weather for a city',
              parameters: {
                type: 'OBJECT',
                properties: { city: { type: 'STRING' }, days: { type: 'INTEGER', nullable: true } },
                required: ['city'],
                propertyOrdering: ['city', 'days'],
              },
            },
            {
              name: 'lookup',
              parametersJsonSchema: { type: 'object', properties: { q: { type: 'string' } } },
            },
          ],
        },
        { googleSearch: {} },
        { codeExecution: {} },
        { urlContext: {} },
      ],
    });
    expect(summary.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Weather for a city',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' }, days: { type: ['integer', 'null'] } },
          required: ['city'],
        },
        strict: undefined,
      },
      {
        name: 'lookup',
        description: undefined,
        parameters: { type: 'object', properties: { q: { type: 'string' } } },
        strict: undefined,
      },
    ]);
  });

  it.each([
    [{ mode: 'AUTO' }, { type: 'auto' }],
    [{ mode: 'VALIDATED' }, { type: 'auto' }],
    [{ mode: 'NONE' }, { type: 'none' }],
    [{ mode: 'ANY' }, { type: 'required' }],
    [{ mode: 'ANY', allowedFunctionNames: ['a', 'b'] }, { type: 'required' }],
    [
      { mode: 'ANY', allowedFunctionNames: ['a'] },
      { type: 'tool', name: 'a' },
    ],
  ])('reads toolConfig %j as %j', (config, choice) => {
    expect(
      parseGeminiRequest({ toolConfig: { functionCallingConfig: config } }).toolChoice,
    ).toEqual(choice);
  });

  it('never throws on shapes it does not expect', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        parseGeminiRequest(body as never);
        parseGeminiRequest({ contents: body, tools: body, systemInstruction: body } as never);
      }),
      { numRuns: 300 },
    );
  });
});

describe('geminiSchemaToJsonSchema', () => {
  it('lower-cases types, folds nullable, reads counts sent as strings, renames example', () => {
    expect(
      geminiSchemaToJsonSchema({
        type: 'ARRAY',
        minItems: '1',
        maxItems: '3',
        items: {
          anyOf: [
            { type: 'STRING', maxLength: '8', example: 'abc' },
            { type: 'NUMBER', format: 'float' },
          ],
        },
      }),
    ).toEqual({
      type: 'array',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { type: 'string', maxLength: 8, examples: ['abc'] },
          { type: 'number', format: 'float' },
        ],
      },
    });
    expect(geminiSchemaToJsonSchema({ type: 'TYPE_UNSPECIFIED', description: 'x' })).toEqual({
      description: 'x',
    });
    expect(geminiSchemaToJsonSchema(undefined)).toEqual({});
  });

  it('leaves no upper-case type name at any depth (property)', () => {
    const type = fc.constantFrom(
      'STRING',
      'NUMBER',
      'INTEGER',
      'BOOLEAN',
      'ARRAY',
      'OBJECT',
      'NULL',
    );
    const schema = fc.letrec((tie) => ({
      node: fc.record(
        {
          type,
          nullable: fc.boolean(),
          properties: fc.dictionary(fc.string({ maxLength: 5 }), tie('node'), { maxKeys: 3 }),
          items: tie('node'),
        },
        { requiredKeys: ['type'] },
      ),
    })).node;
    fc.assert(
      fc.property(schema, (value) => {
        const text = JSON.stringify(geminiSchemaToJsonSchema(value as never));
        expect(text).not.toMatch(/"type":"[A-Z]/);
        expect(text).not.toContain('"nullable"');
      }),
      { numRuns: 100 },
    );
  });
});
