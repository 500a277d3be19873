import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { CassetteUseStore, noteCassetteUse } from './cassette-use-store.js';
import { runsDatabaseBeside } from './run-store.js';

const usage = (
  startedAt: number,
  servedIds: string[],
  shard?: { index: number; count: number },
  errors?: number,
) => ({
  cassette: '/c.sqlite',
  mode: 'replay' as const,
  startedAt,
  endedAt: startedAt + 1,
  servedIds,
  missed: 0,
  ...(shard ? { shard } : {}),
  ...(errors === undefined ? {} : { errors }),
});

describe('cassette use of sharded runs', () => {
  it('keeps what every shard of the last sharded run served, since the earliest shard started', () => {
    const store = CassetteUseStore.forWriting(join(temporaryFolder(), 'runs.sqlite'));
    store.note([usage(100, ['old'])]);
    store.note([usage(300, ['b'], { index: 2, count: 3 })]);
    store.note([usage(200, ['a', 'shared'], { index: 1, count: 3 })]);
    store.note([usage(250, ['c', 'shared'], { index: 3, count: 3 }, 2)]);
    expect(store.last('/c.sqlite')).toEqual({
      mode: 'replay',
      startedAt: 200,
      servedIds: new Set(['a', 'shared', 'b', 'c']),
      missed: 0,
      // One shard noted its errors: the split had them (prune will not decide from it).
      errors: 2,
      shards: 3,
    });
    store.note([usage(400, ['whole'])]);
    expect(store.last('/c.sqlite')?.servedIds).toEqual(new Set(['whole']));
    store.close();
  });

  it('refuses to answer for a sharded run with a shard never noted, naming it', () => {
    const store = CassetteUseStore.forWriting(join(temporaryFolder(), 'runs.sqlite'));
    store.note([usage(200, ['a'], { index: 1, count: 3 })]);
    expect(() => store.last('/c.sqlite')).toThrow(/no run of shard 2\/3, 3\/3 is noted/);
    store.close();
  });
});

describe('issue #30: the runs database lives beside the cassette', () => {
  it('notes each cassette in the calltape-runs.sqlite of its own folder when no runs database is chosen', () => {
    const [first, second] = [temporaryFolder(), temporaryFolder()];
    const at = (folder: string) => ({ ...usage(100, ['x']), cassette: join(folder, 'c.sqlite') });
    noteCassetteUse(undefined, [at(first), at(second)]);
    for (const folder of [first, second]) {
      const store = CassetteUseStore.forReading(runsDatabaseBeside(join(folder, 'c.sqlite')));
      expect(store?.last(join(folder, 'c.sqlite'))?.servedIds).toEqual(new Set(['x']));
      store?.close();
    }
    expect(runsDatabaseBeside(join(first, 'c.sqlite'))).toBe(join(first, 'calltape-runs.sqlite'));
  });
});
