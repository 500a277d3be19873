import { describe, expect, it } from 'vitest';
import { agentEnvironment } from './agent-environment.js';

describe('agentEnvironment', () => {
  it("points every wire's client variable at the proxy, OpenAI's with /v1", () => {
    expect(agentEnvironment('http://127.0.0.1:4545/s/case-1')).toEqual({
      OPENAI_BASE_URL: 'http://127.0.0.1:4545/s/case-1/v1',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:4545/s/case-1',
      GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:4545/s/case-1',
      GOOGLE_VERTEX_BASE_URL: 'http://127.0.0.1:4545/s/case-1',
      OLLAMA_HOST: 'http://127.0.0.1:4545/s/case-1',
      AZURE_OPENAI_ENDPOINT: 'http://127.0.0.1:4545/s/case-1',
      AWS_ENDPOINT_URL_BEDROCK_RUNTIME: 'http://127.0.0.1:4545/s/case-1',
    });
  });
});
