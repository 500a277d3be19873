import type { CaseAnswer } from '../api-types.js';
import type { CaseResult } from '../../scoring/case-result.js';
import { useApi } from './api-client.js';
import { CallVerdict, TrajectoryVerdict } from './call-verdict.js';
import { ChangeList } from './change-list.js';
import { duration } from './format.js';
import { LoadedView, StatusBadge } from './loaded-view.js';
import { RecordingView } from './recording-view.js';
import { href } from './router.js';

/**
 * A conversation's user turns as the case result may carry them (multi-turn cases); read
 * structurally, so reports from before conversations simply have none.
 */
interface TurnView {
  readonly turn: number;
  readonly user: string;
  readonly reply: string;
  readonly status: string;
  readonly score: number;
  readonly calls: readonly { readonly name: string; readonly arguments: string }[];
  readonly problems: readonly string[];
}

function turnsOf(result: CaseResult): readonly TurnView[] {
  const conversation = (result as { conversation?: { turns?: readonly TurnView[] } }).conversation;
  return conversation?.turns ?? [];
}

/** One case: verdict, per-turn verdicts, arguments against the expectation, checks, recording. */
export function CaseScreen({ id, config, testId }: { id: number; config: string; testId: string }) {
  const loaded = useApi<CaseAnswer>(
    `runs/${id}/cases/${encodeURIComponent(config)}/${encodeURIComponent(testId)}`,
  );
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
  const turns = turnsOf(result);
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
      {turns.length > 0 && (
        <>
          <h2>Conversation, turn by turn</h2>
          <ol class="turns">
            {turns.map((turn) => (
              <li key={turn.turn}>
                <div class="message user">
                  <span class="role">user</span>
                  <div class="text">{turn.user}</div>
                </div>
                {turn.calls.map((call, index) => (
                  <div key={index} class="tool-call">
                    <code>{call.name}</code> <code class="muted">{call.arguments}</code>
                  </div>
                ))}
                <div class="message assistant">
                  <span class="role">assistant</span>
                  <div class="text">{turn.reply}</div>
                </div>
                <p>
                  Turn {turn.turn}: <StatusBadge status={turn.status} /> score{' '}
                  {turn.score.toFixed(3)}
                  {turn.problems.length > 0 && ` · ${turn.problems.join('; ')}`}
                </p>
              </li>
            ))}
          </ol>
        </>
      )}
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
      <CallVerdict result={result} />
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
