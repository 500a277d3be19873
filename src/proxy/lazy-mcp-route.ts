import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpRoute, McpRouteOptions } from './mcp-route.js';
import type { Where } from './route-types.js';

/**
 * `/mcp/<name>`, loaded at its first request: a proxy no MCP client talks to never loads the MCP
 * core (responder, store, relay) nor the scoring engine mock answers are chosen with. The request
 * waits in its socket meanwhile (its body is read only once the route has it).
 */
export class LazyMcpRoute {
  private route: Promise<McpRoute> | undefined;

  constructor(private readonly options: McpRouteOptions) {}

  async handle(request: IncomingMessage, response: ServerResponse, where: Where): Promise<void> {
    this.route ??= import('./mcp-route.js').then(({ McpRoute }) => new McpRoute(this.options));
    await (await this.route).handle(request, response, where);
  }

  async close(): Promise<void> {
    if (this.route) await (await this.route).close();
  }
}
