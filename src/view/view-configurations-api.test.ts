import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from '../runner/run-store.js';
import { cases, runs, suiteRun } from '../../test/support/configuration-runs.js';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { viewApiErrors } from '../../test/support/view-api-schema.js';
import { configurationsPath } from './api-types.js';
import { startViewServer, type ViewServer } from './view-server.js';

const folder = temporaryFolder();
const runsDb = join(folder, 'calltape-runs.sqlite');
let server: ViewServer | undefined;

beforeAll(async () => {
  // #1 of both configurations (small, bare), #2 of bare alone.
  const store = new RunStore(runsDb);
  for (const result of [suiteRun(runs, cases), suiteRun(runs.slice(1), cases)])
    store.save(result, 0, JSON.stringify(result));
  store.close();
  server = await startViewServer({
    runsDb,
    cwd: folder,
    host: '127.0.0.1',
    port: 0,
    token: undefined,
  });
});
afterAll(async () => {
  await server?.close();
});

async function json(path: string) {
  const answer = await request(`${(server as ViewServer).origin}/calltape/api/v1/${path}`);
  return { status: answer.statusCode, body: JSON.parse(await answer.body.text()) };
}

describe('calltape view configurations API (side by side)', () => {
  it('puts a run of several configurations side by side: tools offered, pass rate, judges, tokens, cost, latency, per tool and tag', async () => {
    const { status, body } = await json(configurationsPath(['1']));
    expect(status).toBe(200);
    expect(viewApiErrors('configurations', body)).toEqual([]);
    expect(body.runs.map((run: { id: number }) => run.id)).toEqual([1]);
    expect(body.matrix.columns).toMatchObject([
      { run: '#1:small', tools_offered: ['search'], pass_rate: 0.5, cost_usd: 0.0004 },
      { run: '#1:bare', tools_offered: [], unreliable: 1, cost_usd: null },
    ]);
    expect(body.matrix.by_tool).toEqual([
      { group: 'search', cells: [{ passed: 1, total: 1, pass_rate: 1 }, null] },
    ]);
  });

  it('puts configurations of several runs side by side, labelled as calltape compare labels them', async () => {
    const { status, body } = await json(configurationsPath(['1:small', '2']));
    expect(status).toBe(200);
    expect(viewApiErrors('configurations', body)).toEqual([]);
    expect(body.matrix.columns.map((column: { run: string }) => column.run)).toEqual([
      '#1:small',
      '#2',
    ]);
  });

  it('names the bad run value, the missing run and the missing configuration in its error shape', async () => {
    const answers = await Promise.all(
      [
        'configurations',
        'configurations?run=x',
        configurationsPath(['9']),
        configurationsPath(['2:small']),
      ].map(json),
    );
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 404, 404]);
    for (const answer of answers) expect(viewApiErrors('error', answer.body)).toEqual([]);
    expect(answers[1]?.body.error.message).toContain('run "x"');
    expect(answers[2]?.body.error.message).toContain('no run #9');
    expect(answers[3]?.body.error.message).toContain('run #2 has no configuration "small"');
    const tooMany = await json(configurationsPath(Array.from({ length: 13 }, () => '1')));
    expect(tooMany.status).toBe(400);
  });
});
