import { describe, expect, it } from 'vitest';
import { BatchQueue } from './batch-queue.js';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('BatchQueue', () => {
  it('delivers once per event-loop turn without a window', async () => {
    const batches: number[][] = [];
    const queue = new BatchQueue<number>((batch) => batches.push(batch));
    queue.push(1);
    queue.push(2);
    await turn();
    queue.push(3);
    await turn();
    expect(batches).toEqual([[1, 2], [3]]);
  });

  it('gathers items across turns within the window into one delivery, and sooner when full', async () => {
    const batches: number[][] = [];
    const queue = new BatchQueue<number>((batch) => batches.push(batch), 4, 30);
    queue.push(1);
    await turn();
    queue.push(2);
    await turn();
    queue.push(3);
    expect(batches).toEqual([]);
    await sleep(60);
    expect(batches).toEqual([[1, 2, 3]]);
    for (let item = 4; item <= 8; item++) queue.push(item);
    expect(batches).toEqual([[1, 2, 3], [4, 5, 6, 7]]);
    queue.flush();
    expect(batches).toEqual([[1, 2, 3], [4, 5, 6, 7], [8]]);
  });
});
