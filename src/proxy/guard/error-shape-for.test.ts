import { describe, expect, it } from 'vitest';
import { errorShapeFor } from './error-shape-for.js';

const shapeOf = (method: string, url: string, headers: Record<string, string> = {}): string =>
  errorShapeFor({ method, url, headers }).id;

describe('errorShapeFor', () => {
  it('answers a captured route in its own adapter envelope, whoever sent it, through session prefixes and near-miss paths', () => {
    expect(shapeOf('POST', '/v1/messages')).toBe('anthropic-messages');
    expect(shapeOf('POST', '/messages')).toBe('anthropic-messages');
    expect(shapeOf('POST', '/s/case-1/v1/responses?x=1')).toBe('openai-responses');
    expect(shapeOf('POST', '/v1/chat/completions', { 'anthropic-version': '2023-06-01' })).toBe(
      'openai-chat',
    );
  });

  it('answers pass-through routes and unroutable targets by who sent them', () => {
    expect(shapeOf('GET', '/v1/models')).toBe('openai-chat');
    expect(shapeOf('GET', '/v1/models', { 'x-api-key': 'k' })).toBe('anthropic-messages');
    expect(shapeOf('POST', '/s/%zz/v1/messages?%', { 'anthropic-version': '2023-06-01' })).toBe(
      'anthropic-messages',
    );
    expect(shapeOf('POST', 'http://evil/v1/chat/completions')).toBe('openai-chat');
  });

  it('answers a request signed for Bedrock in Bedrock’s envelope on a path no adapter captures', () => {
    const authorization =
      'AWS4-HMAC-SHA256 Credential=AKID/20261203/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=ab';
    expect(shapeOf('GET', '/async-invoke', { authorization })).toBe('bedrock-converse');
  });
});
