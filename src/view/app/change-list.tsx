import type { CaseBehaviourChange } from '../../report/run-baseline.js';
import { StatusBadge } from './loaded-view.js';
import { href } from './router.js';

const value = (text: string | null): string => text ?? '(absent)';

/** Cases that behave differently: verdict flips, calls added and removed, arguments changed. */
export function ChangeList({
  changes,
  runId,
}: {
  changes: readonly CaseBehaviourChange[];
  runId: number;
}) {
  return (
    <div class="table-wrap">
      <table class="changes">
        <caption class="visually-hidden">Cases that behave differently</caption>
        <thead>
          <tr>
            <th scope="col">Case</th>
            <th scope="col">Verdict</th>
            <th scope="col">Calls added / removed</th>
            <th scope="col">Arguments changed</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change) => (
            <tr key={`${change.run}\n${change.test_id}`}>
              <th scope="row">
                <a href={href.case(runId, change.run, change.test_id)}>{change.test_id}</a>
              </th>
              <td>
                {change.verdict === null ? (
                  <span class="muted">same</span>
                ) : (
                  <>
                    <StatusBadge status={change.verdict.before} /> →{' '}
                    <StatusBadge status={change.verdict.after} />{' '}
                    <span class={`kind ${change.verdict.kind}`}>{change.verdict.kind}</span>
                  </>
                )}
              </td>
              <td>
                {change.calls_added.map((tool, index) => (
                  <div key={`a${index}`} class="added">
                    + {tool}
                  </div>
                ))}
                {change.calls_removed.map((tool, index) => (
                  <div key={`r${index}`} class="removed">
                    − {tool}
                  </div>
                ))}
              </td>
              <td>
                {change.arguments.map((argument, index) => (
                  <div key={index}>
                    <code>
                      {argument.tool}
                      {argument.path !== '' && `.${argument.path}`}
                    </code>
                    : <del>{value(argument.before)}</del> → <ins>{value(argument.after)}</ins>
                  </div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
