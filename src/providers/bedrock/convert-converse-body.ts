import { asObject, parseJson } from '../json-access.js';
import { answerOfTurn, eventsOfTurn, turnOfAnswer, turnOfEvents } from './converse-turn.js';
import { decodeEventStream, encodeEventStream } from './event-stream.js';

/*
 * A ConverseStream answer is binary, and `convertBody` passes bodies as strings: Bedrock bodies
 * travel through it as binary strings, one character a byte (`latin1`), which keeps every byte
 * (a UTF-8 decode would turn length prefixes and CRCs into U+FFFD). The adapter declares it
 * (`ProviderAdapter.binaryBodies`), and callers encode and decode accordingly.
 */

/** Bytes as a binary string, one character a byte. */
export function binaryString(bytes: Uint8Array): string {
  let text = '';
  for (let start = 0; start < bytes.length; start += 0x8000)
    text += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return text;
}

/** A binary string's bytes (a character above 0xff is not one: its low byte is kept, as `latin1` does). */
export function binaryBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index) & 0xff;
  return bytes;
}

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/**
 * A finished Converse answer (a binary string of either form) re-expressed as the stream
 * (`stream`) or the whole JSON answer, as a binary string; unchanged when already in that form.
 * Undefined for an answer that did not finish (cut, errored, a call's input not JSON).
 */
export function convertConverseBody(body: string, stream: boolean): string | undefined {
  const bytes = binaryBytes(body);
  const decoded = bytes[0] === 0x7b ? undefined : decodeEventStream([bytes]);
  let turn;
  if (decoded) {
    if (decoded.invalid !== undefined || decoded.trailing > 0) return undefined;
    turn = turnOfEvents(decoded.events);
    if (!turn.stopped || turn.exception) return undefined;
  } else {
    const parsed = parseJson(utf8.decode(bytes));
    const answer = parsed.ok ? asObject(parsed.value) : undefined;
    if (!answer || answer['output'] === undefined) return undefined;
    turn = turnOfAnswer(answer);
  }
  if ((decoded !== undefined) === stream) return body;
  if (stream) return binaryString(encodeEventStream(eventsOfTurn(turn)));
  const answer = answerOfTurn(turn);
  return answer === undefined ? undefined : binaryString(encoder.encode(JSON.stringify(answer)));
}
