import type { ServerResponse } from 'node:http';
import type { Redactor } from '../cassette/redact.js';
import { adminWriteAllowed } from '../live/admin-request-checks.js';
import { noReferrer, type AdminExtension } from '../live/admin-routes.js';
import { mcpCallsPath, parseMcpCallReport, type ReportedMcpCall } from '../mcp/mcp-call-report.js';
import { readRequestBody } from './read-request-body.js';

export interface McpReportRouteOptions {
  /** This proxy's redaction, run again over what a relay reports. */
  readonly redactor: Redactor;
  readonly maxBodyBytes: number;
  /** Hands the calls to shadow scoring; false when it is off. */
  readonly accept: (calls: readonly ReportedMcpCall[]) => boolean;
}

/**
 * `POST /calltape/api/mcp-calls`: where `calltape mcp --report-to` relays post the tools/calls
 * they answered, so shadow scoring and the dashboard see stdio MCP calls as they see those of
 * `/mcp/<name>`. An admin surface: behind the Host and token checks, and like every admin write
 * it takes JSON from no foreign page (a browser cannot send that cross-origin without CORS).
 */
export function mcpReportRoute(options: McpReportRouteOptions): AdminExtension {
  return {
    pages: [],
    handle(request, response, url) {
      if (url.pathname !== mcpCallsPath) return false;
      if (request.method !== 'POST') {
        send(response, 405, 'calltape: MCP calls are reported with POST', 'invalid_request_error', {
          allow: 'POST',
        });
        return true;
      }
      if (!adminWriteAllowed(request.headers)) {
        send(
          response,
          403,
          'calltape: MCP calls are reported as JSON by calltape mcp, never by a web page',
          'calltape_forbidden_origin',
        );
        return true;
      }
      void readRequestBody(request, options.maxBodyBytes).then((body) => {
        if (body.kind === 'aborted') return;
        if (body.kind === 'too-large') {
          send(
            response,
            413,
            `calltape: an MCP call report holds at most ${options.maxBodyBytes} bytes (limits.maxBodyBytes)`,
            'invalid_request_error',
          );
          return;
        }
        const report = parseMcpCallReport(body.body.toString('utf8'), options.redactor);
        if ('problem' in report) {
          send(
            response,
            400,
            `calltape: not an MCP call report: ${report.problem}`,
            'invalid_request_error',
          );
        } else if (!options.accept(report.calls)) {
          send(
            response,
            409,
            'calltape: this proxy does not shadow-score (start it with --policies): reported MCP calls have nowhere to go',
            'calltape_shadow_off',
          );
        } else {
          response
            .writeHead(202, { 'content-type': 'application/json', ...noReferrer })
            .end(JSON.stringify({ accepted: report.calls.length }));
        }
      });
      return true;
    },
    close: () => undefined,
  };
}

function send(
  response: ServerResponse,
  status: number,
  message: string,
  type: string,
  headers: Record<string, string> = {},
): void {
  response
    .writeHead(status, { 'content-type': 'application/json', ...noReferrer, ...headers })
    .end(JSON.stringify({ error: { message, type } }));
}
