import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliAsync } from '../support/cli.js';
import { startOtlpReceiver } from '../support/otlp-receiver.js';
import { temporaryFolder } from '../support/test-proxy.js';

/** A loopback port that refuses connections: the OS picked it, then it was closed. */
async function refusingPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const lost =
  /calltape warning: OpenTelemetry: (\d+) of (\d+) span\(s\) lost: (\S+) did not accept them/;

// Regression: a dead collector turned a 3 s run into 11 s, and the closing line quoted the endpoint's password.
describe('OpenTelemetry export to a dead collector', () => {
  it('calltape test finishes with its own exit code and one warning saying how many spans were lost and where to', async () => {
    const port = await refusingPort();
    const run = await runCliAsync(
      [
        'test',
        'examples/bank/suite.yaml',
        '--no-store',
        '--json',
        join(temporaryFolder(), 'report.json'),
        '--otlp-endpoint',
        `http://calltape:s3cret@127.0.0.1:${port}`,
      ],
      { env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } },
    );
    expect(run.status, run.stderr).toBe(0);
    const [, dropped, total, where] = lost.exec(run.stderr) ?? [];
    expect(Number(dropped)).toBeGreaterThan(0);
    expect(dropped).toBe(total);
    expect(where).toBe(`http://REDACTED@127.0.0.1:${port}/v1/traces`);
    expect(run.stderr.match(/OTLP|OpenTelemetry/g)).toHaveLength(1);
    expect(run.stdout).toContain(
      `OpenTelemetry: 0 span(s) sent to http://REDACTED@127.0.0.1:${port}/v1/traces`,
    );
    expect(run.stdout + run.stderr).not.toContain('s3cret');
  }, 120_000);

  it('cassettes export to a collector that never answers gives the request up, warns with the count lost and exits 3', async () => {
    const receiver = await startOtlpReceiver();
    receiver.setBehaviour('hang');
    try {
      const run = await runCliAsync(
        [
          'cassettes',
          'export',
          'recordings/bank-demo.sqlite',
          '--format',
          'otlp',
          '--otlp-endpoint',
          receiver.url,
        ],
        { env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } },
      );
      expect(run.status, run.stderr).toBe(3);
      expect(receiver.requests.length).toBeGreaterThan(0);
      const [, dropped, total] = lost.exec(run.stderr) ?? [];
      expect(Number(dropped)).toBeGreaterThan(0);
      expect(dropped).toBe(total);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
