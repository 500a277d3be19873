import type { ReplayMissSummary } from '../../report/replay-miss-summary.js';

/** Replay misses grouped by what drifted in the requests, with the command that records them. */
export function ReplayMisses({ misses }: { misses: ReplayMissSummary }) {
  return (
    <>
      <h2>Replay misses: request drift</h2>
      <ul>
        {misses.groups.map((group, index) => (
          <li key={index}>
            {group.cases.length} case(s) missed: their requests changed at{' '}
            <code>{group.field ?? 'no single field'}</code>
            {group.meaning !== null && ` (${group.meaning})`}
            {group.difference !== undefined && (
              <div>
                <code class="difference">{group.difference}</code>
              </div>
            )}
            <div class="muted">{group.cases.join(', ')}</div>
          </li>
        ))}
      </ul>
      <p>
        Record them again: <code>{misses.record_command}</code>
      </p>
    </>
  );
}
