import { describe, expect, it } from 'vitest';
import { OrdinalCounter } from './match-key.js';

describe('OrdinalCounter', () => {
  it('numbers identical requests per scope', () => {
    const counter = new OrdinalCounter();
    expect([
      counter.next('', 'a'),
      counter.next('', 'a'),
      counter.next('s1', 'a'),
      counter.next('', 'b'),
      counter.next('', 'a'),
    ]).toEqual([0, 1, 0, 0, 2]);
  });

  it('stays bounded, forgetting the least recently seen request first', () => {
    const counter = new OrdinalCounter(3);
    counter.next('', 'kept');
    for (const key of ['x', 'y']) counter.next('', key);
    counter.next('', 'kept');
    counter.next('', 'z');
    expect(counter.size).toBe(3);
    expect(counter.next('', 'kept')).toBe(2);
    expect(counter.next('', 'x')).toBe(0);
  });
});
