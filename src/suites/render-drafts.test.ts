import { describe, expect, it } from 'vitest';
import type { Suite } from '../scoring/suite-types.js';
import { renderDrafts } from './render-drafts.js';

describe('suggested commands lose their quoting: renderDrafts', () => {
  it('quotes a suite path with a space in the review command it suggests', () => {
    const suite = {
      drafts: [{ test_id: 'a', review: 'pending', prompt: 'hi', expected_tool: null }],
    } as unknown as Suite;
    expect(renderDrafts(suite, 'my suites/shop.yaml')).toContain(
      "Decide with: calltape review 'my suites/shop.yaml' --accept",
    );
  });
});
