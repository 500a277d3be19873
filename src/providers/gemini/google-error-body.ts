import type { CalltapeError } from '../../errors.js';
import type { JsonValue } from '../../trace/trace.js';

/** google.rpc.Code names by the HTTP status Google answers them with (https://cloud.google.com/apis/design/errors#handling_errors). */
const statusNames: ReadonlyMap<number, string> = new Map([
  [400, 'INVALID_ARGUMENT'],
  [401, 'UNAUTHENTICATED'],
  [403, 'PERMISSION_DENIED'],
  [404, 'NOT_FOUND'],
  [408, 'DEADLINE_EXCEEDED'],
  [409, 'ABORTED'],
  [413, 'INVALID_ARGUMENT'],
  [429, 'RESOURCE_EXHAUSTED'],
  [499, 'CANCELLED'],
  [500, 'INTERNAL'],
  [501, 'UNIMPLEMENTED'],
  [502, 'UNAVAILABLE'],
  [503, 'UNAVAILABLE'],
  [504, 'DEADLINE_EXCEEDED'],
]);

/**
 * An error calltape raises in Google's own envelope, `{"error":{"code","message","status"}}`, so
 * `@google/genai` and the other Gemini clients throw their usual API error with calltape's message.
 */
export function googleErrorBody(error: CalltapeError): JsonValue {
  const code = error.status;
  return {
    error: {
      code,
      message: error.message,
      status: statusNames.get(code) ?? (code >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION'),
    },
  };
}
