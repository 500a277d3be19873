import { useEffect, useState } from 'preact/hooks';
import { fetchApi } from './api-client.js';
import { postApi } from './post-api.js';
import type { PendingCase, ReviewState } from './section-types.js';

/**
 * Cases `calltape generate` and `calltape cases promote` left pending review, each with what it
 * asks, expects and came from; Accept makes one an ordinary case and Reject removes it, written
 * to the suite file at once by `calltape review`'s own writer. The suites are read again after
 * each decision, so a review made in a terminal shows too.
 */
export function ReviewScreen() {
  const [state, setState] = useState<ReviewState | undefined>();
  const [message, setMessage] = useState('');
  const [failed, setFailed] = useState(false);
  const refresh = (): void => {
    fetchApi<ReviewState>('review').then(setState, (error: unknown) => {
      setFailed(true);
      setMessage((error as Error).message);
    });
  };
  useEffect(refresh, []);
  const decide = async (
    suite: string,
    id: string,
    decision: 'accept' | 'reject',
  ): Promise<void> => {
    try {
      const answer = await postApi<ReviewState>('review', { suite, case: id, decision });
      setState(answer);
      setFailed(false);
      setMessage(`${decision === 'accept' ? 'Accepted' : 'Rejected'} ${id} in ${suite}.`);
    } catch (error) {
      setFailed(true);
      setMessage(`${id} is unchanged: ${(error as Error).message}`);
    }
  };
  return (
    <section aria-labelledby="review-title">
      <h1 id="review-title">Review pending cases</h1>
      <button type="button" id="review-refresh" onClick={refresh}>
        Read the suites again
      </button>
      <p role={failed ? 'alert' : 'status'} class={failed ? 'problem' : 'muted'}>
        {message}
      </p>
      {state?.suites.length === 0 && (
        <p class="muted">
          No suite is under review. Start with the suites to review:{' '}
          <code>calltape view --suites suites/*.yaml</code> or{' '}
          <code>calltape proxy --suites …</code>.
        </p>
      )}
      {state?.suites.map((suite) => (
        <section
          key={suite.file}
          class="suite"
          data-file={suite.file}
          data-error={'error' in suite ? 'true' : undefined}
          aria-label={suite.file}
        >
          <h2>
            <code>{suite.file}</code>
          </h2>
          {'cases' in suite && (
            <p class="muted">
              {suite.cases.length} pending · on a terminal: <code>{suite.review}</code>
            </p>
          )}
          {'error' in suite ? (
            <p class="problem">{suite.error}</p>
          ) : suite.cases.length === 0 ? (
            <p class="muted">Nothing pending review.</p>
          ) : (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    {['Case', 'Where', 'Kind', 'Tool', 'Prompt', 'Expects', 'From', 'Decision'].map(
                      (head) => (
                        <th key={head} scope="col">
                          {head}
                        </th>
                      ),
                    )}
                  </tr>
                </thead>
                <tbody>
                  {suite.cases.map((item) => (
                    <CaseRow
                      key={item.id}
                      item={item}
                      onDecide={(decision) => void decide(suite.file, item.id, decision)}
                    />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      ))}
    </section>
  );
}

function CaseRow({
  item,
  onDecide,
}: {
  item: PendingCase;
  onDecide: (decision: 'accept' | 'reject') => void;
}) {
  return (
    <tr data-case={item.id} data-kind={item.kind}>
      <th scope="row">{item.id}</th>
      <td class="location">
        <code>{item.location}</code>
      </td>
      <td>{item.kind}</td>
      <td class="tool">{item.tool ?? '—'}</td>
      <td class="prompt">{item.prompt ?? '—'}</td>
      <td class="expects">
        <code>{item.expects}</code>
      </td>
      <td class="provenance">{provenance(item.provenance)}</td>
      <td>
        <div class="decisions">
          <button type="button" onClick={() => onDecide('accept')} aria-label={`Accept ${item.id}`}>
            Accept
          </button>
          <button type="button" onClick={() => onDecide('reject')} aria-label={`Reject ${item.id}`}>
            Reject
          </button>
        </div>
      </td>
    </tr>
  );
}

function provenance(origin: PendingCase['provenance']): string {
  if (origin.source === 'promoted')
    return [
      `promoted${origin.session ? ` from session ${origin.session}` : ''}`,
      ...origin.failures.map((failure) => `failed: ${failure}`),
    ].join('\n');
  if (origin.source === 'generated')
    return [
      `generated${origin.generator ? ` by ${origin.generator}` : ''}`,
      origin.guideline && `guideline: ${origin.guideline}`,
      origin.topic && `topic: ${origin.topic}`,
    ]
      .filter(Boolean)
      .join('\n');
  return '—';
}
