import { createServer } from 'node:net';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/config.js';
import { runCli, startCliProxy, type CliProxy } from '../support/cli.js';
import { connectMcpClient, viaCalltape } from '../support/mcp-client.js';
import { wipeModel, wipeThenAdd } from '../support/notes-agent.js';
import { startScriptedUpstream } from '../support/scripted-upstream.js';
import { bankPolicies, openFeed, writePolicies } from '../support/shadow-bank.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

const token = 'report-token-0123456789';
const running: { close(): Promise<void> | void }[] = [];
afterAll(async () => {
  for (const item of running.splice(0).reverse()) await item.close();
});

interface Step {
  readonly tool: string;
  readonly server?: string;
  readonly outcome?: string;
  readonly unasked?: boolean;
  readonly failures: readonly string[];
}
interface ScoredSession {
  readonly sessionId: string;
  readonly verdict: string;
  readonly trajectory: readonly Step[];
}

/** A free loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An agent that calls three notes tools through `calltape mcp <args>`; what the relay wrote to stderr. */
async function threeCalls(args: readonly string[], env: Record<string, string> = {}) {
  const connected = await connectMcpClient(viaCalltape(['--name', 'notes', ...args]), env);
  const answers = [
    await connected.client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }),
    await connected.client.callTool({ name: 'add', arguments: { a: 3, b: 4 } }),
    await connected.client.callTool({ name: 'delete_everything', arguments: {} }),
  ];
  // The SDK waits for the relay to exit: its last words are on stderr by then.
  await connected.close();
  return { answers, stderr: connected.stderr() };
}

describe('calltape mcp --report-to: stdio MCP calls reach a running proxy shadow scoring', () => {
  let proxy: CliProxy;
  let folder: string;

  beforeAll(async () => {
    const upstream = await startScriptedUpstream(wipeModel);
    running.push(upstream);
    folder = temporaryFolder();
    const policies = writePolicies(
      folder,
      // The session must outlast the relay's shutdown between the model's requests (the agent's
      // SDK allows a relay 2 s to exit): with the bank's 150 ms it could be scored in between.
      bankPolicies(
        '  - id: no-wipe\n    kind: never\n    tools: [notes__delete_everything]\n',
        '4s',
      ),
    );
    proxy = await startCliProxy(
      [
        '--mode',
        'passthrough',
        '--upstream',
        upstream.url,
        '--policies',
        policies,
        '--shadow-db',
        join(folder, 'shadow.sqlite'),
        '--admin-token',
        token,
      ],
      { env: { CALLTAPE_LOG_LEVEL: 'silent' } },
    );
    running.push({
      close: async () => {
        proxy.child.kill('SIGTERM');
        await proxy.exited;
      },
    });
  });

  it('the proxy says how relays report to it', () => {
    expect(proxy.stdout()).toContain(
      `stdio MCP relays report their calls with calltape mcp --report-to ${proxy.url}`,
    );
  });

  it('joins each reported call to the model call it carried out: the dashboard state and feed show its server and verdict, and the session is scored', async () => {
    const feed = await openFeed(`${proxy.url.replace('http', 'ws')}/calltape/feed`, {
      authorization: `Bearer ${token}`,
    });
    running.push(feed);
    const session = { 'x-calltape-session': 'stdio-mcp' };
    const client = new OpenAI({ baseURL: proxy.baseUrl, apiKey: 'sk-test', maxRetries: 0 });
    const mcp = await connectMcpClient(
      viaCalltape([
        '--name',
        'notes',
        '--mode',
        'passthrough',
        '--session',
        'stdio-mcp',
        '--report-to',
        proxy.baseUrl,
      ]),
      { CALLTAPE_ADMIN_TOKEN: token },
    );
    running.push(mcp);
    // The relay posts everything before it exits (the SDK waits for that), so the session the
    // last request opens cannot end before the proxy has the calls.
    const answer = await wipeThenAdd(client, mcp.client, session, () => mcp.close());
    expect(answer.isError).toBe(true);

    const scored = (await feed.waitFor(
      (event) => event['type'] === 'session.scored' && event['sessionId'] === 'stdio-mcp',
      'the session scored',
    )) as unknown as ScoredSession;
    const expected = [
      {
        tool: 'notes__delete_everything',
        server: 'notes',
        outcome: 'failed',
        failures: ['no-wipe: notes__delete_everything was called; policy no-wipe forbids it'],
      },
      { tool: 'add', server: 'notes', outcome: 'succeeded', unasked: true, failures: [] },
    ];
    expect(scored.verdict).toBe('fail');
    expect(scored.trajectory).toMatchObject(expected);

    const state = (await (
      await fetch(`${proxy.url}/calltape/api/state`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { failingSessions: ScoredSession[] };
    const listed = state.failingSessions.find((item) => item.sessionId === 'stdio-mcp');
    expect(listed?.trajectory).toMatchObject(expected);
    expect(mcp.stderr()).not.toContain('cannot report');
  });

  it('a relay with the wrong token says so once, and its session goes on', async () => {
    const { answers, stderr } = await threeCalls(
      ['--mode', 'passthrough', '--report-to', proxy.url],
      { CALLTAPE_ADMIN_TOKEN: 'not-the-token-0123456789' },
    );
    expect(answers.map((answer) => answer.isError ?? false)).toEqual([false, false, true]);
    expect(stderr.match(/cannot report tool calls/g)).toHaveLength(1);
    expect(stderr).toContain('HTTP 401 (calltape: this admin surface needs the admin token');
  });
});

describe('calltape mcp --report-to a proxy that cannot take the calls', () => {
  it('a dead proxy is said once, not per call, and the MCP session is unaffected', async () => {
    const port = await closedPort();
    const { answers, stderr } = await threeCalls([
      '--mode',
      'passthrough',
      '--report-to',
      `http://127.0.0.1:${port}`,
    ]);
    expect(answers.map((answer) => answer.isError ?? false)).toEqual([false, false, true]);
    expect(stderr.match(/cannot report tool calls/g)).toHaveLength(1);
    expect(stderr).toMatch(/3 tool call\(s\) were not reported/);
  });

  it('a proxy without shadow scoring answers 409, said once', async () => {
    const plain = await startTestProxy('http://127.0.0.1:9', { mode: 'passthrough' });
    running.push(plain);
    const { stderr } = await threeCalls(['--mode', 'passthrough'], {
      CALLTAPE_REPORT_TO: plain.url,
    });
    expect(stderr.match(/cannot report tool calls/g)).toHaveLength(1);
    expect(stderr).toContain('HTTP 409 (calltape: this proxy does not shadow-score');
  });

  it('a report-to that is not an http address is a usage error naming it', () => {
    const result = runCli(['mcp', '--name', 'notes', '--report-to', 'ftp://proxy', '--', 'true']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--report-to (or CALLTAPE_REPORT_TO) "ftp://proxy"');
  });
});

describe('POST /calltape/api/mcp-calls', () => {
  const call = {
    id: '0194aaaa-0000-7000-8000-000000000001',
    sessionId: 's1',
    sessionGiven: true,
    startedAt: 1,
    server: 'notes',
    subject: 'add',
    params: { name: 'add', arguments: { a: 1 } },
    result: { content: [] },
  };
  let url: string;
  beforeAll(async () => {
    const folder = temporaryFolder();
    const proxy = await startTestProxy('http://127.0.0.1:9', {
      mode: 'passthrough',
      admin: { ...defaultConfig.admin, token },
      shadow: {
        ...defaultConfig.shadow,
        policies: writePolicies(folder, bankPolicies()),
        database: join(folder, 'shadow.sqlite'),
      },
    });
    running.push(proxy);
    url = `${proxy.url}/calltape/api/mcp-calls`;
  });
  const post = (
    body: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; text: string }> =>
    fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body,
    }).then(async (response) => ({ status: response.status, text: await response.text() }));

  it('takes a report with the admin token', async () => {
    expect(await post(JSON.stringify({ calls: [call] }))).toEqual({
      status: 202,
      text: '{"accepted":1}',
    });
  });

  it('refuses one without the token, from a web page, or not JSON', async () => {
    const body = JSON.stringify({ calls: [call] });
    expect((await post(body, { authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
    expect((await post(body, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(body, { 'content-type': 'text/plain' })).status).toBe(403);
  });

  it('names what is wrong with a malformed report', async () => {
    expect(await post('{')).toMatchObject({ status: 400 });
    const missing = await post(JSON.stringify({ calls: [{ ...call, server: undefined }] }));
    expect(missing.status).toBe(400);
    expect(missing.text).toContain("/calls/0 must have required property 'server'");
    const extra = await post(JSON.stringify({ calls: [{ ...call, startedAt: 'soon' }] }));
    expect(extra.text).toContain('/calls/0/startedAt must be number');
  });
});
