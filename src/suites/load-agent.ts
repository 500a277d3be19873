import { existsSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { printableUrl } from '../cassette/printable-url.js';
import { CalltapeError } from '../errors.js';
import type { AgentSpec } from '../scoring/suite-types.js';

/** A suite's `agent:` as written (config/suite.schema.json#/$defs/agent). */
export interface RawAgent {
  readonly command?: string;
  readonly input?: 'arg' | 'stdin' | 'env';
  readonly protocol?: 'prompt' | 'jsonl';
  readonly url?: string;
  readonly module?: string;
  readonly allow_remote?: boolean;
  readonly cwd?: string;
  readonly timeout_ms?: number;
  readonly turn_timeout_ms?: number;
  readonly env?: Record<string, string>;
}

const defaultTimeoutMs = 120_000;

/**
 * The suite's agent, checked for what its schema cannot say: one of a command, a url or a module,
 * the fields that belong to a command left off the others, a url on this machine unless
 * `allow_remote` says otherwise, and a module that exists. Errors name the suite file and the field.
 */
export function loadAgent(
  raw: RawAgent,
  where: { readonly file: string; readonly folder: string; readonly cwd: string },
): AgentSpec {
  const fail = (field: string, message: string, hint?: string): never => {
    throw new CalltapeError('CONFIG_INVALID', `${where.file}: agent.${field}: ${message}`, hint);
  };
  const timeoutMs = raw.timeout_ms ?? defaultTimeoutMs;
  const turnTimeoutMs = Math.min(raw.turn_timeout_ms ?? timeoutMs, timeoutMs);
  if (raw.module !== undefined) {
    for (const field of ['command', 'url'] as const)
      if (raw[field] !== undefined)
        fail('module', `an agent is one of command, url or module, not ${field} and module`);
    for (const field of ['input', 'protocol', 'cwd', 'allow_remote', 'turn_timeout_ms'] as const)
      if (raw[field] !== undefined)
        fail(
          field,
          'belongs to an agent command or url; an agent module is called once per case with the prompt (docs/reference/agent-module.md)',
        );
    return {
      kind: 'module',
      ...moduleTarget(raw.module, where.folder, fail),
      timeoutMs,
      env: raw.env ?? {},
    };
  }
  if (raw.url !== undefined) {
    if (raw.command !== undefined)
      fail('url', 'an agent is a command calltape starts or a url it posts to, not both');
    for (const field of ['input', 'protocol', 'cwd', 'env'] as const)
      if (raw[field] !== undefined)
        fail(field, 'belongs to an agent command; an agent at a url speaks the HTTP protocol');
    checkAgentUrl(raw.url, raw.allow_remote === true, fail);
    return { kind: 'http', url: raw.url, timeoutMs, turnTimeoutMs };
  }
  if (raw.command === undefined)
    return fail(
      'command',
      'required: the command calltape starts for each case, or url: the address of an agent you serve',
    );
  if (raw.allow_remote !== undefined) fail('allow_remote', 'belongs to an agent at a url');
  if (raw.protocol === 'jsonl' && raw.input !== undefined)
    fail(
      'input',
      'with protocol jsonl every user turn goes to the agent on stdin as a JSON line; leave input out',
    );
  return {
    kind: 'process',
    command: raw.command,
    input: raw.input ?? 'arg',
    protocol: raw.protocol ?? 'prompt',
    cwd: raw.cwd ? resolve(where.folder, raw.cwd) : where.cwd,
    timeoutMs,
    turnTimeoutMs,
    env: raw.env ?? {},
  };
}

/** `./agent.js#run`: the module's path (relative to the suite's folder) and the export to call. */
function moduleTarget(
  written: string,
  folder: string,
  fail: (field: string, message: string, hint?: string) => never,
): { path: string; exportName: string; written: string } {
  const hash = written.lastIndexOf('#');
  const file = hash === -1 ? written : written.slice(0, hash);
  const exportName = hash === -1 ? 'default' : written.slice(hash + 1);
  if (file === '' || !/^[A-Za-z_$][\w$]*$/.test(exportName))
    fail(
      'module',
      `expected a module path and an optional export name, like ./agent.js#run; got ${JSON.stringify(written)}`,
    );
  const path = resolve(folder, file);
  if (!existsSync(path) || !statSync(path).isFile())
    fail(
      'module',
      `${file} is not a file (looked for ${path}: the path is relative to the suite file's folder)`,
    );
  return { path, exportName, written };
}

/**
 * An HTTP agent's url must be http(s) and, unless allowed, on this machine: each request carries
 * the case's user turns, and the base URLs in it point at a proxy that listens on 127.0.0.1
 * only, so an agent elsewhere could not send its model requests there anyway — its rounds would
 * go unrecorded and unscored. Allowing it is for an agent reached through a tunnel or a port
 * forward that also reaches the proxy.
 */
function checkAgentUrl(
  url: string,
  allowRemote: boolean,
  fail: (field: string, message: string, hint?: string) => never,
): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail('url', `not a URL: ${printableUrl(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    fail('url', `expected an http:// or https:// URL, got ${printableUrl(url)}`);
  if (!allowRemote && !isLoopbackHost(parsed.hostname))
    fail(
      'url',
      `${printableUrl(url)} is not on this machine: calltape sends an agent at a url the case's user turns, and the base URLs it gives point at a proxy listening on 127.0.0.1 only`,
      'Serve the agent on 127.0.0.1 (or localhost, ::1), or set agent.allow_remote: true when it reaches this machine through a tunnel.',
    );
}

/** `localhost`, 127.0.0.0/8 or ::1 (a URL's hostname keeps IPv6 in brackets). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  // The WHATWG parser writes an IPv4-mapped address in hex: [::ffff:127.0.0.1] is [::ffff:7f00:1].
  return isIP(host) === 6 && (host === '::1' || /^::ffff:(?:127\.|7f[0-9a-f]{2}:)/.test(host));
}
