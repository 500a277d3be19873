import { readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { startScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

const running: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const item of running) await item.close();
});

async function proxyWith(
  allowRequestOverride: boolean,
  maxOpen = 32,
): Promise<{ url: string; folder: string }> {
  const upstream = await startScriptedUpstream(() => ({
    kind: 'json',
    body: chatCompletion({ text: 'ok' }),
  }));
  running.push(upstream);
  const folder = temporaryFolder();
  const proxy = await startTestProxy(upstream.url, {
    cassette: join(folder, 'default.sqlite'),
    mode: 'passthrough',
    cassettes: { allowRequestOverride, maxOpen },
  });
  running.push(proxy);
  return { url: proxy.url, folder };
}

async function ask(url: string, prefix: string): Promise<{ status: number; message: string }> {
  const response = await fetch(`${url}${prefix}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"model":"m","messages":[]}',
  });
  const body = (await response.json()) as { error?: { message: string } };
  return { status: response.status, message: body.error?.message ?? '' };
}

/** The cassette files this process holds open (the store worker is a thread of it), by cassette. */
function openCassettes(folder: string): Set<string> {
  const open = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(join('/proc/self/fd', fd));
      if (target.startsWith(folder)) open.add(target.replace(/-(wal|shm|journal)$/, ''));
    } catch {
      // The descriptor closed while we looked.
    }
  }
  return open;
}

describe('cassette choice by request', () => {
  it('is off by default: /c/<name>:record/ is refused, even on a pass-through proxy', async () => {
    const { url } = await proxyWith(false);
    const answer = await ask(url, '/c/anything:record');
    expect(answer.status).toBe(400);
    expect(answer.message).toContain('cassettes.allowRequestOverride');
  });

  it('refuses reserved names and files that are not regular files in the recordings folder', async () => {
    const { url, folder } = await proxyWith(true);
    for (const name of ['calltape-shadow', 'calltape-runs', 'CALLTAPE-RATINGS']) {
      const answer = await ask(url, `/c/${name}:record`);
      expect([answer.status, answer.message.includes('reserved')], name).toEqual([400, true]);
    }
    const outside = join(temporaryFolder(), 'elsewhere.sqlite');
    writeFileSync(outside, 'not yours');
    symlinkSync(outside, join(folder, 'linked.sqlite'));
    const linked = await ask(url, '/c/linked:record');
    expect([linked.status, linked.message.includes('not a regular file')]).toEqual([400, true]);
    expect(readFileSync(outside, 'utf8')).toBe('not yours');
  });

  it('caps open cassettes, closing the least recently used', async () => {
    const { url, folder } = await proxyWith(true, 2);
    for (let index = 0; index < 6; index++)
      expect((await ask(url, `/c/name-${index}:record`)).status).toBe(200);
    const open = openCassettes(folder);
    expect(open.size).toBeLessThanOrEqual(2);
    expect(open.has(join(folder, 'name-5.sqlite'))).toBe(true);
  });
});
