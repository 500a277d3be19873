import { CalltapeError } from '../../errors.js';

/**
 * How many response bytes one round trip may keep for recording and scoring. The agent's copy
 * is never limited; past the budget capture stops (an endless stream or a huge body would
 * otherwise grow without bound) and `truncated` says why.
 */
export class CaptureBudget {
  private used = 0;
  /** Why capture stopped; undefined while within the budget. */
  truncated: string | undefined;

  constructor(private readonly maxBytes: number) {}

  /** Whether a chunk of this many bytes may still be kept. */
  take(bytes: number): boolean {
    if (this.truncated !== undefined) return false;
    if (this.used + bytes > this.maxBytes) {
      this.truncated = `capture truncated: the response exceeds ${this.maxBytes} bytes (limits.maxResponseBytes); the agent received all of it`;
      return false;
    }
    this.used += bytes;
    return true;
  }
}

/**
 * The error for an answer calltape must hold whole (a tool-loop round under mocks: the loop sees
 * a turn entire before the agent may see any of it) that outgrew a limit. Unlike pass-through,
 * nothing reached the agent, so the answer is cut off upstream and refused instead of held.
 */
export function heldAnswerTooLarge(
  limit: 'limits.maxResponseBytes' | 'limits.maxDecodedBytes',
  maxBytes: number,
): CalltapeError {
  const what = limit === 'limits.maxDecodedBytes' ? 'decodes to more than' : 'exceeds';
  return new CalltapeError(
    'RESPONSE_TOO_LARGE',
    `calltape: an upstream answer under mock tools ${what} ${maxBytes} bytes (${limit}); calltape holds each turn whole to answer mocked tools, so it cut the answer off instead`,
  );
}
