import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeLine, startLine, turnRequest } from './conversation-protocol.js';
import { readAgentLine } from './read-agent-line.js';
import { readHttpAnswer } from './read-http-answer.js';

describe('readAgentLine: one line of a process agent’s stdout', () => {
  it('reads a reply, a reply that ends the conversation, and an end line', () => {
    expect(readAgentLine('{"type":"reply","turn":2,"text":"Which order?"}')).toEqual({
      kind: 'answer',
      turn: 2,
      answer: { text: 'Which order?', end: false, reason: null },
    });
    expect(readAgentLine('  {"type":"reply","turn":1,"text":null,"end":true}\r')).toEqual({
      kind: 'answer',
      turn: 1,
      answer: { text: null, end: true, reason: null },
    });
    expect(readAgentLine('{"type":"end","reason":"cannot help with that"}')).toEqual({
      kind: 'answer',
      turn: null,
      answer: { text: null, end: true, reason: 'cannot help with that' },
    });
  });

  it('keeps log lines, other JSON and unknown line types as output', () => {
    for (const line of [
      'looking up order A-17…',
      '',
      '[1, 2]',
      '{"level":30,"msg":"started"}',
      '{"type":"log","msg":"hello"}',
      '{"type":7}',
      '{not json at all',
    ])
      expect(readAgentLine(line), line).toEqual({ kind: 'output' });
  });

  it('calls a reply line that breaks the protocol malformed, naming the field', () => {
    const problem = (line: string): string => {
      const read = readAgentLine(line);
      return read.kind === 'malformed' ? read.problem : `not malformed: ${read.kind}`;
    };
    expect(problem('{"type":"reply","text":"hi"}')).toMatch(/^turn: a reply names the turn/);
    expect(problem('{"type":"reply","turn":0,"text":"hi"}')).toMatch(
      /^turn: expected a whole number from 1, got 0/,
    );
    expect(problem('{"type":"reply","turn":"1","text":"hi"}')).toMatch(/^turn: .*got "1"/);
    expect(problem('{"type":"reply","turn":1}')).toMatch(/^text: required/);
    expect(problem('{"type":"reply","turn":1,"text":42}')).toMatch(
      /^text: expected a string or null, got 42/,
    );
    expect(problem('{"type":"reply","turn":1,"text":"x","end":"yes"}')).toMatch(
      /^end: expected true or false/,
    );
    expect(problem('{"type":"end","reason":["x"]}')).toMatch(/^reason: expected a string/);
    // Cut short (an agent that printed half a line, or pretty-printed JSON): malformed, not a wait.
    expect(problem('{"type":"reply","turn":1,"text":"Which ord')).toMatch(/^not valid JSON/);
  });

  it('reads a prototype-named field as data, never from Object.prototype', () => {
    expect(readAgentLine('{"type":"reply","turn":1,"__proto__":{"text":"x"}}')).toMatchObject({
      kind: 'malformed',
    });
    expect(readAgentLine('{"type":"constructor"}')).toEqual({ kind: 'output' });
  });

  it('never throws, whatever the line', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json().map((json) => json),
        ),
        (line) => {
          expect(['answer', 'output', 'malformed']).toContain(readAgentLine(line).kind);
        },
      ),
    );
  });

  it('reads back every reply an agent can write with JSON.stringify', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.option(fc.string(), { nil: null }),
        fc.boolean(),
        (turn, text, end) => {
          const line = JSON.stringify({ type: 'reply', turn, text, end });
          expect(readAgentLine(line)).toEqual({
            kind: 'answer',
            turn,
            answer: { text, end, reason: null },
          });
        },
      ),
    );
  });
});

describe('the lines calltape writes', () => {
  it('are one line each, whatever the user says, and read back as written', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1 }), fc.string(), (turn, text) => {
        const line = encodeLine({ type: 'user', turn, text });
        expect(line.indexOf('\n')).toBe(line.length - 1);
        expect(JSON.parse(line)).toEqual({ type: 'user', turn, text });
      }),
    );
  });

  it('start with the protocol version, the case, the session and the base URLs', () => {
    const start = { case: 'refund', session: 'refund#2', base_urls: { openai: 'http://x/v1' } };
    expect(startLine(start)).toEqual({ type: 'start', protocol: 1, ...start });
    expect(turnRequest(start, 3, 'yes')).toEqual({ protocol: 1, ...start, turn: 3, text: 'yes' });
  });
});

describe('readHttpAnswer: an HTTP agent’s answer to a turn', () => {
  it('reads {text}, {text, end} and {end, reason}', () => {
    expect(readHttpAnswer(200, '{"text":"Done."}')).toEqual({
      text: 'Done.',
      end: false,
      reason: null,
    });
    expect(readHttpAnswer(201, '{"text":"Bye","end":true}')).toEqual({
      text: 'Bye',
      end: true,
      reason: null,
    });
    expect(readHttpAnswer(200, '{"end":true,"reason":"gave up"}')).toEqual({
      text: null,
      end: true,
      reason: 'gave up',
    });
  });

  it('never throws, whatever the status and body', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 599 }),
        fc.oneof(fc.string(), fc.json()),
        (status, body) => {
          const answer = readHttpAnswer(status, body);
          expect(typeof answer === 'string' || typeof answer === 'object').toBe(true);
        },
      ),
    );
  });

  it('says what is wrong with an error status, a body that is not JSON, or a missing text', () => {
    expect(readHttpAnswer(500, 'Internal Server Error\n  at handler')).toBe(
      'HTTP 500: Internal Server Error at handler',
    );
    expect(readHttpAnswer(200, '<html>')).toMatch(/^the body is not JSON .*: <html>$/);
    expect(readHttpAnswer(200, '["a"]')).toMatch(/^the body is not a JSON object/);
    expect(readHttpAnswer(200, '{"reply":"hi"}')).toMatch(/^text: required/);
  });
});
