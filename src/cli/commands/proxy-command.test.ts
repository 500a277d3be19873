import { describe, expect, it } from 'vitest';
import { modeLine } from './proxy-command.js';

describe('the proxy banner', () => {
  it('says what each mode does with the upstream and the cassette (replay used to say "cassette none")', () => {
    const line = (mode: Parameters<typeof modeLine>[0]): string =>
      modeLine(mode, 'https://api.openai.com', 'recordings/a.sqlite');
    expect(line('passthrough')).toBe(
      'upstream https://api.openai.com · mode passthrough · cassette none (nothing is recorded)',
    );
    expect(line('record')).toBe(
      'upstream https://api.openai.com · mode record · cassette recordings/a.sqlite (every round trip is recorded)',
    );
    expect(line('replay')).toBe(
      'upstream none (offline) · mode replay · cassette recordings/a.sqlite (read only; a request without a recording gets a 404)',
    );
    expect(line('auto')).toContain(
      'mode auto · cassette recordings/a.sqlite (replayed, missing ones recorded)',
    );
    expect(line('diff')).toContain(
      'mode diff · cassette recordings/a.sqlite (read only; live tool calls compared with it)',
    );
  });
});
