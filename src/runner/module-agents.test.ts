import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config/config.js';
import { createLogger } from '../logger.js';
import { packageRoot } from '../package-root.js';
import { loadSuite } from '../suites/load-suite.js';
import { chatCompletion } from '../../test/support/openai-chat-chunks.js';
import {
  startScriptedUpstream,
  type ReceivedRequest,
  type ScriptedUpstream,
} from '../../test/support/scripted-upstream.js';
import { runSuite } from './run-suite.js';

const agentModule = join(packageRoot, 'dist/test/support/module-agent.js');
const cities = ['Paris', 'Lima', 'Oslo'];
const now = new Date('2026-11-30T12:00:00Z');
const logger = createLogger('silent');
// The fixture agent is compiled into dist/ (so `openai` resolves), the suites are in a temporary folder.
const code = { run: true, outsideProject: true };

function weatherModel(request: ReceivedRequest) {
  const body = JSON.parse(request.body) as { messages: { content: string }[] };
  const city = /in (\w+)\?/.exec(body.messages.at(-1)?.content ?? '')?.[1] ?? 'Paris';
  return {
    kind: 'json' as const,
    body: chatCompletion({
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: JSON.stringify({ city }) }],
    }),
  };
}

let upstream: ScriptedUpstream;
beforeAll(async () => {
  upstream = await startScriptedUpstream(weatherModel);
});
afterAll(() => upstream.close());

function writeSuite(agent: object, name = 'suite.json'): string {
  const folder = mkdtempSync(join(tmpdir(), 'calltape-module-agent-'));
  const file = join(folder, name);
  writeFileSync(
    file,
    JSON.stringify({
      name: 'module agent',
      model: 'gpt-4o-mini',
      cassette: 'agent.sqlite',
      agent,
      cases: cities.map((city, index) => ({
        test_id: `case-${index}`,
        prompt: `Weather in ${city}?`,
        expected_tool: 'get_weather',
        arguments: { city },
      })),
    }),
  );
  return file;
}

async function run(
  file: string,
  mode: 'record' | 'replay',
  upstreamUrl = upstream.url,
  policy = code,
) {
  const suite = loadSuite(file, process.cwd());
  return runSuite(suite, {
    config: { ...defaultConfig, upstream: upstreamUrl, logLevel: 'silent' },
    mode,
    now,
    logger,
    concurrency: 1,
    apiKey: 'sk-test-0123456789',
    code: policy,
  });
}

describe('agent.module: an agent calltape imports and calls per case', () => {
  it('records then replays cases through the real openai SDK, each case on its own session', async () => {
    const file = writeSuite({ module: `${agentModule}#run` });
    const recorded = await run(file, 'record');
    expect(recorded.cases.map((item) => item.status)).toEqual(['pass', 'pass', 'pass']);
    // Replay reaches no upstream (port 9 refuses): every answer comes from the cassette.
    const replayed = await run(file, 'replay', 'http://127.0.0.1:9');
    expect(replayed.cases.map((item) => item.status)).toEqual(['pass', 'pass', 'pass']);
    expect(replayed.cases.map((item) => item.agent?.exit_code)).toEqual([0, 0, 0]);
    expect(replayed.cases[1]?.agent?.stdout).toContain('case case-1 asked the model');
  });

  it("never lets a case's environment reach the next case run on the same thread", async () => {
    const file = writeSuite({ module: `${agentModule}#run`, env: { AGENT_FLAG: 'on' } });
    const result = await run(file, 'record');
    const seen = result.cases.map(
      (item) =>
        JSON.parse(/\{.*\}$/m.exec(item.agent?.stdout ?? '')?.[0] ?? 'null') as {
          caseId: string;
          caseIdInEnv: string;
          baseUrl: string;
          givenBaseUrl: string;
          leftByEarlierCase: string | null;
        },
    );
    for (const [index, item] of seen.entries()) {
      expect(item.caseId).toBe(`case-${index}`);
      expect(item.caseIdInEnv).toBe(`case-${index}`);
      expect(item.baseUrl).toBe(item.givenBaseUrl);
      expect(item.baseUrl).toMatch(new RegExp(`/s/case-${index}[^/]*/v1$`));
      // Case 0 set LEFT_BY_A_CASE on this thread; the cases after it start without it.
      expect(item.leftByEarlierCase).toBeNull();
    }
    // Each case scored only its own session's calls.
    expect(result.cases.map((item) => item.status)).toEqual(['pass', 'pass', 'pass']);
  });

  it('reports a module that throws as an error of that case, naming the suite file and agent.module', async () => {
    const file = writeSuite({ module: `${agentModule}#throws` });
    const result = await run(file, 'record');
    expect(result.cases.map((item) => item.status)).toEqual(['error', 'error', 'error']);
    expect(result.cases[0]?.error).toBe(
      `${file}: agent.module ${agentModule}#throws threw: Error: the agent module gave up`,
    );
    expect(result.cases[0]?.agent?.stderr).toContain('module-agent.js');
  });

  it('ends a case whose call never returns at timeout_ms and runs the next case on a new thread', async () => {
    const file = writeSuite({ module: `${agentModule}#hangsOnFirst`, timeout_ms: 1_000 });
    const result = await run(file, 'record');
    expect(result.cases[0]?.agent?.timed_out).toBe(true);
    expect(result.cases[0]?.problems).toContain('the agent module did not return within 1000 ms');
    expect(result.cases.slice(1).map((item) => item.status)).toEqual(['pass', 'pass']);
  });

  it('refuses to run a module without the named function export, naming the suite file, the field and what it exports', async () => {
    for (const name of ['missing', 'notAFunction']) {
      const file = writeSuite({ module: `${agentModule}#${name}` });
      await expect(run(file, 'record')).rejects.toThrow(
        `${file}: agent.module: ${agentModule}#${name}: ${agentModule} has no function export "${name}" (its function exports: hangsOnFirst, run, throws)`,
      );
    }
  });

  it('refuses a module that cannot load, naming the suite file and the field', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'calltape-module-agent-'));
    writeFileSync(join(folder, 'broken.mjs'), 'export function run( {');
    const file = join(folder, 'suite.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'broken',
        cassette: 'a.sqlite',
        agent: { module: './broken.mjs#run' },
        cases: [{ test_id: 'a', prompt: 'hi', expected_tool: 'x' }],
      }),
    );
    await expect(run(file, 'record')).rejects.toThrow(
      new RegExp(`^${file}: agent\\.module: \\./broken\\.mjs#run: cannot load .*broken\\.mjs: `),
    );
  });

  it('refuses the module under --no-code, as any user module, before a case runs', async () => {
    const file = writeSuite({ module: `${agentModule}#run` });
    await expect(
      run(file, 'record', upstream.url, { run: false, outsideProject: true }),
    ).rejects.toThrow(`${file}: agent.module: --no-code: refused to load ${agentModule}`);
  });

  it('refuses a module path that is not a file when the suite loads', () => {
    const file = writeSuite({ module: './missing.mjs#run' });
    expect(() => loadSuite(file, process.cwd())).toThrow(
      `${file}: agent.module: ./missing.mjs is not a file (looked for ${join(file, '..', 'missing.mjs')}: the path is relative to the suite file's folder)`,
    );
  });
});
