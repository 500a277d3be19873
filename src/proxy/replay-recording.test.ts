import { describe, expect, it } from 'vitest';
import { timingFactor } from './replay-recording.js';

describe('timingFactor', () => {
  it('reads none, exact and scaled:F', () => {
    expect([
      timingFactor('none'),
      timingFactor('exact'),
      timingFactor('scaled:0.25'),
      timingFactor('scaled:3'),
    ]).toEqual([0, 1, 0.25, 3]);
  });
});
