import type { Command } from 'commander';

/** The flags that set the upstreams of the wires beyond OpenAI and Anthropic, shared by `calltape proxy` and the wrap commands. */
const wireUpstreamOptions = [
  {
    flags: '--gemini-upstream <url>',
    description: 'Gemini API origin (default https://generativelanguage.googleapis.com)',
  },
  {
    flags: '--vertex-upstream <url>',
    description: "Vertex AI origin (default: the regional endpoint of the path's location)",
  },
  {
    flags: '--ollama-upstream <url>',
    description: 'Ollama origin (default: OLLAMA_HOST, else http://127.0.0.1:11434)',
  },
  {
    flags: '--azure-upstream <url>',
    description: 'Azure OpenAI resource endpoint (default: AZURE_OPENAI_ENDPOINT)',
  },
  {
    flags: '--bedrock-upstream <url>',
    description:
      'Amazon Bedrock Runtime origin (default https://bedrock-runtime.{region}.amazonaws.com)',
  },
  {
    flags: '--bedrock-region <region>',
    description:
      'AWS region for Bedrock, re-signed with SigV4 (default: AWS_REGION, else AWS_DEFAULT_REGION)',
  },
] as const;

/** `command` with the wire upstream flags added. */
export function withWireUpstreamOptions(command: Command): Command {
  for (const option of wireUpstreamOptions) command.option(option.flags, option.description);
  return command;
}
