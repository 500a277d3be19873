import { basename, extname, resolve } from 'node:path';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { readDocument } from '../config/read-document.js';
import { configSchemaFile, schemaValidator } from '../config/schema-validator.js';
import { CalltapeError } from '../errors.js';
import type { McpMockSpec, McpServerMocks, McpServerMockSet } from './mcp-mock-types.js';

const schemaErrors = schemaValidator('mocks.schema.json', ['test-case.schema.json']);

/**
 * The MCP mocks of server `server` from mocks files (JSON or YAML, config/mocks.schema.json):
 * everything wrong is reported here, naming file and field, never when a call arrives. A tool
 * mocked in two files, or tools/list given by two, is an error.
 */
export function loadMcpMocks(
  files: readonly string[],
  server: string,
  cwd: string,
): McpServerMockSet {
  let tools: McpServerMockSet['tools'];
  let toolsFrom: string | undefined;
  let state: McpServerMockSet['state'] = new Map();
  let stateFrom: string | undefined;
  const mocks = new Map<string, { spec: McpMockSpec; set: string }>();
  for (const file of files) {
    const path = resolve(cwd, file);
    const value = readDocument(path, 'mock file', cwd);
    const errors = schemaErrors(value);
    if (errors.length > 0)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${path}: ${describeError(errors)}`,
        `See ${configSchemaFile('mocks.schema.json')} for every field.`,
      );
    const servers = (value as { mcp?: { [name: string]: McpServerMocks } }).mcp;
    const entry = servers && Object.hasOwn(servers, server) ? servers[server] : undefined;
    if (!entry) continue;
    const set = basename(path, extname(path));
    if (entry.tools) {
      if (toolsFrom !== undefined)
        throw new CalltapeError(
          'CONFIG_INVALID',
          `${path}: mcp.${server}.tools: ${toolsFrom} already gives this server's tools`,
        );
      tools = entry.tools;
      toolsFrom = path;
    }
    if (entry.state) {
      if (stateFrom !== undefined)
        throw new CalltapeError(
          'CONFIG_INVALID',
          `${path}: mcp.${server}.state: ${stateFrom} already gives this server's state`,
        );
      state = new Map(Object.entries(entry.state));
      stateFrom = path;
    }
    (entry.mocks ?? []).forEach((spec, index) => {
      const where = `${path}: mcp.${server}.mocks[${index}] (${spec.tool})`;
      if (mocks.has(spec.tool))
        throw new CalltapeError(
          'CONFIG_INVALID',
          `${where}: ${spec.tool} is mocked twice (also in set "${mocks.get(spec.tool)?.set}")`,
        );
      if (spec.otherwise && !spec.when)
        throw new CalltapeError(
          'CONFIG_INVALID',
          `${where}: otherwise: only means something beside when`,
        );
      if (tools && !tools.some((tool) => tool['name'] === spec.tool))
        throw new CalltapeError(
          'CONFIG_INVALID',
          `${where}: tool: ${spec.tool} is not one of the tools given for ${server} (${tools.map((tool) => String(tool['name'])).join(', ')})`,
        );
      mocks.set(spec.tool, { spec, set });
    });
  }
  return { tools, mocks, state };
}

/** The MCP mocks of every server any of the files names under `mcp`, checked as `loadMcpMocks` checks them. */
export function loadAllMcpMocks(
  files: readonly string[],
  cwd: string,
): Map<string, McpServerMockSet> {
  const names = new Set<string>();
  for (const file of files) {
    const value = readDocument(resolve(cwd, file), 'mock file', cwd);
    const servers =
      typeof value === 'object' && value !== null ? (value as { mcp?: unknown }).mcp : undefined;
    if (typeof servers === 'object' && servers !== null)
      for (const name of Object.keys(servers)) names.add(name);
  }
  return new Map([...names].map((name) => [name, loadMcpMocks(files, name, cwd)]));
}

/** The deepest schema error as `mcp.notes.mocks[0].content: what` (the deepest is the most specific). */
function describeError(errors: readonly ErrorObject[]): string {
  const depth = (error: ErrorObject): number =>
    error.instancePath.split('/').length + (error.keyword === 'additionalProperties' ? 1 : 0);
  const error = [...errors].sort((a, b) => depth(b) - depth(a))[0] as ErrorObject;
  const parts = error.instancePath.split('/').slice(1);
  const extra = (error.params as { additionalProperty?: string }).additionalProperty;
  const field = [...parts, ...(extra === undefined ? [] : [extra])].reduce(
    (text, part) => (/^\d+$/.test(part) ? `${text}[${part}]` : text ? `${text}.${part}` : part),
    '',
  );
  const what = extra === undefined ? (error.message ?? 'is invalid') : 'unknown field';
  return `${field || '(file)'}: ${what}`;
}
