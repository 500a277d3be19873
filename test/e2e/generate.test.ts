import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { loadSuite } from '../../src/suites/load-suite.js';
import { runCliAsync } from '../support/cli.js';
import { recordedRows } from '../support/recorded-rows.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { scriptedGenerator } from '../support/scripted-generator.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';
import { generateArgs } from '../../examples/bank/generate/generate-args.js';

const folder = temporaryFolder();
const tools = join(packageRoot, 'examples/bank/tools.json');
const guidelines = join(folder, 'guidelines.yaml');
writeFileSync(
  guidelines,
  [
    'description: A banking assistant.',
    'tools:',
    '  search_transactions:',
    '    should_use: [the customer asks about past payments]',
    '    should_not_use: [questions about balances]',
    '    topics: [refunds]',
    '',
  ].join('\n'),
);
const generate = (
  out: string,
  extra: readonly string[] = [],
  cassette = join(folder, 'generate.sqlite'),
  toolsFrom: readonly string[] = ['--tools', tools],
): ReturnType<typeof runCliAsync> =>
  runCliAsync(
    [
      'generate',
      '--guidelines',
      guidelines,
      ...toolsFrom,
      '--out',
      out,
      '--positive',
      '4',
      '--negative',
      '3',
      '--breadth',
      '2',
      '--cassette',
      cassette,
      ...extra,
    ],
    { cwd: folder },
  );
const recorded = recordedRows;

let upstream: ScriptedUpstream;
beforeAll(async () => {
  upstream = await startScriptedUpstream(scriptedGenerator);
});
afterAll(async () => {
  await upstream.close();
});

describe('calltape generate', () => {
  it('records the generator through the proxy, drops near-duplicates, writes pending drafts, and replays byte-identically offline', async () => {
    const first = join(folder, 'first.yaml');
    const recording = await generate(first, ['--mode', 'record', '--upstream', upstream.url]);
    expect(recording.status, recording.stderr).toBe(0);
    expect(upstream.received[0]?.body).toContain(
      'Start from these topics (keep them, refine them): \\"refunds\\"',
    );
    // One topic-tree request, then one per subtopic that gets a case (7 cases over 4 subtopics).
    expect(upstream.received.map((request) => request.url)).toEqual(
      Array(5).fill('/v1/chat/completions'),
    );
    // Each of the 4 subtopic answers carried one paraphrase of its first prompt.
    expect(recording.stdout).toContain(
      '2 topic(s) over 1 tool(s); 11 prompt(s) written, 7 kept (63.6%), 4 near-duplicate(s) dropped',
    );
    const suite = loadSuite(first, folder);
    expect(suite.cases).toEqual([]);
    expect(suite.drafts).toHaveLength(7);
    expect(suite.drafts.every((draft) => draft.review === 'pending')).toBe(true);
    const positives = suite.drafts.filter((draft) => draft.provenance?.kind === 'positive');
    const negatives = suite.drafts.filter((draft) => draft.provenance?.kind === 'negative');
    expect(positives).toHaveLength(4);
    expect(positives[0]).toMatchObject({
      expected_tool: 'search_transactions',
      arguments: { query: 'search_transactions topic 1 › detail 1a 1' },
      extra_arguments: 'ignore',
      provenance: {
        source: 'generated',
        guideline: 'the customer asks about past payments',
        generator: 'gpt-4o-mini',
        guidelines_file: 'guidelines.yaml',
      },
    });
    expect(negatives.map((draft) => draft.never)).toEqual(Array(3).fill(['search_transactions']));
    expect(negatives[0]?.provenance?.guideline).toBe('questions about balances');
    expect(readFileSync(first, 'utf8')).toMatch(/^tools: \.\.\/.*examples\/bank\/tools\.json$/m);

    const before = recorded(join(folder, 'generate.sqlite'));
    const second = join(folder, 'second.yaml');
    const replay = await generate(second);
    expect(replay.status, replay.stderr).toBe(0);
    expect(upstream.received).toHaveLength(5);
    expect(readFileSync(second, 'utf8')).toBe(readFileSync(first, 'utf8'));
    expect(replay.stdout.replace(/second/g, 'first')).toBe(recording.stdout);
    expect(recorded(join(folder, 'generate.sqlite'))).toEqual(before);
  });

  it('takes the tools from a captured request in any wire, asking the generator exactly what the tools file does', async () => {
    // The bank agent's recorded Chat Completions session, and an Anthropic agent offering the same tool as input_schema.
    const chat = join(folder, 'bank-demo.sqlite');
    copyFileSync(join(packageRoot, 'recordings/bank-demo.sqlite'), chat);
    const definitions = JSON.parse(readFileSync(tools, 'utf8')) as {
      function: { name: string; description: string; parameters: Anthropic.Tool.InputSchema };
    }[];
    const search = definitions.find((tool) => tool.function.name === 'search_transactions');
    const messages = join(folder, 'claude-agent.sqlite');
    const proxy = await startTestProxy(upstream.url, {
      mode: 'record',
      cassette: messages,
      anthropicUpstream: upstream.url,
    });
    const claude = new Anthropic({ apiKey: 'sk-ant-test', baseURL: proxy.url, maxRetries: 0 });
    await claude.messages.create(
      {
        model: 'claude-test',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'any refunds?' }],
        tools: [
          {
            name: 'search_transactions',
            description: search?.function.description ?? '',
            input_schema: search?.function.parameters ?? { type: 'object' },
          },
        ],
      },
      { headers: { 'x-calltape-session': 'claude-agent' } },
    );
    await proxy.close();
    const calls = upstream.received.length;
    for (const [source, out] of [
      [`${chat}#TC-001`, 'from-chat.yaml'],
      [messages, 'from-messages.yaml'],
    ] as const) {
      const result = await generate(out, [], join(folder, 'generate.sqlite'), [
        '--tools-from',
        source,
      ]);
      // Replayed from the first test's recording: the requests are byte for byte the ones the tools file made.
      expect(result.status, result.stderr).toBe(0);
      const suite = loadSuite(join(folder, out), folder);
      expect(suite.drafts.map((draft) => draft.prompt)).toEqual(
        loadSuite(join(folder, 'first.yaml'), folder).drafts.map((draft) => draft.prompt),
      );
      expect(Object.keys(suite.runs[0]?.schemas ?? {})).toContain('search_transactions');
    }
    expect(upstream.received.length).toBe(calls);

    const both = await runCliAsync(
      [
        'generate',
        '--guidelines',
        guidelines,
        '--tools',
        tools,
        '--tools-from',
        messages,
        '--out',
        'x.yaml',
      ],
      { cwd: folder },
    );
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('give exactly one of --tools <file> and --tools-from');
    const noSession = await runCliAsync(
      [
        'generate',
        '--guidelines',
        guidelines,
        '--tools-from',
        `${messages}#nobody`,
        '--out',
        'x.yaml',
      ],
      { cwd: folder },
    );
    expect(noSession.status).toBe(2);
    expect(noSession.stderr).toContain(`${messages}: no session "nobody" in this cassette`);
    expect(existsSync(join(folder, 'x.yaml'))).toBe(false);
  });

  it('asks an Anthropic generator on the Messages wire, recorded and replayed the same way', async () => {
    const cassette = join(folder, 'anthropic.sqlite');
    const extra = ['--provider', 'anthropic', '--generator-model', 'claude-sonnet-4-5'];
    const calls = upstream.received.length;
    const recording = await generate(
      join(folder, 'claude-one.yaml'),
      [...extra, '--mode', 'record', '--anthropic-upstream', upstream.url],
      cassette,
    );
    expect(recording.status, recording.stderr).toBe(0);
    expect(upstream.received.slice(calls).map((request) => request.url)).toEqual(
      Array(5).fill('/v1/messages'),
    );
    expect(JSON.parse(upstream.received[calls]?.body ?? '{}')).toMatchObject({
      model: 'claude-sonnet-4-5',
      system: expect.stringContaining('You write test cases') as string,
    });
    const replay = await generate(join(folder, 'claude-two.yaml'), extra, cassette);
    expect(replay.status, replay.stderr).toBe(0);
    expect(readFileSync(join(folder, 'claude-two.yaml'), 'utf8')).toBe(
      readFileSync(join(folder, 'claude-one.yaml'), 'utf8'),
    );
    expect(
      loadSuite(join(folder, 'claude-one.yaml'), folder).drafts[0]?.provenance?.generator,
    ).toBe('claude-sonnet-4-5');
  });

  it('replays the bundled bank demo offline into a pending suite for search_transactions, the same on every run', async () => {
    const cassette = join(folder, 'bank-generate.sqlite');
    copyFileSync(join(packageRoot, 'recordings/bank-generate.sqlite'), cassette);
    const demo = (out: string): ReturnType<typeof runCliAsync> =>
      runCliAsync([...generateArgs, '--out', out, '--cassette', cassette]);
    const [one, two] = [
      await demo(join(folder, 'bank-one.yaml')),
      await demo(join(folder, 'bank-two.yaml')),
    ];
    expect(one.status, one.stderr).toBe(0);
    expect(one.stdout).toContain(
      '3 topic(s) over 1 tool(s); 11 prompt(s) written, 10 kept (90.9%), 1 near-duplicate(s) dropped',
    );
    expect(readFileSync(join(folder, 'bank-two.yaml'), 'utf8')).toBe(
      readFileSync(join(folder, 'bank-one.yaml'), 'utf8'),
    );
    expect(two.status).toBe(0);
    const drafts = loadSuite(join(folder, 'bank-one.yaml'), folder).drafts;
    expect(drafts.map((draft) => draft.provenance?.kind)).toEqual([
      'positive',
      'negative',
      'positive',
      'negative',
      'positive',
      'negative',
      'positive',
      'negative',
      'positive',
      'positive',
    ]);
    expect(
      drafts.find((draft) => draft.prompt === 'How much money is in my savings account right now?')
        ?.provenance?.guideline,
    ).toBe('questions about balances');
  });

  it('appends to an existing suite without repeating its prompts, and calltape test lists the drafts but gates only reviewed cases', async () => {
    const out = join(folder, 'grown.yaml');
    const source = loadSuite(join(folder, 'first.yaml'), folder).drafts[0]?.prompt ?? '';
    writeFileSync(
      out,
      [
        '# Hand-written cases stay as they are.',
        'model: gpt-4o-mini',
        `tools: ${tools}`,
        'cases:',
        '  - test_id: greet',
        '    prompt: hello there',
        '    expected_tool: null',
        `  - test_id: own\n    prompt: ${JSON.stringify(source.toLowerCase())}\n    expected_tool: search_transactions`,
        '',
      ].join('\n'),
    );
    const result = await generate(out);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('11 prompt(s) written, 6 kept');
    const text = readFileSync(out, 'utf8');
    expect(text.startsWith('# Hand-written cases stay as they are.\n')).toBe(true);
    const suite = loadSuite(out, folder);
    expect(suite.cases.map((testCase) => testCase.test_id)).toEqual(['greet', 'own']);
    expect(suite.drafts).toHaveLength(6);

    const listed = await runCliAsync(['test', out, '--list'], { cwd: folder });
    expect(listed.stdout).toContain('grown.yaml: 2 case(s)');
    expect(listed.stdout).toContain('  + 6 draft case(s), not run (calltape review grown.yaml)\n');
    upstream.setScript(() => ({
      kind: 'json',
      body: chatCompletion({ text: 'Hello! How can I help?' }),
    }));
    const test = await runCliAsync(
      [
        'test',
        out,
        '--mode',
        'record',
        '--upstream',
        upstream.url,
        '--cassette',
        join(folder, 'grown-test.sqlite'),
        '--filter',
        'greet',
        '--no-store',
      ],
      { cwd: folder },
    );
    upstream.setScript(scriptedGenerator);
    expect(test.stdout).toMatch(
      /6 draft case\(s\) not run and not gated; pending review: gen-search_transactions-[0-9a-f]{8}/,
    );
    expect(test.stdout).toContain('1 case run(s)');
    expect(test.status, test.stdout + test.stderr).toBe(0);
  });

  it('refuses a suite of drafts only in calltape test, naming the file and how to review (exit 2)', async () => {
    const result = await runCliAsync(['test', join(folder, 'first.yaml')], { cwd: folder });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `CONFIG_INVALID: ${join(folder, 'first.yaml')}: cases: all 7 case(s) are drafts`,
    );
    expect(result.stderr).toContain('calltape review');
  });

  it('refuses guidelines for a tool the tools file does not define, naming the file and the field (exit 2)', async () => {
    const bad = join(folder, 'unknown-tool.yaml');
    writeFileSync(bad, 'tools:\n  search_transaction:\n    should_use: [past payments]\n');
    const result = await runCliAsync(
      ['generate', '--guidelines', bad, '--tools', tools, '--out', join(folder, 'never.yaml')],
      { cwd: folder },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `CONFIG_INVALID: ${bad}: tools.search_transaction: no such tool in ${tools}`,
    );
    expect(existsSync(join(folder, 'never.yaml'))).toBe(false);
  });

  it('runs every draft through the agent with --run, so each carries what the model did beside what the guideline expects', async () => {
    // One upstream plays both: the generator, and the agent's model, which searches whenever a prompt says "Please".
    upstream.setScript((request, call) => {
      if (request.body.includes('You write test cases')) return scriptedGenerator(request);
      const asked = request.body.includes('"content":"Please');
      return {
        kind: 'json',
        body: chatCompletion(
          asked && !request.body.includes('"role":"tool"')
            ? {
                toolCalls: [
                  { id: `call_${call}`, name: 'search_transactions', arguments: '{"query":"x"}' },
                ],
              }
            : { text: 'Here you are.' },
        ),
      };
    });
    const out = join(folder, 'ran.yaml');
    const result = await generate(
      out,
      ['--mode', 'record', '--upstream', upstream.url, '--agent-model', 'gpt-4o-mini', '--run'],
      join(folder, 'ran-generate.sqlite'),
    );
    upstream.setScript(scriptedGenerator);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'ran 7 draft(s) through the agent: 3 as the guideline expects, 4 not, 0 could not run',
    );
    const drafts = loadSuite(out, folder).drafts;
    expect(drafts.every((draft) => draft.review === 'pending')).toBe(true);
    const positive = drafts.find((draft) => draft.provenance?.kind === 'positive');
    expect(positive?.provenance?.captured).toEqual({
      session: positive?.test_id,
      verdict: 'fail',
      calls: ['search_transactions({"query":"x"})'],
    });
    const negative = drafts.find((draft) => draft.provenance?.kind === 'negative');
    expect(negative?.provenance?.captured).toEqual({
      session: negative?.test_id,
      verdict: 'pass',
      calls: [],
    });
    // The runs are in the suite's cassette under each draft's id: what the review shows as the trace.
    const listed = await runCliAsync(['review', out, '--list'], { cwd: folder });
    expect(listed.stdout).toContain(
      'agent did: search_transactions({"query":"x"}) — NOT as expected',
    );
    expect(listed.stdout).toContain('agent did: no tool call — as expected');
    const noModel = await generate(join(folder, 'never-run.yaml'), ['--run']);
    expect(noModel.status).toBe(2);
    expect(noModel.stderr).toContain(
      "--run: the drafts are run in direct mode, which needs the agent's model",
    );
    expect(existsSync(join(folder, 'never-run.yaml'))).toBe(false);
  });

  it('refuses a generator answer that is not the JSON asked for (exit 3) and writes no suite at all', async () => {
    upstream.setScript(() => ({
      kind: 'json',
      body: chatCompletion({ text: 'Sure! Here are some topics: refunds, fees.' }),
    }));
    const out = join(folder, 'chatty.yaml');
    const result = await generate(
      out,
      ['--mode', 'record', '--upstream', upstream.url],
      join(folder, 'chatty.sqlite'),
    );
    upstream.setScript(scriptedGenerator);
    expect(result.status).toBe(3);
    expect(result.stderr).toContain(
      'GENERATOR_FAILED: generator gpt-4o-mini: the topic tree of "search_transactions": the answer is not JSON: Sure! Here are some topics',
    );
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(folder).filter((name) => name.includes('.calltape-'))).toEqual([]);
  });

  it('names the cassette and how to record it when replay has no recording (exit 1)', async () => {
    const result = await generate(join(folder, 'missing.yaml'), ['--positive', '9']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/CASSETTE_MISS: .*generate\.sqlite: /);
    expect(result.stderr).toContain('--mode record');
    expect(existsSync(join(folder, 'missing.yaml'))).toBe(false);
  });
});

describe('calltape review', () => {
  const review = (suite: string, extra: readonly string[] = []): ReturnType<typeof runCliAsync> =>
    runCliAsync(['review', suite, ...extra], { cwd: folder });

  it('lists every draft with its prompt, guideline and expectation, and changes nothing', async () => {
    const suite = join(folder, 'listed.yaml');
    copyFileSync(join(folder, 'first.yaml'), suite);
    const result = await review(suite);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('listed.yaml: 7 draft case(s), 7 pending review');
    expect(result.stdout).toMatch(
      /gen-search_transactions-[0-9a-f]{8} \[pending\] generated positive · search_transactions\n {2}prompt: {4}Please [a-z ]+\?\n {2}guideline: the customer asks about past payments\n {2}topic: {5}search_transactions topic 1 › detail 1a\n {2}expects: {3}search_transactions \{"query":/,
    );
    expect(result.stdout).toContain('expects:   never search_transactions');
    expect(readFileSync(suite, 'utf8')).toBe(readFileSync(join(folder, 'first.yaml'), 'utf8'));
  });

  it('accepts and rejects by id: accepted drafts become ordinary cases with their provenance, rejected ones go (or stay marked)', async () => {
    const suite = join(folder, 'reviewed.yaml');
    copyFileSync(join(folder, 'first.yaml'), suite);
    const [one, two, three] = loadSuite(suite, folder).drafts.map((draft) => draft.test_id);
    const first = await review(suite, ['--accept', `${one},${two}`, '--reject', `${three}`]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toBe('reviewed.yaml: 2 accepted, 1 rejected (removed); 4 still pending\n');
    const after = loadSuite(suite, folder);
    expect(after.cases.map((testCase) => testCase.test_id)).toEqual([one, two]);
    expect(after.cases[0]?.provenance).toMatchObject({ source: 'generated', kind: 'positive' });
    expect(after.cases[0]).not.toHaveProperty('review');
    expect(after.drafts.map((draft) => draft.test_id)).not.toContain(three);

    const rest = await review(suite, ['--reject', 'all', '--keep-rejected']);
    expect(rest.stdout).toBe(
      'reviewed.yaml: 0 accepted, 4 rejected (kept as review: rejected); 0 still pending\n',
    );
    expect(loadSuite(suite, folder).drafts.map((draft) => draft.review)).toEqual(
      Array(4).fill('rejected'),
    );
  });

  it('refuses an unknown id or a case that is no draft, naming the file and the case, and writes nothing (exit 2)', async () => {
    const suite = join(folder, 'refused.yaml');
    copyFileSync(join(folder, 'first.yaml'), suite);
    const [one] = loadSuite(suite, folder).drafts.map((draft) => draft.test_id);
    const unknown = await review(suite, ['--accept', `${one},gen-nope`]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain(
      `CONFIG_INVALID: ${suite}: case "gen-nope": no such case; pending: ${one}`,
    );
    expect(readFileSync(suite, 'utf8')).toBe(readFileSync(join(folder, 'first.yaml'), 'utf8'));
    expect((await review(suite, ['--accept', `${one}`])).status).toBe(0);
    const again = await review(suite, ['--reject', `${one}`]);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain(
      `CONFIG_INVALID: ${suite}: case "${one}": review: not a draft (it is already an ordinary case)`,
    );
  });
});
