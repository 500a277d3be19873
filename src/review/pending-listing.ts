import { LineCounter, isMap, isSeq, parseDocument } from 'yaml';
import type { SuiteCase } from '../scoring/suite-types.js';
import { describeExpectation } from '../suites/render-drafts.js';

/** A case pending review as the dashboard lists it: what it asks, expects and came from, and where it is. */
export interface PendingCase {
  readonly id: string;
  readonly prompt: string | null;
  /** Positive: the case expects a tool call; negative: it forbids one (or expects none). */
  readonly kind: 'positive' | 'negative';
  /** The tool the case is about: the one a positive case expects, the ones a negative case forbids (joined by ` | `); null when it names none. */
  readonly tool: string | null;
  /** The whole expectation in one line, as `calltape review --list` prints it. */
  readonly expects: string;
  readonly provenance: {
    readonly source: 'generated' | 'promoted' | null;
    readonly guideline: string | null;
    readonly topic: string | null;
    readonly generator: string | null;
    readonly session: string | null;
    /** Promoted: the policy failures it was promoted for. */
    readonly failures: readonly string[];
  };
  /** `file:line` of the case in its suite file (the line its entry starts on). */
  readonly location: string;
}

/**
 * The 1-based line each case of a suite file starts on, by test_id (`case-N` for a case without
 * one, as loadSuite names it). YAML and JSON through the yaml package's node ranges and its
 * LineCounter (offset → line); JSON lines by counting lines, a first `{"suite": …}` line skipped.
 */
export function caseLines(text: string, format: 'yaml' | 'jsonl'): ReadonlyMap<string, number> {
  const lines = new Map<string, number>();
  if (format === 'jsonl') {
    let index = 0;
    let first = true;
    text.split('\n').forEach((line, number) => {
      if (line.trim() === '') return;
      const value = parseJsonLine(line);
      const settings = first && isSettingsLine(value);
      first = false;
      if (settings) return;
      index += 1;
      lines.set(idOf(value, index), number + 1);
    });
    return lines;
  }
  const counter = new LineCounter();
  const document = parseDocument(text, { lineCounter: counter });
  const cases = isMap(document.contents) ? document.contents.get('cases', true) : undefined;
  if (!isSeq(cases)) return lines;
  cases.items.forEach((item, position) => {
    const id = isMap(item) ? item.get('test_id') : undefined;
    const start = (item as { range?: readonly number[] } | null)?.range?.[0];
    if (start === undefined) return;
    lines.set(typeof id === 'string' ? id : `case-${position + 1}`, counter.linePos(start).line);
  });
  return lines;
}

/** The pending drafts of a suite, in file order, each with its `shownPath:line`. */
export function pendingCases(
  drafts: readonly SuiteCase[],
  lines: ReadonlyMap<string, number>,
  shownPath: string,
): PendingCase[] {
  return drafts
    .filter((draft) => draft.review === 'pending')
    .map((draft) => {
      const origin = draft.provenance;
      const expected =
        typeof draft.expected_tool === 'string' || Array.isArray(draft.expected_tool)
          ? [draft.expected_tool].flat().join(' | ')
          : null;
      const negative =
        draft.expected_tool === null ||
        (expected === null && draft.expect === undefined && (draft.never?.length ?? 0) > 0);
      const line = lines.get(draft.test_id);
      return {
        id: draft.test_id,
        prompt: draft.prompt ?? null,
        kind: origin?.kind ?? (negative ? 'negative' : 'positive'),
        tool: expected ?? origin?.tool ?? forbidden(draft),
        expects: describeExpectation(draft),
        provenance: {
          source: origin?.source ?? null,
          guideline: origin?.guideline ?? null,
          topic: origin?.topic ?? null,
          generator: origin?.generator ?? null,
          session: origin?.session ?? null,
          failures: origin?.failures ?? [],
        },
        location: line === undefined ? shownPath : `${shownPath}:${line}`,
      };
    });
}

function forbidden(draft: SuiteCase): string | null {
  const tools = (draft.never ?? []).flatMap((call) =>
    typeof call === 'string' ? [call] : [call.tool].flat(),
  );
  return tools.length > 0 ? tools.join(' | ') : null;
}

function parseJsonLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function isSettingsLine(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.keys(value).length === 1 &&
    Object.hasOwn(value, 'suite') &&
    typeof (value as { suite: unknown }).suite === 'object'
  );
}

function idOf(value: unknown, index: number): string {
  const id =
    typeof value === 'object' && value !== null && Object.hasOwn(value, 'test_id')
      ? (value as { test_id: unknown }).test_id
      : undefined;
  return typeof id === 'string' ? id : `case-${index}`;
}
