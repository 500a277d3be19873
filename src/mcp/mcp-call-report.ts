import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv/dist/2020.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { Redactor } from '../cassette/redact.js';
import type { AnsweredToolCall } from './mcp-call-results.js';
import type { McpExchange } from './mcp-exchange.js';
import { redactMcpError, redactMcpParams, redactMcpResult } from './redact-mcp.js';

/** A tools/call an MCP relay answered, with its server, as shadow scoring takes it. */
export type ReportedMcpCall = AnsweredToolCall & { readonly server: string };

/** The admin path a `calltape mcp --report-to` relay posts its tools/calls to (`{ "calls": [...] }`). */
export const mcpCallsPath = '/calltape/api/mcp-calls';

/** At most this many calls in one report: the relay sends smaller batches. */
export const maxReportedCalls = 500;

/** What shadow scoring needs of an answered tools/call exchange. */
export function reportedCall(exchange: McpExchange): ReportedMcpCall {
  const { id, sessionId, sessionGiven, startedAt, server, subject, params, result, error } =
    exchange;
  return { id, sessionId, sessionGiven, startedAt, server, subject, params, result, error };
}

const name = { type: 'string', minLength: 1, maxLength: 512 } as const;
const reportSchema = {
  type: 'object',
  required: ['calls'],
  additionalProperties: false,
  properties: {
    calls: {
      type: 'array',
      maxItems: maxReportedCalls,
      items: {
        type: 'object',
        required: ['id', 'sessionId', 'sessionGiven', 'startedAt', 'server'],
        additionalProperties: false,
        properties: {
          id: name,
          sessionId: name,
          sessionGiven: { type: 'boolean' },
          startedAt: { type: 'number', minimum: 0 },
          server: name,
          subject: { type: 'string', maxLength: 4096 },
          params: {},
          result: {},
          error: {
            type: 'object',
            required: ['code', 'message'],
            properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
          },
        },
      },
    },
  },
} as const;

let validate: ReturnType<Ajv2020['compile']> | undefined;
// Every proxy imports this module for its report route; ajv's compiler (some 280 KB of code) is
// loaded at the first report, not at start (issue 37: start-up of replay).
const requireLazily = createRequire(import.meta.url);

/**
 * The calls of a report a relay posted, redacted again with this side's redactor (the relay
 * redacted them with its own configuration, which may ask for less); or what is wrong with it.
 */
export function parseMcpCallReport(
  text: string,
  redactor: Redactor,
): { readonly calls: ReportedMcpCall[] } | { readonly problem: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { problem: 'the body is not JSON' };
  }
  if (!validate) {
    const { Ajv2020: Compiler } = requireLazily('ajv/dist/2020.js') as typeof AjvModule;
    validate = new Compiler({ strict: true }).compile(reportSchema);
  }
  if (!validate(body)) {
    const error = validate.errors?.[0];
    return { problem: `${error?.instancePath || '(body)'} ${error?.message ?? 'is invalid'}` };
  }
  const calls = (body as { calls: ReportedMcpCall[] }).calls.map((call): ReportedMcpCall => ({
    ...call,
    subject: call.subject,
    params: redactMcpParams(call.params, redactor),
    result: redactMcpResult(call.result, redactor),
    error: call.error && redactMcpError(call.error, redactor),
  }));
  return { calls };
}
