import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync, startCliProxy } from '../support/cli.js';
import {
  decodeRequest,
  startOtlpReceiver,
  type JsonRequest,
  type OtlpReceiver,
  type ReceivedSpan,
} from '../support/otlp-receiver.js';
import { temporaryFolder } from '../support/test-proxy.js';

const bank = 'examples/bank/suite.yaml';
const json = { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };

/** Every span's parent is in the same set (no dangling links), and chat and tool spans sit under an invoke_agent span. */
function expectWellFormed(spans: readonly ReceivedSpan[]): void {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  for (const span of spans) {
    if (span.name.startsWith('invoke_agent')) expect(span.parentSpanId).toBeUndefined();
    else expect(byId.get(span.parentSpanId ?? '')?.name, span.name).toMatch(/^invoke_agent/);
  }
}

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await receiver.close();
});

describe('OpenTelemetry export from the CLI', () => {
  it('calltape test --otlp-endpoint sends each case as an invoke_agent span with its scores as evaluation events', async () => {
    const folder = temporaryFolder();
    const run = await runCliAsync(
      [
        'test',
        bank,
        '--no-store',
        '--json',
        join(folder, 'report.json'),
        '--otlp-endpoint',
        receiver.url,
      ],
      { env: json },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /OpenTelemetry: \d+ span\(s\) sent to http:\/\/127\.0\.0\.1:\d+\/v1\/traces/,
    );
    const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as {
      cases: { test_id: string; status: string; score: number }[];
    };
    const spans = receiver.spans();
    expectWellFormed(spans);
    const roots = spans.filter((span) => span.name === 'invoke_agent bank');
    expect(roots.map((root) => root.attributes['calltape.case.id']).sort()).toEqual(
      report.cases.map((item) => item.test_id).sort(),
    );
    for (const item of report.cases) {
      const root = roots.find((span) => span.attributes['calltape.case.id'] === item.test_id);
      expect(root?.attributes).toMatchObject({
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'bank',
        'calltape.case.status': item.status,
      });
      const verdict = root?.events.find(
        (event) => event.attributes['gen_ai.evaluation.name'] === 'calltape.case',
      );
      expect(verdict).toMatchObject({
        name: 'gen_ai.evaluation.result',
        attributes: {
          'gen_ai.evaluation.score.label': item.status,
          'gen_ai.evaluation.score.value': item.score,
        },
      });
      expect(
        spans.some((span) => span.traceId === root?.traceId && span.name.startsWith('chat ')),
      ).toBe(true);
    }
  }, 60_000);

  it('calltape cassettes export --format otlp writes every recorded round trip to an OTLP/JSON file', async () => {
    const file = join(temporaryFolder(), 'bank.otlp.json');
    const run = await runCliAsync([
      'cassettes',
      'export',
      'recordings/bank-demo.sqlite',
      '--format',
      'otlp',
      '--out',
      file,
    ]);
    expect(run.status, run.stderr).toBe(0);
    const [, interactions] = /exported (\d+) interaction/.exec(run.stdout) ?? [];
    const spans = decodeRequest(JSON.parse(readFileSync(file, 'utf8')) as JsonRequest);
    expectWellFormed(spans);
    const chats = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
    expect(chats).toHaveLength(Number(interactions));
    for (const chat of chats)
      expect(chat).toMatchObject({ kind: 3, attributes: { 'gen_ai.provider.name': 'openai' } });
    expect(spans.some((span) => span.attributes['gen_ai.operation.name'] === 'execute_tool')).toBe(
      true,
    );
  });

  it('calltape cassettes export --format otlp --otlp-endpoint sends to the collector', async () => {
    const before = receiver.requests.length;
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
      { env: json },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(receiver.requests.length).toBeGreaterThan(before);
  });

  // Regression: the export flags reached the config layer, which refused them as unknown fields (exit 2).
  it('calltape proxy --otlp-endpoint --runs-db starts and says where the spans go', async () => {
    const proxy = await startCliProxy(
      [
        '--mode',
        'passthrough',
        '--upstream',
        'http://127.0.0.1:9',
        '--otlp-endpoint',
        receiver.url,
        '--otlp-capture-content',
        '--runs-db',
        join(temporaryFolder(), 'runs.sqlite'),
      ],
      { cwd: temporaryFolder() },
    );
    try {
      expect(proxy.stdout()).toContain(
        `OpenTelemetry: GenAI spans to ${receiver.url}/v1/traces (with content)`,
      );
    } finally {
      proxy.child.kill('SIGTERM');
      await proxy.exited;
    }
  });

  it('the proxy banner never shows the user-info of --otlp-endpoint or --upstream', async () => {
    const withUser = (url: string): string => url.replace('://', '://user:password@');
    const proxy = await startCliProxy(
      [
        '--mode',
        'record',
        '--upstream',
        'http://upstream-user:upstream-password@127.0.0.1:9/?api_key=upstream-key-1234',
        '--otlp-endpoint',
        withUser(receiver.url),
      ],
      { cwd: temporaryFolder() },
    );
    try {
      const banner = proxy.stdout();
      expect(banner).toContain('OpenTelemetry: GenAI spans to');
      expect(banner).not.toContain('user:password');
      expect(banner).not.toContain('password');
      expect(banner).not.toContain('upstream-key-1234');
    } finally {
      proxy.child.kill('SIGTERM');
      await proxy.exited;
    }
  });

  it('refuses an --otlp-endpoint that is not a URL with exit 2, naming the flag', async () => {
    const run = await runCliAsync([
      'cassettes',
      'export',
      'recordings/bank-demo.sqlite',
      '--format',
      'otlp',
      '--otlp-endpoint',
      'collector:4318/x y',
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--otlp-endpoint');
  });
});
