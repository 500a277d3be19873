import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fencedBlock, markdownText } from '../../src/report/markdown-escape.js';
import { markdownReport } from '../../src/report/markdown-report.js';
import type { CaseResult } from '../../src/scoring/case-result.js';
import type { SuiteRunResult } from '../../src/runner/run-suite.js';

const hostile =
  '```\n</details><img src=x onerror=alert(1)>\n````` | <script>fetch("//evil")</script>';

function resultWith(text: string): SuiteRunResult {
  const item: CaseResult = {
    run: 'default',
    test_id: `case <b>${text}</b>`,
    index: 0,
    tags: [],
    tools: ['save'],
    session: 's',
    status: 'fail',
    score: 0,
    call: null,
    trajectory: null,
    calls: [{ name: 'save', arguments: JSON.stringify({ note: text }), mocked: false, round: 1 }],
    problems: [`argument note: got ${text}`],
    error: null,
    duration_ms: 1,
    rounds: 1,
    tokens: { input: 0, output: 0 },
    agent: null,
  };
  return {
    suite: 'suite',
    file: 'suite.yaml',
    mode: 'replay',
    drive: 'direct',
    cassette: 'c.sqlite',
    started_at: '2026-01-01T00:00:00Z',
    duration_ms: 1,
    runs: [
      {
        run: 'default',
        total: 1,
        passed: 0,
        failed: 1,
        errors: 0,
        pass_rate: 0,
        mean_score: 0,
        model: 'm',
      },
    ],
    cases: [item],
    gates: [
      {
        gate: 'pass_rate',
        run: 'default',
        subject: null,
        threshold: 1,
        actual: 0,
        pass: false,
        message: `pass rate 0% ${text}`,
      },
    ],
    passed: false,
  };
}

describe('reports: the Markdown report', () => {
  it('tool arguments cannot inject HTML or break out of the code fence', () => {
    const report = markdownReport(resultWith(hostile));
    // The fence is longer than any backtick run in the text, so the text stays inside it, inert and verbatim.
    const fence = /^(`{6,})$/m.exec(report)?.[1] ?? '';
    expect(fence.length).toBeGreaterThan(5);
    const start = report.indexOf(`${fence}\n`);
    const end = report.lastIndexOf(`\n${fence}\n`);
    const inside = report.slice(start + fence.length, end);
    const outside = report.slice(0, start) + report.slice(end + fence.length + 1);
    expect(inside).toContain('</details><img src=x onerror=alert(1)>');
    expect(inside.split('\n').some((line) => line.startsWith(fence))).toBe(false);
    expect(outside).not.toMatch(/<img|<script|case <b>/);
    expect(outside).toContain('case &lt;b&gt;');
    expect(outside.match(/<\/details>/g)).toHaveLength(1);
  });

  it('escapes any text for inline use and fences any lines (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.string()), (text, lines) => {
        expect(markdownText(text)).not.toMatch(/[<>\n\r]|(^|[^\\])\|/);
        const block = fencedBlock(lines.flatMap((line) => line.split(/\r?\n|\r/)));
        const fence = block[0] ?? '';
        expect(block.slice(1, -1).some((line) => line.includes(fence))).toBe(false);
      }),
    );
  });
});
