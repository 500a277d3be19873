import type { CaseResult } from '../../scoring/case-result.js';

const shown = (value: unknown): string =>
  value === undefined ? '(absent)' : JSON.stringify(value, null, 1);

/** The expected calls' verdict: each argument that did not match, by path, with the rule that judged it. */
export function CallVerdict({
  call,
  title = 'Arguments against the expectation',
}: {
  call: CaseResult['call'];
  title?: string;
}) {
  if (call === null) return null;
  const mismatches = Object.entries(call.mismatches);
  return (
    <>
      <h2>{title}</h2>
      <p>
        Call score {call.score.toFixed(3)} · {call.is_correct ? 'correct' : 'not correct'}
        {call.details.matched_tools.length > 0 &&
          ` · matched as ${call.details.matched_tools.map((tool) => tool ?? 'nothing').join(', ')}`}
        {call.details.extra_calls > 0 && ` · ${call.details.extra_calls} extra call(s)`}
      </p>
      {call.error_message !== null && <p class="problem">{call.error_message}</p>}
      {mismatches.length === 0 ? (
        <p class="muted">Every expected argument matched.</p>
      ) : (
        <div class="table-wrap">
          <table class="diff">
            <caption class="visually-hidden">Arguments that did not match, by path</caption>
            <thead>
              <tr>
                <th scope="col">Path</th>
                <th scope="col">Expected</th>
                <th scope="col">Actual</th>
                <th scope="col">Why</th>
                <th scope="col">Rule</th>
                <th scope="col">Score</th>
              </tr>
            </thead>
            <tbody>
              {mismatches.map(([path, mismatch]) => (
                <tr key={path}>
                  <th scope="row">
                    <code>{path}</code>
                  </th>
                  <td class="expected">
                    <pre>{shown(mismatch.expected)}</pre>
                  </td>
                  <td class="actual">
                    <pre>{shown(mismatch.actual)}</pre>
                  </td>
                  <td>
                    {mismatch.reason}
                    {mismatch.detail !== undefined && <div class="muted">{mismatch.detail}</div>}
                  </td>
                  <td>{mismatch.strategy}</td>
                  <td>{mismatch.score.toFixed(2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** The trajectory checks (steps, never, judges…) with their verdicts and reasons. */
export function TrajectoryVerdict({
  trajectory,
  title = 'Checks and judges',
}: {
  trajectory: CaseResult['trajectory'];
  title?: string;
}) {
  if (trajectory === null) return null;
  return (
    <>
      <h2>{title}</h2>
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">Trajectory checks and judge verdicts</caption>
          <thead>
            <tr>
              <th scope="col">Check</th>
              <th scope="col">Verdict</th>
              <th scope="col">Score</th>
              <th scope="col">Reasons</th>
            </tr>
          </thead>
          <tbody>
            {trajectory.checks.map((check, index) => (
              <tr key={index}>
                <th scope="row">{check.check}</th>
                <td>
                  <span class={`badge ${check.status}`}>{check.status}</span>
                </td>
                <td>{check.score.toFixed(3)}</td>
                <td>
                  {check.message}
                  {typeof check.details['reason'] === 'string' && (
                    <div>Reason: {check.details['reason']}</div>
                  )}
                  {check.reasons.length > 0 && (
                    <ul class="plain">
                      {check.reasons.map((reason, position) => (
                        <li key={position} class="muted">
                          {reason}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
