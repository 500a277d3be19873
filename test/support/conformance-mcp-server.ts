/**
 * The server `@modelcontextprotocol/conformance`'s server scenarios expect (its "everything"
 * server is not in the npm package): the tools of conformance-tools.ts, the resources and
 * prompts the scenarios read, completion, logging levels and subscriptions — written from the
 * scenarios' stated expectations on the official SDK's low-level `Server`.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  ErrorCode,
  type GetPromptResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { conformanceTools, redPixelPng } from './conformance-tools.js';

const staticResources: Readonly<Record<string, ReadResourceResult['contents'][number]>> = {
  'test://static-text': {
    uri: 'test://static-text',
    mimeType: 'text/plain',
    text: 'This is the content of the static text resource.',
  },
  'test://static-binary': { uri: 'test://static-binary', mimeType: 'image/png', blob: redPixelPng },
  'test://watched-resource': {
    uri: 'test://watched-resource',
    mimeType: 'text/plain',
    text: 'A resource clients subscribe to.',
  },
};

const prompts: Readonly<
  Record<string, (args: Readonly<Record<string, string>>) => GetPromptResult>
> = {
  test_simple_prompt: () => ({
    messages: [
      { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
    ],
  }),
  test_prompt_with_arguments: (args) => ({
    messages: [
      {
        role: 'user',
        content: {
          type: 'text',
          text: `Prompt with arguments: arg1='${args['arg1'] ?? ''}', arg2='${args['arg2'] ?? ''}'`,
        },
      },
    ],
  }),
  test_prompt_with_embedded_resource: (args) => ({
    messages: [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: args['resourceUri'] ?? 'test://example-resource',
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          },
        },
      },
      {
        role: 'user',
        content: { type: 'text', text: 'Please process the embedded resource above.' },
      },
    ],
  }),
  test_prompt_with_image: () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: redPixelPng, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }),
};

const promptArguments: Readonly<Record<string, readonly string[]>> = {
  test_prompt_with_arguments: ['arg1', 'arg2'],
  test_prompt_with_embedded_resource: ['resourceUri'],
};

const templateUri = /^test:\/\/template\/([^/]+)\/data$/;

/** A fresh conformance target server (one per session, as the SDK's transports require). */
export function conformanceMcpServer(): Server {
  const server = new Server(
    { name: 'calltape-conformance-target', version: '1.0.0' },
    {
      capabilities: {
        tools: {},
        resources: { subscribe: true },
        prompts: {},
        logging: {},
        completions: {},
      },
    },
  );
  const subscriptions = new Set<string>();
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: conformanceTools.map(({ tool }) => tool),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const found = conformanceTools.find(({ tool }) => tool.name === request.params.name);
    if (!found) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}`);
    return found.call(request.params.arguments ?? {}, extra);
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: Object.values(staticResources).map(({ uri, mimeType }) => ({
      uri,
      name: uri.slice('test://'.length),
      description: `The ${uri} resource`,
      mimeType,
    })),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: 'test://template/{id}/data',
        name: 'template-data',
        description: 'Data for an id',
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, ({ params: { uri } }) => {
    const id = templateUri.exec(uri)?.[1];
    if (id !== undefined) {
      const data = { id, templateTest: true, data: `Data for ID: ${id}` };
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(data) }] };
    }
    const content = Object.hasOwn(staticResources, uri) ? staticResources[uri] : undefined;
    if (!content) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${uri}`);
    return { contents: [content] };
  });
  server.setRequestHandler(SubscribeRequestSchema, ({ params: { uri } }) => {
    subscriptions.add(uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, ({ params: { uri } }) => {
    subscriptions.delete(uri);
    return {};
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: Object.keys(prompts).map((name) => ({
      name,
      description: `The ${name} prompt`,
      arguments: (promptArguments[name] ?? []).map((argument) => ({
        name: argument,
        required: true,
      })),
    })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, ({ params }) => {
    const prompt = Object.hasOwn(prompts, params.name) ? prompts[params.name] : undefined;
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${params.name}`);
    return prompt(params.arguments ?? {});
  });
  server.setRequestHandler(CompleteRequestSchema, ({ params: { argument } }) => {
    const values = ['paris', 'park', 'party'].filter((value) => value.startsWith(argument.value));
    return { completion: { values, total: values.length, hasMore: false } };
  });
  return server;
}
