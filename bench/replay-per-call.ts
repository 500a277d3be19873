/**
 * The replay-per-call row of `npm run bench` (issue 37): 1,000 recorded calls from the `openai`
 * package, odd ones streamed, answers of 2–20 KB (`sdk-traffic.ts`), sent one after another.
 * Each round sends all of them once through every path, in alternating order: the floor (a bare
 * server answering from memory, `bare-answer-server.ts`), `calltape proxy --mode replay` (of
 * each build given) and talkback replaying tapes it recorded itself. Every path runs in a
 * process of its own; the client is this process.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import OpenAI from 'openai';
import { threadsCpuUs } from './process-cpu.js';
import { sendCalls } from './sdk-client.js';
import { startChild } from './start-child.js';

/** A path's ms per call in each round, and its server's CPU ms per call (all its threads). */
export interface PerCallRow {
  readonly path: string;
  readonly msPerCall: number[];
  readonly cpuMsPerCall: number[];
}

interface Path {
  readonly name: string;
  readonly client: OpenAI;
  readonly pid: number;
  /** How many of the calls it is sent each round (talkback's linear search makes all too slow). */
  readonly calls: number;
  readonly stop: () => void;
}

const clientOf = (port: number, session?: string): OpenAI =>
  new OpenAI({
    apiKey: 'sk-bench',
    baseURL: `http://127.0.0.1:${port}/v1`,
    maxRetries: 0,
    // A session per round: every lookup is the first of its key in its scope, as when an agent
    // is replayed again.
    ...(session === undefined ? {} : { defaultHeaders: { 'x-calltape-session': session } }),
  });

/**
 * Measures every path over `rounds` rounds of `calls` calls; `builds` are the calltape package
 * folders to compare (name and folder), recorded once with the first.
 */
export async function measureReplayPerCall(
  root: string,
  folder: string,
  builds: readonly (readonly [string, string])[],
  calls: number,
  rounds: number,
  withTalkback = true,
): Promise<PerCallRow[]> {
  const env = { BENCH_CALLS: String(calls) };
  const bare = await startChild(
    root,
    [join(root, 'dist/bench/bare-answer-server.js')],
    env,
    /^(\d+)\n/,
  );
  const cassette = join(folder, 'sdk-calls.sqlite');
  const recorded = spawnSync(
    join(builds[0]?.[1] ?? root, 'dist/src/cli/main.js'),
    [
      'record',
      '--cassette',
      cassette,
      '--upstream',
      `http://127.0.0.1:${bare.port}`,
      '--',
      process.execPath,
      join(root, 'dist/bench/sdk-client.js'),
    ],
    { cwd: folder, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (recorded.status !== 0) throw new Error(`recording the SDK calls exited ${recorded.status}`);

  let sessions = 0;
  const paths: Path[] = [
    {
      name: 'bare server answering from memory (floor)',
      client: clientOf(bare.port),
      pid: bare.child.pid ?? 0,
      calls,
      stop: () => bare.child.kill('SIGKILL'),
    },
  ];
  for (const [name, build] of builds) {
    const proxy = await startChild(
      root,
      [
        join(build, 'dist/src/cli/main.js'),
        'proxy',
        '--port',
        '0',
        '--mode',
        'replay',
        '--cassette',
        cassette,
        '--log-level',
        'error',
      ],
      {},
      /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    );
    paths.push({
      name: `calltape replay${name === '' ? '' : ` (${name})`}`,
      get client() {
        return clientOf(proxy.port, `per-call-${sessions++}`);
      },
      pid: proxy.child.pid ?? 0,
      calls,
      stop: () => proxy.child.kill('SIGKILL'),
    });
  }
  if (withTalkback)
    paths.push(await talkbackPath(root, folder, bare.port, calls, Math.min(calls, 200)));
  const once = async (path: Path): Promise<[number, number]> => {
    const cpu = threadsCpuUs(path.pid);
    const began = performance.now();
    if (!(await sendCalls(path.client, 0, path.calls)))
      throw new Error(`${path.name} answered wrong`);
    const ms = (performance.now() - began) / path.calls;
    return [ms, (threadsCpuUs(path.pid) - cpu) / 1000 / path.calls];
  };
  for (const path of paths) await once(path); // warm-up: JIT, connections, page cache
  const rows = paths.map((path) => ({
    path: path.name,
    msPerCall: [] as number[],
    cpuMsPerCall: [] as number[],
  }));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? paths : [...paths].reverse();
    for (const path of order) {
      const [ms, cpuMs] = await once(path);
      rows[paths.indexOf(path)]?.msPerCall.push(ms);
      rows[paths.indexOf(path)]?.cpuMsPerCall.push(cpuMs);
    }
    process.stderr.write(`replay per call, round ${round + 1}/${rounds}\n`);
  }
  for (const path of paths) path.stop();
  return rows;
}

/**
 * talkback replaying the `calls` tapes it recorded itself from the bare server; it is sent the
 * first `sent` of them each round.
 */
async function talkbackPath(
  root: string,
  folder: string,
  barePort: number,
  calls: number,
  sent: number,
): Promise<Path> {
  const tapes = join(folder, 'sdk-tapes');
  const recorder = await startChild(
    root,
    [join(root, 'dist/bench/talkback-server.js')],
    {
      BENCH_TALKBACK_MODE: 'record',
      BENCH_UPSTREAM: `http://127.0.0.1:${barePort}`,
      BENCH_TAPES: tapes,
    },
    /^(\d+)\n/,
  );
  if (!(await sendCalls(clientOf(recorder.port), 0, calls)))
    throw new Error('talkback recorded wrong answers');
  recorder.child.kill('SIGKILL');

  const talkback = await startChild(
    root,
    [join(root, 'dist/bench/talkback-server.js')],
    {
      BENCH_TALKBACK_MODE: 'replay',
      BENCH_TAPES: tapes,
    },
    /^(\d+)\n/,
  );
  return {
    name: `talkback 4 (the first ${sent} calls)`,
    client: clientOf(talkback.port),
    pid: talkback.child.pid ?? 0,
    calls: sent,
    stop: () => talkback.child.kill('SIGKILL'),
  };
}
