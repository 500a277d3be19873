import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { createRatingPage } from '../../src/runner/rating-page.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

// Regression for issue #30: `/calltape/api/rate?runs=/abs/or/../path` opened any file as a
// cassette, so the loopback proxy handed out another project's prompts, and its error texts
// told whether a path existed.
const bank = join(packageRoot, 'recordings/bank-demo.sqlite');
const project = temporaryFolder();
const elsewhere = temporaryFolder();
const secret = join(elsewhere, 'secret.sqlite');
let proxy: Awaited<ReturnType<typeof startTestProxy>> | undefined;

beforeAll(async () => {
  mkdirSync(join(project, 'recordings', 'team'), { recursive: true });
  copyFileSync(bank, join(project, 'recordings', 'team', 'bank.sqlite'));
  copyFileSync(bank, join(project, 'own.sqlite'));
  copyFileSync(bank, secret);
  symlinkSync(secret, join(project, 'recordings', 'linked.sqlite'));
  proxy = await startTestProxy(
    'http://127.0.0.1:9',
    { mode: 'passthrough' },
    {
      adminExtension: createRatingPage({
        cwd: project,
        ratingsDb: join(project, 'ratings.sqlite'),
        runsDb: join(project, 'runs.sqlite'),
        defaultTarget: 'own.sqlite',
        recordings: join(project, 'recordings'),
      }),
    },
  );
});
afterAll(async () => {
  await proxy?.close();
});

async function ask(path: string): Promise<{ status: number; message: string; runs: number }> {
  const response = await fetch(`${(proxy as NonNullable<typeof proxy>).url}${path}`);
  const body = (await response.json()) as {
    error?: { message: string };
    runs?: readonly unknown[];
  };
  return {
    status: response.status,
    message: body.error?.message ?? '',
    runs: body.runs?.length ?? 0,
  };
}
const rate = (runs: string): Promise<{ status: number; message: string; runs: number }> =>
  ask(`/calltape/api/rate?runs=${encodeURIComponent(runs)}`);
const refusal = (target: string): string =>
  `calltape: ${target}: not a cassette this page serves (the proxy's own cassette, or one under its recordings folder)`;

describe('the rating API serves only the proxy cassette and its recordings folder (issue #30)', () => {
  it("opens the proxy's own cassette and those under recordings/", async () => {
    expect(await ask('/calltape/api/rate')).toMatchObject({ status: 200, runs: 22 });
    expect(await rate('recordings/team/bank.sqlite')).toMatchObject({ status: 200, runs: 22 });
    const view = await ask(
      `/calltape/api/rate/view?run=${encodeURIComponent('recordings/team/bank.sqlite#TC-001')}`,
    );
    expect(view.status).toBe(200);
  });

  it('refuses a path outside the recordings folder with one error text whether or not it exists', async () => {
    const missing = join(elsewhere, 'missing.sqlite');
    const relativeEscape = 'recordings/../../' + join(elsewhere, 'secret.sqlite').slice(1);
    for (const target of [secret, missing, '../secret.sqlite', relativeEscape]) {
      const answer = await rate(target);
      expect(answer, target).toEqual({ status: 400, message: refusal(target), runs: 0 });
    }
  });

  it('refuses a symbolic link under recordings/ that leads out of it', async () => {
    expect(await rate('recordings/linked.sqlite')).toEqual({
      status: 400,
      message: refusal('recordings/linked.sqlite'),
      runs: 0,
    });
  });

  it('refuses to show a run of a cassette it does not serve, and to rate one', async () => {
    for (const cassette of [secret, join(elsewhere, 'missing.sqlite')]) {
      const view = await ask(
        `/calltape/api/rate/view?run=${encodeURIComponent(`${cassette}#TC-001`)}`,
      );
      expect(view).toEqual({ status: 400, message: refusal(cassette), runs: 0 });
    }
    const post = await fetch(`${(proxy as NonNullable<typeof proxy>).url}/calltape/api/rate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ runs: secret, run: `${secret}#TC-001`, key: 'f' }),
    });
    expect(post.status).toBe(400);
    expect(((await post.json()) as { error: { message: string } }).error.message).toBe(
      refusal(secret),
    );
  });
});
