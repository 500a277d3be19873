/**
 * The variables that point an agent's SDKs at the proxy, one set for every wire, so
 * `calltape record|replay|auto -- cmd` and agent mode (`calltape test`) agree. `origin` is
 * where the agent's requests go: the proxy's origin, with a `/s/<session>` prefix in agent mode.
 *
 * - `OPENAI_BASE_URL` (`openai`, the Vercel AI SDK's OpenAI provider, LangChain): `${origin}/v1`.
 *   openai's `AzureOpenAI` reads it before its `endpoint`, so it sends `/v1/deployments/…`,
 *   which calltape routes to Azure (`openai-route.ts`).
 * - `ANTHROPIC_BASE_URL` (`@anthropic-ai/sdk`): the origin; the SDK adds `/v1`.
 * - `GOOGLE_GEMINI_BASE_URL`, `GOOGLE_VERTEX_BASE_URL` (`@google/genai`, read when
 *   `httpOptions.baseUrl` is unset, in Gemini API and Vertex AI mode): the origin.
 * - `OLLAMA_HOST` (the Ollama CLI and Python client; the `ollama` npm package reads no variable
 *   and takes `host` in code): the origin.
 * - `AZURE_OPENAI_ENDPOINT` (Azure clients that take the resource endpoint): the origin, whose
 *   `/openai/…` routes calltape forwards to `azureUpstream`.
 * - `AWS_ENDPOINT_URL_BEDROCK_RUNTIME` (the AWS SDKs' service-specific endpoint, read when the
 *   client sets no `endpoint`): the origin; calltape re-signs what it forwards.
 */
export function agentEnvironment(origin: string): Record<string, string> {
  return {
    OPENAI_BASE_URL: `${origin}/v1`,
    ANTHROPIC_BASE_URL: origin,
    GOOGLE_GEMINI_BASE_URL: origin,
    GOOGLE_VERTEX_BASE_URL: origin,
    OLLAMA_HOST: origin,
    AZURE_OPENAI_ENDPOINT: origin,
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: origin,
  };
}
