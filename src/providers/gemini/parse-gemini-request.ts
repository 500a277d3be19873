import type {
  JsonValue,
  Message,
  RequestSummary,
  ToolChoice,
  ToolDefinition,
} from '../../trace/trace.js';
import { asArray, asObject, asString, type JsonObject } from '../json-access.js';
import { geminiSchemaToJsonSchema } from './gemini-schema-to-json-schema.js';
import { geminiCalls, geminiText } from './gemini-parts.js';

/**
 * Summarises a `generateContent` / `streamGenerateContent` request body. The model and the
 * streaming form are in the request's path, not its body: `model` is read from the body only
 * when a client put it there.
 */
export function parseGeminiRequest(body: JsonValue): RequestSummary {
  const request = asObject(body) ?? {};
  return {
    model: asString(request['model']),
    stream: false,
    messages: [...systemMessages(request), ...readContents(request['contents']).flat()],
    tools: asArray(request['tools']).flatMap((tool) =>
      // Built-in tools (googleSearch, codeExecution, urlContext) are not functions the agent runs.
      asArray(asObject(tool)?.['functionDeclarations']).flatMap((declaration): ToolDefinition[] => {
        const object = asObject(declaration);
        const name = asString(object?.['name']);
        if (!object || name === undefined) return [];
        const jsonSchema = asObject(object['parametersJsonSchema']);
        return [
          {
            name,
            description: asString(object['description']),
            parameters: jsonSchema ?? geminiSchemaToJsonSchema(object['parameters']),
            strict: undefined,
          },
        ];
      }),
    ),
    toolChoice: parseToolChoice(
      asObject(asObject(request['toolConfig'])?.['functionCallingConfig']),
    ),
  };
}

/** `systemInstruction` as the trace's leading system message (none when absent). */
export function systemMessages(request: JsonObject): Message[] {
  const instruction = request['systemInstruction'];
  if (instruction === undefined || instruction === null) return [];
  const text =
    typeof instruction === 'string'
      ? instruction
      : partsText(asArray(asObject(instruction)?.['parts']).map((part) => asObject(part) ?? {}));
  return [message('system', text)];
}

/**
 * The messages of each content, in order: a `model` content is one assistant message (its
 * visible text and function calls); a `user` content's `functionResponse` parts are one tool
 * message each, its other parts one user message after them. A response without an `id` answers
 * the first call of the same name not yet answered in the model content before it.
 */
export function readContents(contents: JsonValue | readonly JsonValue[] | undefined): Message[][] {
  let pending: { id: string; name: string }[] = [];
  return (Array.isArray(contents) ? contents : []).map((value) => {
    const content = asObject(value);
    const parts = asArray(content?.['parts']).map((part) => asObject(part) ?? {});
    if (content?.['role'] === 'model') {
      const calls = modelCalls(parts);
      pending = calls.map((call) => ({ id: call.id ?? '', name: call.name }));
      return [{ ...message('assistant', geminiText(parts)), toolCalls: calls }];
    }
    const results = parts.flatMap((part): Message[] => {
      const response = asObject(part['functionResponse']);
      if (!response) return [];
      const name = asString(response['name']) ?? '';
      const given = asString(response['id']);
      const answered = pending.findIndex((call) =>
        given === undefined ? call.name === name : call.id === given,
      );
      const callId = given ?? pending[answered]?.id;
      if (answered >= 0) pending.splice(answered, 1);
      const payload = asObject(response['response']);
      return [
        {
          ...message('tool', resultText(payload)),
          toolCallId: callId,
          isError:
            payload !== undefined &&
            Object.hasOwn(payload, 'error') &&
            !Object.hasOwn(payload, 'output'),
        },
      ];
    });
    const rest = parts.filter((part) => part['functionResponse'] === undefined);
    return [
      ...results,
      ...(rest.length > 0 || results.length === 0 ? [message('user', partsText(rest))] : []),
    ];
  });
}

/** A model content's function calls, with the ids the answer that made them got. */
export function modelCalls(parts: readonly JsonObject[]): Message['toolCalls'] {
  return geminiCalls(parts).map(({ call }) => call);
}

/** A function's result as text: its `output` when that is text, else the whole `response` object. */
function resultText(payload: JsonObject | undefined): string {
  if (!payload) return '';
  const output = payload['output'];
  if (typeof output === 'string' && Object.keys(payload).length === 1) return output;
  return JSON.stringify(payload);
}

function partsText(parts: readonly JsonObject[]): string {
  return parts
    .filter((part) => part['thought'] !== true)
    .map((part) => asString(part['text']))
    .filter((text): text is string => text !== undefined && text.length > 0)
    .join('\n');
}

function message(role: Message['role'], text: string): Message {
  return { role, text, toolCalls: [], toolCallId: undefined, isError: undefined };
}

/**
 * `toolConfig.functionCallingConfig`: `AUTO` and `VALIDATED` let the model choose (VALIDATED only
 * constrains the calls it makes to their schemas), `NONE` forbids calls, `ANY` requires one — of
 * the one function named, when `allowedFunctionNames` names exactly one.
 */
function parseToolChoice(config: JsonObject | undefined): ToolChoice | undefined {
  switch (asString(config?.['mode'])) {
    case 'AUTO':
    case 'VALIDATED':
      return { type: 'auto' };
    case 'NONE':
      return { type: 'none' };
    case 'ANY': {
      const allowed = asArray(config?.['allowedFunctionNames']);
      const only = allowed.length === 1 ? asString(allowed[0]) : undefined;
      return only === undefined ? { type: 'required' } : { type: 'tool', name: only };
    }
    default:
      return undefined;
  }
}
