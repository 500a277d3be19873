import { useApi } from './api-client.js';
import { percent, when } from './format.js';
import type { JudgeAgreement, JudgesState } from './section-types.js';

const figure = (value: number | null, digits = 2): string =>
  value === null ? '—' : value.toFixed(digits);
const share = (value: number | null): string => (value === null ? '—' : percent(value));

/**
 * Candidate judges compared with a rated golden set, as `calltape judges compare` computed them
 * (κ, accuracy, precision and recall of fails, flake, cost, latency) and every run a judge
 * disagreed on with the rater's note: the last comparison of each judges file and set.
 */
export function JudgesScreen() {
  const loaded = useApi<JudgesState>('judges');
  return (
    <section aria-labelledby="judges-title">
      <h1 id="judges-title">Judges compared with the ratings</h1>
      {loaded.state === 'loading' && <p aria-live="polite">Loading comparisons…</p>}
      {loaded.state === 'failed' && (
        <p role="alert" class="problem">
          {loaded.message}
        </p>
      )}
      {loaded.state === 'ready' && loaded.data.comparisons.length === 0 && (
        <p class="muted">
          No comparison yet in <code>{loaded.data.ratings}</code>. {loaded.data.how}
        </p>
      )}
      {loaded.state === 'ready' &&
        loaded.data.comparisons.map(({ at, report }) => (
          <section
            key={`${report.set}\u0000${report.judges_file}`}
            class="comparison"
            aria-label={`${report.judges_file} against ${report.set}`}
          >
            <h2>
              <code>{report.judges_file}</code> against the set “{report.set}”
            </h2>
            <p class="muted">
              {when(at)} · {report.runs} rated runs ({report.rated_pass} pass, {report.rated_fail}{' '}
              fail); fail is the class a judge must catch.
            </p>
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    {[
                      'Judge',
                      'n',
                      'Accuracy',
                      'κ',
                      'Precision',
                      'Recall',
                      'F1',
                      'Flake',
                      'Cost $',
                      'Latency ms',
                    ].map((head) => (
                      <th key={head} scope="col">
                        {head}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {report.judges.map((judge) => (
                    <JudgeRow key={judge.name} judge={judge} best={judge.name === report.best} />
                  ))}
                </tbody>
              </table>
            </div>
            <p class="best">
              <strong>
                {report.best === null
                  ? 'No judge answered any run.'
                  : `Best judge: ${report.best} (highest κ, then lowest cost).`}
              </strong>
            </p>
            {report.judges
              .filter((judge) => judge.disagreements.length > 0)
              .map((judge) => (
                <details key={judge.name} class="disagreements">
                  <summary>
                    {judge.name} disagrees on {judge.disagreements.length} run(s)
                  </summary>
                  <ul>
                    {judge.disagreements.map((item) => (
                      <li key={item.run}>
                        <code>{item.run}</code>: rated{' '}
                        <span class={`badge ${item.rating}`}>{item.rating}</span>, judged{' '}
                        <span class={`badge ${item.judged ?? 'error'}`}>
                          {item.judged ?? 'no answer'}
                        </span>
                        {item.reason ? ` — ${item.reason}` : ''}
                        {item.note && <div class="muted">rater’s note: {item.note}</div>}
                      </li>
                    ))}
                  </ul>
                </details>
              ))}
          </section>
        ))}
    </section>
  );
}

function JudgeRow({ judge, best }: { judge: JudgeAgreement; best: boolean }) {
  return (
    <tr data-judge={judge.name}>
      <th scope="row">
        {best ? '★ ' : ''}
        {judge.name}
        <div class="muted">{judge.model ?? judge.kind}</div>
      </th>
      <td>
        {judge.n}
        {judge.errors > 0 ? ` (+${judge.errors} unanswered)` : ''}
      </td>
      <td>{share(judge.accuracy)}</td>
      <td class="kappa">{figure(judge.kappa, 3)}</td>
      <td>{figure(judge.precision)}</td>
      <td>{figure(judge.recall)}</td>
      <td>{figure(judge.f1)}</td>
      <td>{share(judge.flake_rate)}</td>
      <td>{judge.cost === null ? '—' : judge.cost.toFixed(4)}</td>
      <td>{judge.mean_latency_ms === null ? '—' : Math.round(judge.mean_latency_ms)}</td>
    </tr>
  );
}
