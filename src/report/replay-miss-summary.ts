import type { MissCause } from '../cassette/describe-mismatch.js';

export type { MissCause };

/** The cases whose requests missed for one cause. */
export interface ReplayMissGroup extends MissCause {
  /** Case names (`run/test_id` with several run configurations), in suite order. */
  readonly cases: readonly string[];
}

/** A run's replay misses, one group per cause (most cases first), and the command that records them. */
export interface ReplayMissSummary {
  readonly groups: readonly ReplayMissGroup[];
  /** The command that records the missing cases again, as a user pastes it. */
  readonly record_command: string;
}

/** Groups missed cases by the cause of their first miss: 22 cases that missed because the system prompt changed are one group, not 22 messages. */
export function groupReplayMisses(
  misses: readonly (MissCause & { readonly case: string })[],
  recordCommand: string,
): ReplayMissSummary | undefined {
  if (misses.length === 0) return undefined;
  const groups = new Map<string, MissCause & { cases: string[] }>();
  for (const miss of misses) {
    const key = JSON.stringify([miss.field, miss.meaning]);
    const group = groups.get(key) ?? {
      field: miss.field,
      meaning: miss.meaning,
      // The first case's difference stands for the group's (one system prompt, one change).
      ...(miss.difference === undefined ? {} : { difference: miss.difference }),
      cases: [],
    };
    group.cases.push(miss.case);
    groups.set(key, group);
  }
  // Most cases first; among equals, the order the cases ran in the suite (stable sort).
  return {
    groups: [...groups.values()].sort((left, right) => right.cases.length - left.cases.length),
    record_command: recordCommand,
  };
}

/** The summaries of parts of one run (shards) as one: their cases grouped again by cause. */
export function mergeReplayMisses(
  summaries: readonly (ReplayMissSummary | undefined)[],
): ReplayMissSummary | undefined {
  const present = summaries.filter(
    (summary): summary is ReplayMissSummary => summary !== undefined,
  );
  const [first] = present;
  if (!first) return undefined;
  return groupReplayMisses(
    present.flatMap((summary) =>
      summary.groups.flatMap((group) => group.cases.map((name) => ({ ...group, case: name }))),
    ),
    first.record_command,
  );
}

/**
 * The summary in one sentence (the largest group first, then the count of each other cause) and the command: "22 cases missed: their requests changed at
 * messages[0].content (the system prompt), 1 changed at tools[1].function.name".
 */
export function replayMissText(summary: ReplayMissSummary): {
  line: string;
  /** One example difference per group that has one (`messages[0].content: "a" → "b"`). */
  differences: string[];
  command: string;
} {
  const parts = summary.groups.map((group, at) => {
    const count = group.cases.length;
    const cause =
      group.field === null
        ? (group.meaning ?? 'matched no similar recording')
        : `changed at ${group.field}${group.meaning ? ` (${group.meaning})` : ''}`;
    if (at > 0) return `${count} ${cause}`;
    const head = `${count} case${count === 1 ? '' : 's'} missed: `;
    return `${head}${count === 1 ? 'its request' : 'their requests'} ${cause}`;
  });
  return {
    line: parts.join(', '),
    differences: summary.groups.flatMap((group) =>
      group.difference === undefined ? [] : [group.difference],
    ),
    command: summary.record_command,
  };
}

/**
 * What the failing-case list says of a case that missed: one line naming the cause told above,
 * instead of the whole miss message again for every case.
 */
export function missedCaseLine(
  summary: ReplayMissSummary | undefined,
  name: string,
): string | undefined {
  const group = summary?.groups.find((item) => item.cases.includes(name));
  if (!group) return undefined;
  return group.field === null
    ? `replay miss: its request ${group.meaning ?? 'matched no similar recording'} (see above)`
    : `replay miss: its request changed at ${group.field}${group.meaning ? ` (${group.meaning})` : ''} (see above)`;
}
