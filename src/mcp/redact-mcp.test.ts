import { describe, expect, it } from 'vitest';
import { createRedactor } from '../cassette/redact.js';
import { redactMcpParams, redactMcpResult } from './redact-mcp.js';

const redactor = createRedactor(
  [],
  [{ pattern: 'sk-[A-Za-z0-9]{8,}', flags: '', replacement: 'sk-REDACTED' }],
);

describe('MCP redaction', () => {
  it('drops credential-named arguments at any depth and runs the body patterns over params', () => {
    const params = {
      name: 'deploy',
      arguments: {
        api_key: 'k1',
        nested: { accessToken: 't', client_secret: 's', max_tokens: 5 },
        note: 'use sk-abcdefgh123',
      },
    };
    expect(redactMcpParams(params, redactor)).toEqual({
      name: 'deploy',
      arguments: {
        api_key: 'REDACTED',
        nested: { accessToken: 'REDACTED', client_secret: 'REDACTED', max_tokens: 5 },
        note: 'use sk-REDACTED',
      },
    });
  });

  it('keeps the server vocabulary of answers (a schema may declare api_key) but runs the patterns', () => {
    const result = {
      tools: [{ name: 'x', inputSchema: { properties: { api_key: { type: 'string' } } } }],
      note: 'sk-abcdefgh123',
    };
    expect(redactMcpResult(result, redactor)).toEqual({
      tools: [{ name: 'x', inputSchema: { properties: { api_key: { type: 'string' } } } }],
      note: 'sk-REDACTED',
    });
  });
});
