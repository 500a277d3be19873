import { decodeUtf8 } from '../../sse/decode-utf8.js';
import { asObject, asString, parseJson } from '../json-access.js';
import type { ParsedResponse, ResponseInput } from '../provider-adapter.js';
import { turnOfAnswer, turnOfEvents } from './converse-turn.js';
import { decodeEventStream } from './event-stream.js';
import { summariseConverseTurn } from './summarise-converse-turn.js';

/** The content type of a Bedrock event stream (ConverseStream, InvokeModelWithResponseStream). */
export const eventStreamContentType = 'application/vnd.amazon.eventstream';

/**
 * Reads a Converse answer (JSON) or a ConverseStream answer (event-stream frames, however they
 * were split). A stream is finished at its `messageStop` with no bytes left over; an exception
 * message inside it, or an error status, is an upstream error with Bedrock's message. Never throws.
 */
export function parseConverseResponse(input: ResponseInput): ParsedResponse {
  const model = input.route?.model;
  if (input.contentType?.includes(eventStreamContentType)) {
    const decoded = decodeEventStream(input.body);
    const turn = turnOfEvents(decoded.events);
    const response = summariseConverseTurn(turn, model);
    if (turn.exception || input.httpStatus >= 400)
      return {
        response,
        status: 'upstream-error',
        error: `HTTP ${input.httpStatus}: ${turn.exception ? `${turn.exception.type}: ${turn.exception.message}` : 'error'}`,
      };
    if (input.ending === 'finished' && turn.stopped && decoded.trailing === 0)
      return { response, status: 'complete', error: undefined };
    return unfinished(input, response, decoded.invalid);
  }
  const text = decodeUtf8(input.body);
  const parsed = parseJson(text);
  const body = parsed.ok ? asObject(parsed.value) : undefined;
  if (input.ending !== 'finished') return unfinished(input, undefined, undefined);
  if (input.httpStatus >= 400)
    return {
      response: undefined,
      status: 'upstream-error',
      error: `HTTP ${input.httpStatus}: ${asString(body?.['message']) ?? asString(body?.['Message']) ?? text.slice(0, 500)}`,
    };
  if (!body)
    return {
      response: undefined,
      status: 'upstream-error',
      error: `the upstream answered with invalid JSON: ${parsed.ok ? 'not an object' : parsed.error}`,
    };
  return {
    response: summariseConverseTurn(turnOfAnswer(body), model),
    status: 'complete',
    error: undefined,
  };
}

function unfinished(
  input: ResponseInput,
  response: ParsedResponse['response'],
  invalid: string | undefined,
): ParsedResponse {
  if (input.ending === 'client-aborted')
    return {
      response,
      status: 'aborted',
      error: 'the agent disconnected before the response ended',
    };
  return {
    response,
    status: 'truncated',
    error:
      input.ending === 'upstream-failed'
        ? 'the upstream connection failed before the response ended'
        : invalid !== undefined
          ? `the event stream broke off: ${invalid}`
          : 'the stream ended before messageStop',
  };
}
