import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchQueue } from './batch-queue.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('BatchQueue', () => {
  it('with a window, hands items pushed in separate event-loop turns over as one batch', async () => {
    vi.useFakeTimers();
    const batches: number[][] = [];
    const queue = new BatchQueue<number>((batch) => batches.push(batch), 256, 20);
    queue.push(1);
    await vi.advanceTimersByTimeAsync(5);
    queue.push(2);
    await vi.advanceTimersByTimeAsync(5);
    queue.push(3);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(20);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('without a window, delivers once per turn', async () => {
    const batches: number[][] = [];
    const queue = new BatchQueue<number>((batch) => batches.push(batch));
    queue.push(1);
    queue.push(2);
    await new Promise((resolve) => setImmediate(resolve));
    queue.push(3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1, 2], [3]]);
  });

  it('delivers a full batch at once and a flush at once, leaving no timer behind', async () => {
    vi.useFakeTimers();
    const batches: number[][] = [];
    const queue = new BatchQueue<number>((batch) => batches.push(batch), 2, 20);
    queue.push(1);
    queue.push(2);
    expect(batches).toEqual([[1, 2]]);
    queue.push(3);
    queue.flush();
    expect(batches).toEqual([[1, 2], [3]]);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(50);
    expect(batches).toEqual([[1, 2], [3]]);
  });
});
