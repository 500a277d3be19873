import type { CalltapeError } from '../../errors.js';
import type { JsonValue } from '../../trace/trace.js';

/**
 * Bedrock's exception names for calltape's error types: the AWS SDK picks the error class from
 * the `x-amzn-errortype` header, so a `ResourceNotFoundException` for a cassette miss surfaces as
 * the SDK's own `ResourceNotFoundException`.
 */
const exceptionNames: ReadonlyMap<string, string> = new Map([
  ['invalid_request_error', 'ValidationException'],
  ['upstream_error', 'ServiceUnavailableException'],
  ['authentication_error', 'UnrecognizedClientException'],
  ['cassette_miss', 'ResourceNotFoundException'],
  ['calltape_strict_tools', 'AccessDeniedException'],
  ['calltape_mock_loop', 'ModelErrorException'],
  ['calltape_error', 'InternalServerException'],
]);

/** The exception name an error calltape raises goes out under. */
export function bedrockExceptionName(error: CalltapeError): string {
  return exceptionNames.get(error.type) ?? 'InternalServerException';
}

/** Bedrock's error body: `{"message": …}`; the exception name travels in `x-amzn-errortype`. */
export function bedrockErrorBody(error: CalltapeError): JsonValue {
  return { message: error.message };
}

/** The headers that name the exception of a Bedrock error answer. */
export function bedrockErrorHeaders(error: CalltapeError): Readonly<Record<string, string>> {
  return { 'x-amzn-errortype': bedrockExceptionName(error) };
}
