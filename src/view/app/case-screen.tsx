import type { CaseAnswer } from '../api-types.js';
import { useApi } from './api-client.js';
import { useReadyMark } from './ready-mark.js';
import { CallVerdict, TrajectoryVerdict } from './call-verdict.js';
import { ChangeList } from './change-list.js';
import { ConversationView } from './conversation-view.js';
import { duration } from './format.js';
import { LoadedView, StatusBadge } from './loaded-view.js';
import { RecordingView } from './recording-view.js';
import { href } from './router.js';

/** One case: verdict, per-turn verdicts, arguments against the expectation, checks, recording. */
export function CaseScreen({ id, config, testId }: { id: number; config: string; testId: string }) {
  const loaded = useApi<CaseAnswer>(
    `runs/${id}/cases/${encodeURIComponent(config)}/${encodeURIComponent(testId)}`,
  );
  useReadyMark(loaded.state === 'ready');
  return (
    <section aria-labelledby="case-title">
      <p class="crumbs">
        <a href="#/runs">Runs</a> / <a href={href.run(id)}>run #{id}</a> / {testId}
      </p>
      <LoadedView loaded={loaded} what={`case ${testId}`}>
        {(answer) => <CaseBody answer={answer} />}
      </LoadedView>
    </section>
  );
}

function CaseBody({ answer }: { answer: CaseAnswer }) {
  const { result } = answer;
  return (
    <>
      <h1 id="case-title">
        {result.test_id}
        {answer.run.configs.length > 1 && <span class="muted"> · {result.run}</span>}
      </h1>
      <dl class="facts">
        <dt>Verdict</dt>
        <dd>
          <StatusBadge status={result.status} /> score {result.score.toFixed(3)}
          {result.samples &&
            ` · ${result.samples.passed}/${result.samples.total} samples passed${result.samples.flaky ? ' (flaky)' : ''}`}
        </dd>
        <dt>Expected tool</dt>
        <dd>{result.tools.join(', ') || 'none (no tool may be called)'}</dd>
        <dt>Tags</dt>
        <dd>{result.tags.join(', ') || '—'}</dd>
        <dt>Timing and tokens</dt>
        <dd>
          {duration(result.duration_ms)} · {result.rounds} LLM round trip(s) · {result.tokens.input}{' '}
          in / {result.tokens.output} out tokens
        </dd>
      </dl>
      {(result.problems.length > 0 || result.error !== null) && (
        <ul class="problems">
          {result.error !== null && <li class="problem">{result.error}</li>}
          {result.problems.map((problem, index) => (
            <li key={index}>{problem}</li>
          ))}
        </ul>
      )}
      {result.conversation && <ConversationView conversation={result.conversation} />}
      <h2>Calls made</h2>
      {result.calls.length === 0 ? (
        <p class="muted">No tool was called.</p>
      ) : (
        <ol class="calls">
          {result.calls.map((call, index) => (
            <li key={index}>
              <code>{call.name}</code> <code class="muted">{call.arguments}</code>
              <span class="muted">
                {' '}
                · round {call.round}
                {call.mocked ? ' · mocked' : ''}
              </span>
            </li>
          ))}
        </ol>
      )}
      <CallVerdict call={result.call} />
      <TrajectoryVerdict trajectory={result.trajectory} />
      {result.samples && (
        <>
          <h2>Samples</h2>
          <ol class="plain">
            {result.samples.results.map((sample) => (
              <li key={sample.sample}>
                Sample {sample.sample}: <StatusBadge status={sample.status} /> score{' '}
                {sample.score.toFixed(3)} · session <code>{sample.session}</code>
                {sample.problems[0] !== undefined && ` · ${sample.problems[0]}`}
              </li>
            ))}
          </ol>
        </>
      )}
      {answer.change && (
        <>
          <h2>Changed since the baseline</h2>
          <ChangeList changes={[answer.change]} runId={answer.run.id} />
        </>
      )}
      <RecordingView recording={answer.recording} />
      <h2>Run it again</h2>
      <pre class="command">{answer.rerun_command}</pre>
    </>
  );
}
