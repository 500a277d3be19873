import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportCassette, importCassette } from '../../src/cassette/sqlite/cassette-files.js';
import { mergeCassette } from '../../src/cassette/sqlite/cassette-maintenance.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { startScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

let cassette: string;
let id: string;
beforeAll(async () => {
  const upstream = await startScriptedUpstream([
    { kind: 'json', body: chatCompletion({ text: 'ok' }) },
  ]);
  cassette = join(temporaryFolder(), 'source.sqlite');
  const proxy = await startTestProxy(upstream.url, { cassette });
  await new OpenAI({
    apiKey: 'sk-x',
    baseURL: proxy.baseUrl,
    maxRetries: 0,
  }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
  await proxy.close();
  await upstream.close();
  const db = new Database(cassette, { readonly: true });
  id = db.prepare('SELECT id FROM interactions').pluck().get() as string;
  db.close();
});

/** A copy of the cassette whose one interaction has `badId`. */
function withId(badId: string): string {
  const copy = join(temporaryFolder(), 'evil.sqlite');
  writeFileSync(copy, readFileSync(cassette));
  const db = new Database(copy);
  db.prepare('UPDATE interactions SET id = ?').run(badId);
  db.close();
  return copy;
}

describe('export paths: ids from files become file names', () => {
  it('refuses an imported interaction id that climbs out of the folder', () => {
    const folder = join(temporaryFolder(), 'export');
    exportCassette(cassette, folder);
    for (const name of readdirSync(folder))
      writeFileSync(
        join(folder, name),
        readFileSync(join(folder, name), 'utf8').replaceAll(id, '../../escape'),
      );
    expect(() => importCassette(folder, join(temporaryFolder(), 'in.sqlite'))).toThrow(
      /id: "..\/..\/escape" is not an interaction id/,
    );
  });

  it('refuses to merge a cassette holding such an id, and to export one', () => {
    const evil = withId('../../../tmp/owned');
    expect(() => mergeCassette(cassette, evil)).toThrow(/is not an interaction id/);
    const parent = temporaryFolder();
    expect(() => exportCassette(evil, join(parent, 'out'))).toThrow(/cannot be a file name/);
    expect(existsSync(join(parent, 'tmp'))).toBe(false);
  });

  it('deletes only files export itself wrote, never through symlinks', () => {
    const outside = join(temporaryFolder(), 'precious.yaml');
    writeFileSync(outside, 'keep me');
    const folder = join(temporaryFolder(), 'export');
    exportCassette(cassette, folder);
    writeFileSync(join(folder, 'notes.yaml'), 'mine');
    symlinkSync(outside, join(folder, '000099-link.yaml'));
    exportCassette(cassette, folder);
    expect(readFileSync(join(folder, 'notes.yaml'), 'utf8')).toBe('mine');
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
    // A link where export would write is refused, not written through.
    const linked = join(temporaryFolder(), 'export');
    exportCassette(cassette, linked);
    const target = readdirSync(linked).find((name) => name.endsWith('.timings.yaml')) ?? '';
    rmSync(join(linked, target));
    symlinkSync(outside, join(linked, target));
    expect(() => exportCassette(cassette, linked)).toThrow(/never writes through a link/);
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
  });
});
