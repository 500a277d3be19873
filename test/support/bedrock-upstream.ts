import { Hash } from '@smithy/core/serde';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { SignatureV4 } from '@smithy/signature-v4';
import type { JsonValue } from '../../src/trace/trace.js';
import type { ReceivedRequest, ScriptedResponse } from './scripted-upstream.js';

/** The credentials the scripted Bedrock upstream checks signatures with, and calltape signs with (from its environment). */
export const upstreamCredentials = {
  accessKeyId: 'AKIDCALLTAPEUPSTREAM',
  secretAccessKey: 'upstream-secret-0123456789abcdefghijklmnop',
};

const encoder = new TextEncoder();
const codec = new EventStreamCodec(
  (bytes: Uint8Array) => new TextDecoder().decode(bytes),
  (text: string) => encoder.encode(text),
);

/** ConverseStream events as Bedrock frames them, written by the AWS SDK's codec. */
export function converseFrames(events: readonly { readonly [type: string]: JsonValue }[]): Buffer {
  return Buffer.concat(
    events.map((event) => {
      const [type, payload] = Object.entries(event)[0] as [string, JsonValue];
      return codec.encode({
        headers: {
          ':event-type': { type: 'string', value: type },
          ':content-type': { type: 'string', value: 'application/json' },
          ':message-type': { type: 'string', value: 'event' },
        },
        body: encoder.encode(JSON.stringify(payload)),
      });
    }),
  );
}

/**
 * Whether a request carries a valid SigV4 signature by `upstreamCredentials` for service
 * `bedrock`, checked the way the service does: the same request, signed again at its
 * `x-amz-date` over the headers it lists as signed, must give the same `Authorization`.
 */
export async function validSignature(request: ReceivedRequest, region: string): Promise<boolean> {
  const authorization = request.headers['authorization'];
  const date = request.headers['x-amz-date'];
  if (typeof authorization !== 'string' || typeof date !== 'string') return false;
  const signed = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? [];
  const headers: Record<string, string> = {};
  for (const name of signed) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const signer = new SignatureV4({
    service: 'bedrock',
    region,
    credentials: upstreamCredentials,
    sha256: Hash.bind(null, 'sha256'),
    uriEscapePath: true,
  });
  const [path = '/', query = ''] = request.url.split('?');
  const again = await signer.sign(
    {
      method: request.method,
      protocol: 'http:',
      hostname: (headers['host'] ?? '').split(':')[0] ?? '',
      path,
      query: Object.fromEntries(new URLSearchParams(query)),
      headers,
      body: request.body,
    },
    {
      signingDate: new Date(
        date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
      ),
    },
  );
  return again.headers['authorization'] === authorization;
}

/**
 * A Bedrock Runtime upstream that answers only correctly signed requests: a `converse` with the
 * next JSON answer, a `converse-stream` with the same answer's events as frames, anything badly
 * signed with Bedrock's 403.
 */
export function signedBedrockScript(
  region: string,
  answers: readonly {
    readonly json: JsonValue;
    readonly events: readonly { readonly [type: string]: JsonValue }[];
  }[],
  verdicts: boolean[],
): (request: ReceivedRequest, callNumber: number) => ScriptedResponse {
  return (request, callNumber) => ({
    kind: 'custom',
    handle: async (response) => {
      const valid = await validSignature(request, region);
      verdicts.push(valid);
      const answer = answers[callNumber];
      if (!valid || !answer) {
        response
          .writeHead(403, {
            'content-type': 'application/json',
            'x-amzn-errortype': 'InvalidSignatureException',
          })
          .end(JSON.stringify({ message: 'The request signature we calculated does not match' }));
        return;
      }
      if (request.url.endsWith('/converse-stream')) {
        response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
        const frames = converseFrames(answer.events);
        // Two writes cut inside a frame: the proxy must pass and read them whatever the split.
        response.write(frames.subarray(0, 37));
        response.end(frames.subarray(37));
        return;
      }
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(answer.json));
    },
  });
}
