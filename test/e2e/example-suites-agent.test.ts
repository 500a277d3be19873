import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { packageRoot } from '../../src/package-root.js';
import { runCliAsync } from '../support/cli.js';
import { lookupThenActModel } from '../support/lookup-then-act-model.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

/** The compiled lookup-then-act agent (test/support/lookup-then-act-agent.ts). */
const agentScript = join(packageRoot, 'dist/test/support/lookup-then-act-agent.js');

/** The suite of the README's step 4, as written there (the first YAML block after "**4. Test**"). */
function readmeSuite(): Record<string, unknown> {
  const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
  const step = readme.slice(readme.indexOf('**4. Test**'));
  const block = /```yaml\n([\s\S]*?)```/.exec(step)?.[1];
  if (block === undefined) throw new Error('README.md has no YAML block after step 4');
  return parse(block) as Record<string, unknown>;
}

/** The suite `calltape init` writes. */
function initSuite(): Record<string, unknown> {
  return parse(readFileSync(join(packageRoot, 'assets/init/calltape.yaml'), 'utf8')) as Record<
    string,
    unknown
  >;
}

interface Report {
  cases: {
    test_id: string;
    status: string;
    problems: string[];
    call: { is_correct: boolean; reasons: string[] } | null;
    calls: { name: string }[];
  }[];
}

let upstream: ScriptedUpstream;
beforeAll(async () => {
  upstream = await startScriptedUpstream(lookupThenActModel);
});
afterAll(() => upstream.close());

/** Points the suite at the agent (as the README and the template tell the user to) and records it. */
async function runAgainstAgent(
  suite: Record<string, unknown>,
  tools: 'orders' | 'weather',
): Promise<{ status: number | null; stdout: string; report: Report }> {
  const folder = temporaryFolder();
  const file = join(folder, 'calltape.yaml');
  writeFileSync(
    file,
    stringify({
      ...suite,
      cassette: 'recordings/agent.sqlite',
      agent: { command: `node ${agentScript}`, env: { LOOKUP_AGENT_TOOLS: tools } },
    }),
  );
  const report = join(folder, 'report.json');
  const result = await runCliAsync(
    ['test', file, '--mode', 'record', '--upstream', upstream.url, '--json', report],
    { env: { OPENAI_API_KEY: 'sk-test-key-0123456789abcdef' }, cwd: folder },
  );
  return {
    status: result.status,
    stdout: result.stdout + result.stderr,
    report: JSON.parse(readFileSync(report, 'utf8')) as Report,
  };
}

describe('issue 31: the README step-4 case failed on a lookup-then-act agent with "a different tool was called"', () => {
  it("passes the README's step-4 suite, verbatim, on an agent that looks the order up, then refunds with a reason", async () => {
    const { status, stdout, report } = await runAgainstAgent(readmeSuite(), 'orders');
    expect(report.cases.map((item) => item.calls.map((call) => call.name))).toEqual([
      ['get_order', 'issue_refund'],
    ]);
    expect(report.cases.map((item) => [item.test_id, item.status, item.problems])).toEqual([
      ['refund-order', 'pass', []],
    ]);
    expect(status, stdout).toBe(0);
  });

  it("passes `calltape init`'s example suite, verbatim, on an agent that looks the city up before asking the weather", async () => {
    const { status, stdout, report } = await runAgainstAgent(initSuite(), 'weather');
    expect(report.cases.map((item) => [item.test_id, item.status, item.problems])).toEqual([
      ['weather-paris', 'pass', []],
      ['greeting-no-tool', 'pass', []],
    ]);
    expect(report.cases[0]?.calls.map((call) => call.name)).toEqual(['find_city', 'get_weather']);
    expect(status, stdout).toBe(0);
  });

  it('fails the README case on an agent that also emails, naming the email as the cause (the refund itself is right)', async () => {
    const suite = readmeSuite() as { cases: { prompt: string }[] };
    const emailing = {
      ...suite,
      cases: suite.cases.map((item) => ({ ...item, prompt: `${item.prompt}, and email me` })),
    };
    const { status, report } = await runAgainstAgent(emailing, 'orders');
    const [refund] = report.cases;
    expect(refund?.calls.map((call) => call.name)).toEqual([
      'get_order',
      'issue_refund',
      'send_email',
    ]);
    expect(refund?.call).toMatchObject({ is_correct: true, reasons: [] });
    expect(refund?.status).toBe('fail');
    expect(refund?.problems.join('\n')).toMatch(/send_email/);
    expect(refund?.problems.join('\n')).not.toMatch(/a different tool was called/);
    expect(status).toBe(1);
  });

  it('flags a never that names a tool the agent never offers (a typo), instead of passing it silently', async () => {
    const suite = readmeSuite() as { cases: object[] };
    const typo = {
      ...suite,
      cases: suite.cases.map((item) => ({ ...item, never: ['send_emial'] })),
    };
    const { status, report } = await runAgainstAgent(typo, 'orders');
    expect(report.cases[0]).toMatchObject({
      status: 'unreliable',
      problems: [
        'never: send_emial names a tool this run never offered the model, so the check cannot fail (offered: get_order, issue_refund, send_email); did you mean send_email?',
      ],
    });
    expect(status).toBe(1);
  });
});
