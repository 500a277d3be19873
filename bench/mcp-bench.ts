/**
 * MCP relay benchmark (part of `npm run bench`): the round trip of one tools/call from the
 * official SDK client, direct to the test server vs through calltape relaying only
 * (passthrough), relaying and recording every answer (record), and answering from the cassette
 * with no server (replay) — over stdio (`calltape mcp`) and Streamable HTTP (`calltape proxy`'s
 * `/mcp/<name>`), all in one run, on one machine. Writes docs/benchmarks-mcp.md.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectMcpClient, mcpTestServer, viaCalltape } from '../test/support/mcp-client.js';
import { startNotesHttpServer } from '../test/support/mcp-http-server.js';
import { quick } from './bench-flags.js';
import { percentile } from './measure.js';
import { startConfiguredProxy } from './mcp-proxy-child.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Rounds per phase; each round calls every configuration `perRound` times, in turn. */
const rounds = 5;
const perRound = quick ? 40 : 400;
const warmup = 50;
const folder = mkdtempSync(join(tmpdir(), 'calltape-mcp-bench-'));
const token = 'bench-bearer-0123456789';

interface Connection {
  call(i: number): Promise<unknown>;
  close(): Promise<void>;
}
type Configuration = readonly [name: string, connect: () => Promise<Connection>];

const stdio = (command: readonly string[]) => async (): Promise<Connection> => {
  const connected = await connectMcpClient(command);
  return {
    call: (i) => connected.client.callTool({ name: 'add', arguments: { a: i, b: 1 } }),
    close: () => connected.close(),
  };
};

const http = (url: string) => async (): Promise<Connection> => {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'calltape-bench', version: '0.0.1' });
  await client.connect(transport);
  return {
    call: (i) => client.callTool({ name: 'add', arguments: { a: i, b: 1 } }),
    close: async () => {
      await transport.terminateSession();
      await client.close();
    },
  };
};

interface Row {
  readonly name: string;
  readonly p50: number;
  readonly p99: number;
  /** Per round: this row's median over the direct row's median of the same round. */
  readonly ratios: { readonly min: number; readonly median: number; readonly max: number };
}

/** Connects every configuration and calls them in turn, so machine noise hits every row alike. */
async function phase(configurations: readonly Configuration[]): Promise<Row[]> {
  const connections = [];
  for (const [, connect] of configurations) connections.push(await connect());
  for (let i = 0; i < warmup; i++) for (const connection of connections) await connection.call(i);
  const all: number[][] = configurations.map(() => []);
  const ratios: number[][] = configurations.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const samples: number[][] = configurations.map(() => []);
    for (let i = 0; i < perRound; i++) {
      for (const [index, connection] of connections.entries()) {
        const started = performance.now();
        await connection.call(i);
        samples[index]?.push(performance.now() - started);
      }
    }
    const direct = percentile(samples[0] ?? [], 50);
    samples.forEach((values, index) => {
      all[index]?.push(...values);
      ratios[index]?.push(percentile(values, 50) / direct);
    });
  }
  for (const connection of connections) await connection.close();
  return configurations.map(([name], index) => {
    const spread = ratios[index] ?? [];
    return {
      name,
      p50: percentile(all[index] ?? [], 50),
      p99: percentile(all[index] ?? [], 99),
      ratios: {
        min: Math.min(...spread),
        median: percentile(spread, 50),
        max: Math.max(...spread),
      },
    };
  });
}

/** `calltape proxy` as its own process, serving `/mcp/notes` in front of `server` (shadow-scoring with `shadowed`). */
async function proxy(
  mode: string,
  server: string,
  cassette: string,
  shadowed = false,
): Promise<string> {
  const policies = join(folder, 'policies.yaml');
  writeFileSync(policies, 'policies:\n  - id: valid-arguments\n    kind: schema\n');
  const config = {
    mcp: { servers: { notes: server } },
    ...(shadowed ? { shadow: { policies, database: join(folder, `${mode}-shadow.sqlite`) } } : {}),
  };
  const configFile = join(folder, `${mode}${shadowed ? '-shadowed' : ''}.config.json`);
  const started = await startConfiguredProxy(root, configFile, config, mode, cassette);
  return `${started.url}/mcp/notes`;
}

const server = [process.execPath, mcpTestServer];
const stdioCassette = join(folder, 'stdio.sqlite');
const httpCassette = join(folder, 'http.sqlite');
const notes = await startNotesHttpServer(token);
const directStdio: Configuration = ['stdio: direct (no calltape)', stdio(server)];
const directHttp: Configuration = ['HTTP: direct (no calltape)', http(notes.url)];
// A shadow-scoring proxy the stdio relay reports its calls to (`--report-to`).
const reportTo = await proxy('passthrough', notes.url, join(folder, 'unused.sqlite'), true);

// Replay runs in a later phase: the relay records an answer just after forwarding it, so a
// replay racing the recorder could ask before the row is committed.
const phases = [
  await phase([
    directStdio,
    [
      'stdio: calltape mcp passthrough',
      stdio(viaCalltape(['--name', 'bench', '--mode', 'passthrough'], server)),
    ],
    [
      'stdio: calltape mcp record',
      stdio(
        viaCalltape(['--name', 'bench', '--mode', 'record', '--cassette', stdioCassette], server),
      ),
    ],
    [
      'stdio: calltape mcp passthrough, each call reported to a shadow-scoring proxy (--report-to)',
      stdio(
        viaCalltape(['--name', 'bench', '--mode', 'passthrough', '--report-to', reportTo], server),
      ),
    ],
  ]),
  await phase([
    directStdio,
    [
      'stdio: calltape mcp replay (no server)',
      stdio(viaCalltape(['--name', 'bench', '--mode', 'replay', '--cassette', stdioCassette], [])),
    ],
  ]),
  await phase([
    directHttp,
    [
      'HTTP: /mcp/notes passthrough',
      http(await proxy('passthrough', notes.url, join(folder, 'unused.sqlite'))),
    ],
    ['HTTP: /mcp/notes record', http(await proxy('record', notes.url, httpCassette))],
    [
      'HTTP: /mcp/notes passthrough, shadow scoring on (each tools/call goes to the scorer)',
      http(await proxy('passthrough', notes.url, join(folder, 'unused.sqlite'), true)),
    ],
  ]),
  await phase([
    directHttp,
    [
      'HTTP: /mcp/notes replay (no server)',
      http(await proxy('replay', 'http://127.0.0.1:9/mcp', httpCassette)),
    ],
  ]),
];
await notes.close();
const rows = phases.flat();
const date = new Date().toISOString();
const ratio = (value: number) => `${value.toFixed(2)}×`;
const lines = [
  '# MCP relay benchmark (stdio and Streamable HTTP)',
  '',
  `${date}, Node ${process.version}, ${cpus().length} CPU(s), shared with other engineers' builds and tests while it ran (absolute times are noisy; compare rows of one phase). Official SDK client and server; sequential tools/call round trips; per phase ${warmup} warm-up calls per configuration, then ${rounds} rounds of ${perRound} calls per configuration, the configurations called in turn. Phases: stdio direct / passthrough / record / passthrough reporting to a proxy; stdio direct / replay; HTTP direct / passthrough / record / passthrough with shadow scoring; HTTP direct / replay. "vs direct" is each round's median over the direct row's median in the same round: min, median and max over the ${rounds} rounds. Over HTTP the test server and the client share this process; calltape proxy is its own process. Generated by \`node dist/bench/mcp-bench.js\`.`,
  '',
  '| configuration | p50 ms | p99 ms | vs direct: min | median | max |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows.map(
    (row) =>
      `| ${row.name} | ${row.p50.toFixed(3)} | ${row.p99.toFixed(3)} | ${ratio(row.ratios.min)} | ${ratio(row.ratios.median)} | ${ratio(row.ratios.max)} |`,
  ),
  '',
  'Over stdio the relay adds one process hop each way (two pipe writes and reads per message) and, in record mode, one SQLite insert per answer after the answer was forwarded. Over HTTP it adds one HTTP hop (the proxy forwards the POST and streams the answer back) and, recording, reads the answer off the stream beside it. Replay has no server behind it.',
  '',
];
process.stdout.write(lines.join('\n'));
writeFileSync(
  join(root, `bench/results/mcp-${date.replace(/[:.]/g, '-')}.json`),
  `${JSON.stringify({ date, rounds, perRound, rows }, null, 2)}\n`,
);
writeFileSync(join(root, 'docs/benchmarks-mcp.md'), lines.join('\n'));
process.exit(0);
