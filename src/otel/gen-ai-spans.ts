/**
 * The OpenTelemetry GenAI semantic conventions, as calltape maps its trace onto them: which span
 * a round trip, a tool call and a session become, and which `gen_ai.*` attributes each carries.
 * Pure: plain data in, plain span plans out; the SDK is driven elsewhere (`session-spans.ts`).
 *
 * Convention followed: open-telemetry/semantic-conventions-genai `docs/gen-ai/gen-ai-spans.md`,
 * `gen-ai-agent-spans.md` and `gen-ai-events.md` (status Development, the registry that references
 * semantic conventions v1.41.1). docs/opentelemetry.md lists every attribute emitted.
 */
import type {
  AssistantOutput,
  Interaction,
  Message,
  ProviderId,
  ToolCall,
  ToolDefinition,
} from '../trace/trace.js';

/** An attribute value as OTLP carries it (structured values go as JSON strings on spans). */
export type AttributeValue = string | number | boolean | string[];

/** Attributes by key; built from fixed keys only. */
export type SpanAttributes = Readonly<Record<string, AttributeValue>>;

/** One span to write: what the SDK needs, nothing more. */
export interface SpanPlan {
  readonly name: string;
  readonly kind: 'client' | 'internal';
  /** Epoch milliseconds. */
  readonly startMs: number;
  readonly endMs: number;
  readonly attributes: SpanAttributes;
  /** The span ended in an error: its status message (the status is then ERROR). */
  readonly error?: string;
}

/** What the user opted in to: instructions, messages, tool arguments, results and definitions. */
export interface ContentCapture {
  /** The convention's opt-in content attributes (off by default: they may hold user data). */
  readonly content: boolean;
}

/** One evaluation calltape computed (a shadow verdict, a test result, a check, a judge), as a `gen_ai.evaluation.result` event. */
export interface Evaluation {
  /** `gen_ai.evaluation.name`: the policy, check or judge. */
  readonly name: string;
  readonly score?: number;
  /** Low cardinality: `pass`, `fail`, `error`. */
  readonly label?: string;
  readonly explanation?: string;
  /** The completion evaluated, to correlate with its chat span. */
  readonly responseId?: string;
  /** The evaluator could not decide (a judge that did not answer): `error.type`. */
  readonly errorType?: string;
  /** calltape's own correlation attributes (`calltape.*`). */
  readonly extra?: SpanAttributes;
}

/** The name of a GenAI event recording an evaluation. */
export const evaluationEventName = 'gen_ai.evaluation.result';

/**
 * `gen_ai.provider.name` of a wire format: the convention's well-known values. Gemini's wire is
 * spoken by two services, told apart by the path: Vertex AI's names a publisher's model.
 */
export function providerName(
  wire: ProviderId,
  path = '',
): 'openai' | 'anthropic' | 'ollama' | 'gcp.gemini' | 'gcp.vertex_ai' {
  if (wire === 'ollama-chat') return 'ollama';
  if (wire === 'gemini')
    return path.includes('/publishers/google/models/') ? 'gcp.vertex_ai' : 'gcp.gemini';
  return wire === 'anthropic-messages' ? 'anthropic' : 'openai';
}

/** The `chat {model}` CLIENT span of one round trip. */
export function chatSpan(interaction: Interaction, capture: ContentCapture): SpanPlan {
  const { request, response, timing } = interaction;
  const model = request.model ?? response?.model;
  const attributes: Record<string, AttributeValue> = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': providerName(interaction.provider, interaction.path),
    'calltape.interaction.id': interaction.id,
    'calltape.wire': interaction.provider,
    'http.response.status_code': interaction.httpStatus,
  };
  if (request.model !== undefined) attributes['gen_ai.request.model'] = request.model;
  // The session id defaults to the round's own id: only an id the agent gave names a conversation.
  if (interaction.sessionId !== interaction.id)
    attributes['gen_ai.conversation.id'] = interaction.sessionId;
  if (request.stream) {
    attributes['gen_ai.request.stream'] = true;
    if (timing.firstByteMs !== undefined)
      attributes['gen_ai.response.time_to_first_chunk'] = timing.firstByteMs / 1000;
  }
  if (interaction.hidden === true) attributes['calltape.hidden'] = true;
  if (response) {
    if (response.id !== undefined) attributes['gen_ai.response.id'] = response.id;
    if (response.model !== undefined) attributes['gen_ai.response.model'] = response.model;
    const outputs = [response.output, ...response.alternatives];
    attributes['gen_ai.response.finish_reasons'] = outputs.map(
      (output) => output.finishReason.raw ?? output.finishReason.unified,
    );
    const usage = response.usage;
    if (usage?.inputTokens !== undefined)
      attributes['gen_ai.usage.input_tokens'] = usage.inputTokens;
    if (usage?.outputTokens !== undefined)
      attributes['gen_ai.usage.output_tokens'] = usage.outputTokens;
    if (usage?.cachedInputTokens !== undefined)
      attributes['gen_ai.usage.cache_read.input_tokens'] = usage.cachedInputTokens;
    if (usage?.reasoningTokens !== undefined)
      attributes['gen_ai.usage.reasoning.output_tokens'] = usage.reasoningTokens;
    if (capture.content)
      attributes['gen_ai.output.messages'] = JSON.stringify(outputs.map(outputMessage));
  }
  if (capture.content) {
    const separate = interaction.provider === 'anthropic-messages';
    const instructions = request.messages.filter((message) => separate && isInstruction(message));
    if (instructions.length > 0)
      attributes['gen_ai.system_instructions'] = JSON.stringify(
        instructions.map((message) => ({ type: 'text', content: message.text })),
      );
    attributes['gen_ai.input.messages'] = JSON.stringify(
      request.messages.filter((message) => !(separate && isInstruction(message))).map(inputMessage),
    );
    if (request.tools.length > 0)
      attributes['gen_ai.tool.definitions'] = JSON.stringify(request.tools.map(toolDefinition));
  }
  const error =
    interaction.status === 'complete' ? undefined : (interaction.error ?? interaction.status);
  if (error !== undefined) attributes['error.type'] = errorType(interaction);
  return {
    name: model === undefined ? 'chat' : `chat ${model}`,
    kind: 'client',
    startMs: timing.startedAt,
    endMs: timing.startedAt + timing.totalMs,
    attributes,
    ...(error === undefined ? {} : { error }),
  };
}

/** What the agent's tool answered a call with, as seen on its next request (or the mock's answer). */
export interface ToolOutcome {
  readonly content: string;
  readonly isError: boolean;
}

/**
 * The `execute_tool {name}` INTERNAL span of one call: from the end of the round that asked for
 * it to the start of the round that brought its result back (the agent ran the tool in between).
 */
export function toolSpan(
  call: ToolCall,
  context: {
    readonly startMs: number;
    readonly endMs: number;
    readonly definition: ToolDefinition | undefined;
    readonly mocked: boolean;
    readonly outcome: ToolOutcome | undefined;
  },
  capture: ContentCapture,
): SpanPlan {
  const attributes: Record<string, AttributeValue> = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': call.name,
    'gen_ai.tool.type': 'function',
  };
  if (call.id !== undefined) attributes['gen_ai.tool.call.id'] = call.id;
  if (context.definition?.description !== undefined)
    attributes['gen_ai.tool.description'] = context.definition.description;
  if (context.mocked) attributes['calltape.tool.mocked'] = true;
  if (!context.outcome) attributes['calltape.tool.result_seen'] = false;
  if (capture.content) {
    attributes['gen_ai.tool.call.arguments'] = call.argumentsRaw;
    if (context.outcome && !context.outcome.isError)
      attributes['gen_ai.tool.call.result'] = context.outcome.content;
  }
  const failed = context.outcome?.isError === true;
  if (failed) attributes['error.type'] = 'tool_error';
  return {
    name: `execute_tool ${call.name}`,
    kind: 'internal',
    startMs: context.startMs,
    endMs: Math.max(context.startMs, context.endMs),
    attributes,
    ...(failed ? { error: 'the tool reported an error' } : {}),
  };
}

/** Attributes of the `invoke_agent` span a session (an agent run) becomes. */
export function agentAttributes(
  sessionId: string,
  wire: ProviderId,
  extra: SpanAttributes = {},
  path?: string,
): SpanAttributes {
  return {
    ...extra,
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.provider.name': providerName(wire, path),
    'gen_ai.conversation.id': sessionId,
    'calltape.session.id': sessionId,
  };
}

/** The span name of a session: `invoke_agent {gen_ai.agent.name}`, or `invoke_agent` without a name. */
export function agentSpanName(agentName: string | undefined): string {
  return agentName === undefined ? 'invoke_agent' : `invoke_agent ${agentName}`;
}

/** The attributes of a `gen_ai.evaluation.result` event. */
export function evaluationAttributes(evaluation: Evaluation): SpanAttributes {
  const attributes: Record<string, AttributeValue> = {
    ...evaluation.extra,
    'gen_ai.evaluation.name': evaluation.name,
  };
  if (evaluation.score !== undefined && Number.isFinite(evaluation.score))
    attributes['gen_ai.evaluation.score.value'] = evaluation.score;
  if (evaluation.label !== undefined)
    attributes['gen_ai.evaluation.score.label'] = evaluation.label;
  if (evaluation.explanation !== undefined && evaluation.explanation !== '')
    attributes['gen_ai.evaluation.explanation'] = evaluation.explanation;
  if (evaluation.responseId !== undefined) attributes['gen_ai.response.id'] = evaluation.responseId;
  if (evaluation.errorType !== undefined) attributes['error.type'] = evaluation.errorType;
  return attributes;
}

function errorType(interaction: Interaction): string {
  if (interaction.httpStatus >= 400) return String(interaction.httpStatus);
  return interaction.status;
}

function isInstruction(message: Message): boolean {
  return message.role === 'system' || message.role === 'developer';
}

type Part =
  | { readonly type: 'text'; readonly content: string }
  | {
      readonly type: 'tool_call';
      readonly id: string | null;
      readonly name: string;
      readonly arguments: unknown;
    }
  | { readonly type: 'tool_call_response'; readonly id: string | null; readonly result: string };

function inputMessage(message: Message): {
  readonly role: string;
  readonly parts: readonly Part[];
} {
  const role = message.role === 'developer' ? 'system' : message.role;
  if (message.role === 'tool')
    return {
      role,
      parts: [{ type: 'tool_call_response', id: message.toolCallId ?? null, result: message.text }],
    };
  return {
    role,
    parts: [
      ...(message.text === '' ? [] : [{ type: 'text' as const, content: message.text }]),
      ...message.toolCalls.map(callPart),
    ],
  };
}

function outputMessage(output: AssistantOutput): {
  readonly role: 'assistant';
  readonly parts: readonly Part[];
  readonly finish_reason: string;
} {
  return {
    role: 'assistant',
    parts: [
      ...(output.text === '' ? [] : [{ type: 'text' as const, content: output.text }]),
      ...output.toolCalls.map(callPart),
    ],
    finish_reason: output.finishReason.raw ?? output.finishReason.unified,
  };
}

function callPart(call: ToolCall): Part {
  // The convention expects arguments as an object; malformed JSON stays the model's string.
  return {
    type: 'tool_call',
    id: call.id ?? null,
    name: call.name,
    arguments: call.arguments.ok ? call.arguments.value : call.argumentsRaw,
  };
}

function toolDefinition(tool: ToolDefinition): {
  readonly type: 'function';
  readonly name: string;
  readonly description?: string;
  readonly parameters: unknown;
} {
  return {
    type: 'function',
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    parameters: tool.parameters,
  };
}
