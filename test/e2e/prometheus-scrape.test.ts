import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/config.js';
import { startScriptedUpstream } from '../support/scripted-upstream.js';
import { ask, bankModel, bankPolicies, eventually, writePolicies } from '../support/shadow-bank.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

const prometheusPath = '/usr/bin/prometheus';
// CI installs Debian's prometheus and sets CALLTAPE_REQUIRE_PROMETHEUS, so there the test can never be skipped.
const available = existsSync(prometheusPath) || process.env['CALLTAPE_REQUIRE_PROMETHEUS'] === '1';

const running: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const item of running.splice(0).reverse()) await item.close();
});

/** A free loopback port: Prometheus cannot be told to pick one and report it. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.skipIf(!available)('a real Prometheus server scraping two proxies', () => {
  it('scrapes /metrics with the bearer token and aggregates a policy failure across replicas', async () => {
    const upstream = await startScriptedUpstream(bankModel);
    running.push(upstream);
    const folder = temporaryFolder();
    const token = 'scrape-token-0123456789';
    const policies = writePolicies(folder, bankPolicies());
    const replicas = [];
    for (const name of ['a', 'b']) {
      const proxy = await startTestProxy(upstream.url, {
        mode: 'passthrough',
        admin: { ...defaultConfig.admin, token },
        shadow: {
          ...defaultConfig.shadow,
          policies,
          database: join(folder, `shadow-${name}.sqlite`),
        },
      });
      running.push(proxy);
      replicas.push(proxy);
      await ask(
        new OpenAI({
          apiKey: 'sk-test-key-0123456789abcdef',
          baseURL: proxy.baseUrl,
          maxRetries: 0,
        }),
        'transfer big',
        { session: `s-${name}` },
      );
    }
    // The scrape configuration the README documents for a fleet of replicas.
    const tokenFile = join(folder, 'calltape-token');
    writeFileSync(tokenFile, token);
    writeFileSync(
      join(folder, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        'scrape_configs:',
        '  - job_name: calltape',
        '    authorization:',
        `      credentials_file: ${tokenFile}`,
        '    static_configs:',
        `      - targets: [${replicas.map((proxy) => `'${proxy.url.replace('http://', '')}'`).join(', ')}]`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    const child: ChildProcess = spawn(
      prometheusPath,
      [
        `--config.file=${join(folder, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(folder, 'tsdb')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: 'ignore' },
    );
    running.push({
      close: () =>
        new Promise<void>((resolve) =>
          child.exitCode !== null
            ? resolve()
            : (child.once('exit', () => resolve()), child.kill('SIGTERM')),
        ),
    });
    const query = async (
      expression: string,
    ): Promise<{ metric: Record<string, string>; value: [number, string] }[]> => {
      const response = await fetch(
        `http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(expression)}`,
      );
      const body = (await response.json()) as {
        data: { result: { metric: Record<string, string>; value: [number, string] }[] };
      };
      return body.data.result;
    };
    const result = await eventually(async () => {
      const found = await query(
        'sum by (policy, reason) (calltape_policy_failures_total{tool="transfer_money"})',
      );
      expect(found).toHaveLength(1);
      expect(found[0]?.value[1]).toBe('2');
      return found;
    }, 30_000);
    expect(result[0]?.metric).toEqual({ policy: 'transfer-limits', reason: 'out_of_range' });
    const up = await query('up{job="calltape"}');
    expect(up.map((series) => series.value[1])).toEqual(['1', '1']);
  }, 60_000);
});
