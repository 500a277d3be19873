import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseResult } from '../../test/support/case-result.js';
import { decodeRequest, type JsonRequest } from '../../test/support/otlp-receiver.js';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import type { CheckResult } from '../scoring/trajectory/types.js';
import type { Interaction } from '../trace/trace.js';
import { collectorName, lostSpansWarning, RunSpans, runExportBoundMs } from './run-spans.js';

const judge = (status: CheckResult['status'], reason: string | null): CheckResult => ({
  check: 'judge',
  status,
  score: status === 'pass' ? 0.9 : 0,
  reasons: status === 'pass' ? [] : status === 'fail' ? ['judge_failed'] : ['judge_error'],
  message: status === 'pass' ? null : `LLM judge: ${reason ?? 'failed'}`,
  details: { judge: 'llm', rubric: 'r', ...(reason === null ? {} : { reason }) },
});

const round = {
  id: 'i1',
  sessionId: 'case-1',
  provider: 'openai-chat',
  request: { model: 'm', stream: false, messages: [], tools: [] },
  response: undefined,
  status: 'complete',
  httpStatus: 200,
  error: undefined,
  timing: { startedAt: 1_764_460_800_000, firstByteMs: 1, totalMs: 5 },
} as unknown as Interaction;

describe('calltape test results and judge verdicts as gen_ai.evaluation.result events', () => {
  it('puts the case, the call score and every check — judges with their reason — on the case’s invoke_agent span', async () => {
    const file = join(temporaryFolder(), 'run.otlp.json');
    const spans = new RunSpans(
      { kind: 'file', path: file, captureContent: false },
      { agentName: 'bank' },
    );
    spans.case(
      caseResult('case-1', {
        status: 'error',
        score: 0.5,
        error: 'a judge could not answer',
        trajectory: {
          pass: false,
          status: 'error',
          score: 0.9,
          reasons: ['judge_error'],
          checks: [judge('pass', 'searched as the guideline asks'), judge('error', 'not JSON')],
        },
      }),
      [round],
    );
    await spans.finish();
    const [root] = decodeRequest(JSON.parse(readFileSync(file, 'utf8')) as JsonRequest).filter(
      (span) => span.name === 'invoke_agent bank',
    );
    expect(root?.status).toBe(2);
    const events = root?.events ?? [];
    expect(events.every((event) => event.name === 'gen_ai.evaluation.result')).toBe(true);
    expect(events.map((event) => event.attributes)).toEqual([
      {
        'gen_ai.evaluation.name': 'calltape.case',
        'gen_ai.evaluation.score.value': 0.5,
        'gen_ai.evaluation.score.label': 'error',
        'gen_ai.evaluation.explanation': 'a judge could not answer',
        'error.type': 'case_error',
        'calltape.case.id': 'case-1',
        'calltape.run': 'default',
      },
      {
        'gen_ai.evaluation.name': 'calltape.check.judge',
        'gen_ai.evaluation.score.value': 0.9,
        'gen_ai.evaluation.score.label': 'pass',
        'gen_ai.evaluation.explanation': 'searched as the guideline asks',
        'calltape.case.id': 'case-1',
        'calltape.run': 'default',
        'calltape.judge.kind': 'llm',
      },
      {
        'gen_ai.evaluation.name': 'calltape.check.judge',
        'gen_ai.evaluation.score.value': 0,
        'gen_ai.evaluation.score.label': 'error',
        'gen_ai.evaluation.explanation': 'LLM judge: not JSON',
        'error.type': 'judge_error',
        'calltape.case.id': 'case-1',
        'calltape.run': 'default',
        'calltape.judge.kind': 'llm',
      },
    ]);
  });
});

/** A collector that takes each export request and never answers it; `gaveUp` settles when the exporter drops the connection. */
async function hangingCollector() {
  let gaveUp!: () => void;
  const abandoned = new Promise<void>((resolve) => (gaveUp = resolve));
  const held: ServerResponse[] = [];
  const server = createServer((request, response) => {
    request.resume();
    held.push(response);
    response.on('close', gaveUp);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    abandoned,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a run whose collector never answers', () => {
  // Regression: a dead collector held a finished run for the exporter's 10 s deadline and its retries.
  it('finishes within the bound: the exporter gives the request up and every span is counted as lost', async () => {
    const collector = await hangingCollector();
    try {
      const spans = new RunSpans({
        kind: 'collector',
        settings: { url: collector.url, protocol: 'http/json', captureContent: false },
      });
      spans.case(caseResult('case-1'), [round]);
      const tally = await spans.finish();
      await collector.abandoned;
      expect(tally).toMatchObject({ spans: 0, dropped: 2 });
    } finally {
      await collector.close();
    }
  });
});

describe('the lost-spans warning', () => {
  const settings = { url: 'https://user:s3cret@collector.example:4318/v1/traces' };

  it('says how many of how many spans were lost, where they were going, and why, without the credentials', () => {
    const warning = lostSpansWarning(
      { spans: 1, dropped: 3, failure: `connect refused ${settings.url}` },
      settings,
    );
    expect(warning).toBe(
      `OpenTelemetry: 3 of 4 span(s) lost: https://REDACTED@collector.example:4318/v1/traces did not accept them within ${runExportBoundMs / 1000} s (connect refused https://REDACTED@collector.example:4318/v1/traces)`,
    );
    expect(warning).not.toContain('s3cret');
  });

  it('is silent when nothing was lost', () => {
    expect(lostSpansWarning({ spans: 5, dropped: 0 }, settings)).toBeUndefined();
  });

  it('names the OTel variable when the SDK reads the endpoint itself', () => {
    expect(collectorName({ url: undefined })).toBe('OTEL_EXPORTER_OTLP_ENDPOINT');
  });
});
