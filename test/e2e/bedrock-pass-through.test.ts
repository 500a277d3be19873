import { join } from 'node:path';
import {
  ApplyGuardrailCommand,
  BedrockRuntimeClient,
  CountTokensCommand,
  GetAsyncInvokeCommand,
} from '@aws-sdk/client-bedrock-runtime';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { upstreamCredentials, validSignature } from '../support/bedrock-upstream.js';
import {
  startScriptedUpstream,
  type ReceivedRequest,
  type ScriptedResponse,
} from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

const region = 'us-west-2';
const agentCredentials = {
  accessKeyId: 'AKIDAGENTSIDE',
  secretAccessKey: 'agent-secret-abcdefghijklmnopqrstuvwxyz',
  sessionToken: 'agent-session-token-0123456789',
};
const invocationArn = 'arn:aws:bedrock:us-west-2:123456789012:async-invoke/abc123';

/** calltape's environment: the default chain finds the upstream's credentials there and nowhere else. */
const variables = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_PROFILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_CONFIG_FILE',
  'AWS_EC2_METADATA_DISABLED',
];
const saved = new Map(variables.map((name) => [name, process.env[name]]));
beforeAll(() => {
  for (const name of variables) delete process.env[name];
  process.env['AWS_SHARED_CREDENTIALS_FILE'] = join(temporaryFolder(), 'none');
  process.env['AWS_CONFIG_FILE'] = join(temporaryFolder(), 'none');
  process.env['AWS_EC2_METADATA_DISABLED'] = 'true';
  process.env['AWS_ACCESS_KEY_ID'] = upstreamCredentials.accessKeyId;
  process.env['AWS_SECRET_ACCESS_KEY'] = upstreamCredentials.secretAccessKey;
});
afterAll(() => {
  for (const [name, value] of saved)
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
});
const closing: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of closing.splice(0).reverse()) await item.close();
});

/** Bedrock Runtime's answers to the paths calltape does not capture, given only to correctly signed requests. */
function answer(request: ReceivedRequest): unknown {
  if (request.url.startsWith('/guardrail/'))
    return {
      action: 'GUARDRAIL_INTERVENED',
      outputs: [{ text: 'Sorry, I cannot help with that.' }],
      assessments: [],
      usage: { topicPolicyUnits: 1, contentPolicyUnits: 1 },
    };
  if (request.url.endsWith('/count-tokens')) return { inputTokens: 42 };
  return { invocationArn, modelArn: 'arn:aws:bedrock:us-west-2::model/m', status: 'InProgress' };
}

function signedUpstream(verdicts: boolean[]) {
  return startScriptedUpstream((request): ScriptedResponse => ({
    kind: 'custom',
    handle: async (response) => {
      const valid = await validSignature(request, region);
      verdicts.push(valid);
      const [status, body] = valid
        ? [200, answer(request)]
        : [403, { message: 'The request signature we calculated does not match' }];
      response
        .writeHead(status, {
          'content-type': 'application/json',
          ...(valid ? {} : { 'x-amzn-errortype': 'InvalidSignatureException' }),
        })
        .end(JSON.stringify(body));
    },
  }));
}

const client = (url: string): BedrockRuntimeClient =>
  new BedrockRuntimeClient({ region, endpoint: url, credentials: agentCredentials });

describe('Bedrock Runtime paths calltape does not capture', () => {
  it('reach Bedrock re-signed for its endpoint (ApplyGuardrail, CountTokens, GET async-invoke by ARN), the agent’s credentials dropped, nothing recorded', async () => {
    const verdicts: boolean[] = [];
    const upstream = await signedUpstream(verdicts);
    closing.push(upstream);
    const cassette = join(temporaryFolder(), 'bedrock.sqlite');
    // The default upstream is down: only the Bedrock one can answer.
    const proxy = await startTestProxy('http://127.0.0.1:1', {
      cassette,
      mode: 'record',
      bedrockUpstream: upstream.url,
      bedrockRegion: region,
    });
    closing.push(proxy);
    const bedrock = client(proxy.url);

    const guardrail = await bedrock.send(
      new ApplyGuardrailCommand({
        guardrailIdentifier: 'gr-1',
        guardrailVersion: 'DRAFT',
        source: 'INPUT',
        content: [{ text: { text: 'How do I pick a lock?' } }],
      }),
    );
    const tokens = await bedrock.send(
      new CountTokensCommand({
        modelId: 'anthropic.claude-sonnet-4-5',
        input: { converse: { messages: [{ role: 'user', content: [{ text: 'Hi' }] }] } },
      }),
    );
    const job = await bedrock.send(new GetAsyncInvokeCommand({ invocationArn }));

    expect(guardrail.action).toBe('GUARDRAIL_INTERVENED');
    expect(guardrail.outputs).toEqual([{ text: 'Sorry, I cannot help with that.' }]);
    expect(tokens.inputTokens).toBe(42);
    expect([job.invocationArn, job.status]).toEqual([invocationArn, 'InProgress']);
    expect(verdicts).toEqual([true, true, true]);
    expect(upstream.received.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /guardrail/gr-1/version/DRAFT/apply',
      'POST /model/anthropic.claude-sonnet-4-5/count-tokens',
      `GET /async-invoke/${encodeURIComponent(invocationArn)}`,
    ]);
    for (const request of upstream.received) {
      expect(request.headers['authorization']).toContain(upstreamCredentials.accessKeyId);
      expect(request.headers['x-amz-security-token']).toBeUndefined();
    }
    await proxy.close();
    const db = new Database(cassette, { readonly: true });
    const stored = db.prepare('SELECT COUNT(*) AS n FROM interactions').get() as { n: number };
    db.close();
    expect(stored.n).toBe(0);
  });

  it('get Bedrock’s ResourceNotFoundException in replay, which answers only recorded routes, and never reach the upstream', async () => {
    const verdicts: boolean[] = [];
    const upstream = await signedUpstream(verdicts);
    closing.push(upstream);
    const recorder = await startTestProxy('http://127.0.0.1:1', { mode: 'record' });
    const cassette = recorder.config.cassette;
    await recorder.close();
    const replayer = await startTestProxy('http://127.0.0.1:1', {
      cassette,
      mode: 'replay',
      bedrockUpstream: upstream.url,
      bedrockRegion: region,
    });
    closing.push(replayer);
    const failure = await client(replayer.url)
      .send(new GetAsyncInvokeCommand({ invocationArn }))
      .then(
        () => undefined,
        (error: unknown) => error as { name: string; message: string },
      );
    expect(failure?.name).toBe('ResourceNotFoundException');
    expect(failure?.message).toContain('replay answers only recorded routes');
    expect(upstream.received).toEqual([]);
  });
});
