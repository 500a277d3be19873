import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { chatCompletion } from './openai-chat-chunks.js';
import { seededRandom, type Random } from './random.js';
import { startScriptedUpstream, type ReceivedRequest } from './scripted-upstream.js';

/** Runs `calltape <args>` in a folder (the compiled CLI under test). */
export type RunCli = (
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
) => Promise<{ status: number | null; stdout: string; stderr: string }>;

/** What re-recording a suite after a system-prompt change did to the committed cassette's diff. */
export interface RerecordOutcome {
  /** The cassette's text (the git textconv) after the first recording and after the re-recording. */
  readonly before: string;
  readonly after: string;
  /** `git diff` of the cassette through the textconv driver. */
  readonly diff: string;
  /** Lines the diff adds or removes (not its headers or context). */
  readonly changedLineCount: number;
  /** The case ids in the order the upstream answered them, per recording. */
  readonly answerOrders: readonly (readonly string[])[];
}

export const scenarioCases = ['alpha', 'bravo', 'charlie', 'delta', 'echo'] as const;
const cities = ['Paris', 'Oslo', 'Lima', 'Cairo', 'Perth'];

/**
 * The re-record of issue #31: five cases recorded at once (`--concurrency 5`) against an
 * upstream that answers like a real provider (a fresh completion id, timestamp, call id and
 * request id each time), committed; then the system prompt changes, the model's answer changes
 * in `changedCase`, and the suite is recorded again. The upstream waits until every case's
 * request arrived and answers them one after another, in the opposite order the second time,
 * so recording order differs between the two recordings however the runner schedules.
 */
export async function rerecordScenario(options: {
  readonly folder: string;
  readonly cli: string;
  readonly run: RunCli;
  /** The case whose answer changes on the second recording; none when absent. */
  readonly changedCase?: (typeof scenarioCases)[number];
  /** The system prompt of the second recording; the first one's when absent. */
  readonly secondSystem?: string;
}): Promise<RerecordOutcome> {
  const { folder, cli, run } = options;
  const git = (...args: string[]): string =>
    execFileSync(
      'git',
      ['-c', `diff.calltape.textconv=${process.execPath} ${cli} cassettes show`, ...args],
      {
        cwd: folder,
        encoding: 'utf8',
      },
    );
  git('init', '--quiet');
  git('config', 'user.email', 'scenario@example.invalid');
  git('config', 'user.name', 'scenario');
  writeFileSync(join(folder, '.gitattributes'), '*.sqlite diff=calltape\n');
  const suite = join(folder, 'suite.json');
  const writeSuite = (system: string): void =>
    writeFileSync(
      suite,
      JSON.stringify({
        name: 'rerecord',
        model: 'gpt-4o-mini',
        system,
        cassette: 'recordings/weather.sqlite',
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              parameters: {
                type: 'object',
                properties: { city: { type: 'string' }, unit: { type: 'string' } },
                required: ['city'],
              },
            },
          },
        ],
        cases: scenarioCases.map((id, index) => ({
          test_id: id,
          prompt: `What is the weather in ${cities[index] ?? 'Paris'}?`,
          expected_tool: 'get_weather',
          arguments: { city: cities[index] ?? 'Paris' },
        })),
      }),
    );
  let changed = false;
  const answerOrders: string[][] = [];
  const upstream = await startScriptedUpstream();
  const record = async (seed: number, reversed: boolean): Promise<void> => {
    const order: string[] = [];
    answerOrders.push(order);
    const random = seededRandom(seed);
    const waiting: { id: string; answer: () => Promise<void> }[] = [];
    let release: () => void = () => undefined;
    const all = new Promise<void>((resolve) => (release = resolve));
    upstream.setScript((request) => ({
      kind: 'custom',
      handle: async (response) => {
        const id = caseOf(request);
        const answered = new Promise<void>((resolve) => response.once('close', resolve));
        waiting.push({
          id,
          answer: () => {
            respond(response, id, random);
            return answered;
          },
        });
        if (waiting.length === scenarioCases.length) release();
        await all;
      },
    }));
    const runs = run(
      [
        'test',
        suite,
        '--mode',
        'record',
        '--concurrency',
        '5',
        '--upstream',
        upstream.url,
        '--no-store',
      ],
      { cwd: folder, env: { OPENAI_API_KEY: 'sk-scenario' } },
    );
    await all;
    const sorted = [...waiting].sort((a, b) => a.id.localeCompare(b.id));
    for (const next of reversed ? sorted.reverse() : sorted) {
      order.push(next.id);
      await next.answer();
    }
    const result = await runs;
    if (result.status !== 0 && result.status !== 1)
      throw new Error(
        `calltape test --mode record exited ${String(result.status)}: ${result.stderr}`,
      );
  };
  const respond = (response: ServerResponse, id: string, random: Random): void => {
    const city = cities[scenarioCases.indexOf(id as (typeof scenarioCases)[number])] ?? 'Paris';
    const unit = changed && id === options.changedCase ? 'fahrenheit' : 'celsius';
    const body = {
      ...(chatCompletion({
        id: `chatcmpl-${token(random)}`,
        toolCalls: [
          {
            id: `call_${token(random)}`,
            name: 'get_weather',
            arguments: JSON.stringify({ city, unit }),
          },
        ],
        usage: { prompt_tokens: 60, completion_tokens: 14 },
      }) as Record<string, unknown>),
      created: 1_764_460_800 + random.int(86_400),
      system_fingerprint: `fp_${token(random)}`,
    };
    const text = JSON.stringify(body);
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      'x-request-id': `req_${token(random)}`,
      'openai-processing-ms': String(200 + random.int(800)),
      'x-ratelimit-remaining-requests': String(9_000 + random.int(999)),
    });
    response.end(text);
  };
  try {
    const firstSystem = 'You are a weather assistant. Use the tools to answer.';
    writeSuite(firstSystem);
    await record(1, false);
    git('add', '-A');
    git('commit', '--quiet', '-m', 'record');
    const before = (await run(['cassettes', 'show', 'recordings/weather.sqlite'], { cwd: folder }))
      .stdout;
    writeSuite(options.secondSystem ?? firstSystem);
    changed = true;
    await record(2, true);
    const after = (await run(['cassettes', 'show', 'recordings/weather.sqlite'], { cwd: folder }))
      .stdout;
    const diff = git('diff', '--', 'recordings/weather.sqlite');
    return { before, after, diff, changedLineCount: changedLines(diff).length, answerOrders };
  } finally {
    await upstream.close();
  }
}

/** The lines a unified diff adds or removes, headers and context left out (a YAML `---` line removed reads `----`). */
export function changedLines(diff: string): string[] {
  const lines: string[] = [];
  let inHunk = false;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git')) inHunk = false;
    else if (line.startsWith('@@')) inHunk = true;
    else if (inHunk && (line.startsWith('+') || line.startsWith('-'))) lines.push(line);
  }
  return lines;
}

function caseOf(request: ReceivedRequest): string {
  const body = JSON.parse(request.body) as { messages: { content: string }[] };
  const prompt = body.messages.at(-1)?.content ?? '';
  const index = cities.findIndex((city) => prompt.includes(city));
  return scenarioCases[index] ?? 'unknown';
}

function token(random: Random): string {
  return Array.from(
    { length: 12 },
    () => 'abcdefghijklmnopqrstuvwxyz0123456789'[random.int(36)],
  ).join('');
}
