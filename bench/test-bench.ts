/**
 * `calltape test` benchmark (part of `npm run bench`): a 100-case suite replayed from its cassette
 * in direct mode and in agent mode with a Node agent on the `openai` package (bench/openai-agent.ts)
 * given two ways: as a command (a process per case: node's start and the SDK's import every
 * case) and as a module (`agent.module`, imported once per worker thread and called per case).
 * Rounds interleave every configuration, so load on the shared machine falls on all alike; wall
 * time and CPU time per case (this process's threads and the agents' processes) as min / median /
 * max. Writes bench/results/test-<timestamp>.json and docs/benchmarks-test.md.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultConfig } from '../src/config/config.js';
import { createLogger } from '../src/logger.js';
import { loadSuite } from '../src/suites/load-suite.js';
import { runSuite } from '../src/runner/run-suite.js';
import { defaultAgentConcurrency } from '../src/runner/module-agents.js';
import { chatCompletion } from '../test/support/openai-chat-chunks.js';
import {
  startScriptedUpstream,
  type ReceivedRequest,
  type ScriptedResponse,
} from '../test/support/scripted-upstream.js';
import { quick } from './bench-flags.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const size = quick ? 20 : 100;
const rounds = quick ? 1 : 3;
const cores = cpus().length;
const folder = mkdtempSync(join(tmpdir(), 'calltape-test-bench-'));
const cities = ['Paris', 'Tokyo', 'Lima', 'Oslo', 'Cairo', 'Quito', 'Lagos', 'Perth'];
const agentScript = join(root, 'dist/bench/openai-agent.js');

function model(request: ReceivedRequest): ScriptedResponse {
  const body = JSON.parse(request.body) as { messages: { content: string }[] };
  const city = /in (\w+) \(/.exec(body.messages.at(-1)?.content ?? '')?.[1] ?? 'Paris';
  return {
    kind: 'json',
    body: chatCompletion({
      toolCalls: [
        { id: 'call_1', name: 'get_weather', arguments: JSON.stringify({ city, unit: 'celsius' }) },
      ],
      usage: { prompt_tokens: 50, completion_tokens: 12 },
    }),
  };
}

const cases = Array.from({ length: size }, (_, i) => {
  const city = cities[i % cities.length] as string;
  return {
    test_id: `case-${i}`,
    prompt: `Weather in ${city} (request ${i})?`,
    expected_tool: 'get_weather',
    arguments: { city, unit: 'celsius' },
  };
});
const tools = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, unit: { type: 'string' } },
      },
    },
  },
];
const agents = {
  direct: undefined,
  command: { command: `${process.execPath} ${agentScript}`, input: 'arg' },
  module: { module: `${agentScript}#run` },
} as const;
for (const [drive, agent] of Object.entries(agents))
  writeFileSync(
    join(folder, `${drive}.json`),
    JSON.stringify({
      name: drive,
      model: 'bench',
      tools,
      cassette: `${drive}.sqlite`,
      ...(agent ? { agent } : {}),
      cases,
    }),
  );

/** CPU time (s) of this process's ended children (the agents' processes), from /proc/self/stat (10 ms ticks). */
function childrenCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

const upstream = await startScriptedUpstream(model);
const logger = createLogger('silent');
const now = new Date('2026-11-30T12:00:00Z');
type Drive = keyof typeof agents;
const configurations: { drive: Drive; concurrency: number }[] = [
  { drive: 'direct', concurrency: cores },
  { drive: 'command', concurrency: cores },
  { drive: 'module', concurrency: 1 },
  { drive: 'module', concurrency: cores },
  { drive: 'module', concurrency: defaultAgentConcurrency() },
];
const config = { ...defaultConfig, upstream: upstream.url, logLevel: 'silent' as const };
// The agent module is in dist/, the suites in a temporary folder.
const code = { run: true, outsideProject: true };
const suites = new Map(
  Object.keys(agents).map((drive) => [drive, loadSuite(join(folder, `${drive}.json`), folder)]),
);
for (const drive of Object.keys(agents))
  await runSuite(suites.get(drive) as ReturnType<typeof loadSuite>, {
    config,
    mode: 'record',
    now,
    logger,
    concurrency: cores,
    apiKey: 'sk-bench',
    code,
  });
const samples = configurations.map(() => ({
  seconds: [] as number[],
  cpuMs: [] as number[],
  passed: 0,
}));
for (let round = 0; round < rounds; round++)
  for (const [index, { drive, concurrency }] of configurations.entries()) {
    const cpu = process.cpuUsage();
    const children = childrenCpuSeconds();
    const began = performance.now();
    const result = await runSuite(suites.get(drive) as ReturnType<typeof loadSuite>, {
      config,
      mode: 'replay',
      now,
      logger,
      concurrency,
      code,
    });
    const seconds = (performance.now() - began) / 1000;
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6 + childrenCpuSeconds() - children;
    const sample = samples[index] as (typeof samples)[number];
    sample.seconds.push(seconds);
    sample.cpuMs.push((cpuSeconds / size) * 1000);
    sample.passed = result.cases.filter((item) => item.status === 'pass').length;
    process.stderr.write(
      `round ${round + 1}: ${drive} at concurrency ${concurrency}: ${size} cases in ${seconds.toFixed(2)} s, ${((cpuSeconds / size) * 1000).toFixed(0)} ms CPU per case, ${sample.passed} passed\n`,
    );
  }
await upstream.close();

/** min / median / max of a sample, rounded to `digits`. */
function spread(values: readonly number[], digits: number): string {
  const sorted = [...values].sort((left, right) => left - right);
  return [sorted[0], sorted[Math.floor(sorted.length / 2)], sorted.at(-1)]
    .map((value) => (value ?? 0).toFixed(digits))
    .join(' / ');
}
const median = (values: readonly number[]): number =>
  [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? 0;
const rows = configurations.map(({ drive, concurrency }, index) => {
  const sample = samples[index] as (typeof samples)[number];
  return { drive, concurrency, cases: size, ...sample, medianSeconds: median(sample.seconds) };
});

const date = new Date().toISOString();
const drives: Record<Drive, string> = {
  direct: 'direct (no agent)',
  command: 'agent.command (a process per case)',
  module: 'agent.module (worker threads)',
};
const lines = [
  '# calltape test benchmark',
  '',
  `Generated by \`npm run bench\` on ${date} (${cores} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}).`,
  `A ${size}-case suite replayed from its cassette (recorded first, not timed), ${rounds} rounds interleaving every row.`,
  'Direct mode sends each prompt through the in-process proxy. Agent mode runs bench/openai-agent.ts, one request',
  "through the `openai` package per case, as a command (`node openai-agent.js <prompt>`: node's start and the SDK's",
  'import every case) or as a module (`agent.module: openai-agent.js#run`: imported once per worker thread, called per',
  "case). Each case is scored and the gates checked. CPU per case counts this process's threads and the agents' processes.",
  `The last module row is 4 cases per core (${defaultAgentConcurrency()}), agent mode's default when recording, where agents wait on the model; replaying, the default is one per core.`,
  'promptfoo is not installed here; the issue (#37) measured it answering the same 100 cases from its cache in 3.3 s.',
  '',
  '| drive | concurrency | cases | wall time (s), min / median / max | CPU per case (ms), min / median / max | passed |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows.map(
    (row) =>
      `| ${drives[row.drive]} | ${row.concurrency} | ${row.cases} | ${spread(row.seconds, 2)} | ${spread(row.cpuMs, 0)} | ${row.passed} |`,
  ),
  '',
];
if (!quick) {
  writeFileSync(
    join(root, `bench/results/test-${date.replace(/[:.]/g, '-')}.json`),
    `${JSON.stringify({ date, size, cores, rows }, null, 2)}\n`,
  );
  writeFileSync(join(root, 'docs/benchmarks-test.md'), lines.join('\n'));
}
process.stdout.write(lines.join('\n'));
