import { Fragment } from 'preact';
import type { CompareAnswer } from '../api-types.js';
import { useApi } from './api-client.js';
import { useReadyMark } from './ready-mark.js';
import { ChangeList } from './change-list.js';
import { percent, when } from './format.js';
import { LoadedView } from './loaded-view.js';
import { ReplayMisses } from './replay-misses.js';
import { href } from './router.js';

/** Two runs compared: pass rates, the behaviour diff case by case, and the later run's request drift. */
export function CompareScreen({ before, after }: { before: number; after: number }) {
  const loaded = useApi<CompareAnswer>(`compare/${before}/${after}`);
  useReadyMark(loaded.state === 'ready');
  return (
    <section aria-labelledby="compare-title">
      <p class="crumbs">
        <a href="#/runs">Runs</a> / compare
      </p>
      <h1 id="compare-title">
        Run #{before} → run #{after}
      </h1>
      <LoadedView loaded={loaded} what="the comparison">
        {(answer) => <CompareBody answer={answer} />}
      </LoadedView>
    </section>
  );
}

function CompareBody({ answer }: { answer: CompareAnswer }) {
  const { diff } = answer;
  const side = (run: CompareAnswer['before']) => (
    <>
      <a href={href.run(run.id)}>#{run.id}</a> {run.suite} · {when(run.started_at)}
      {run.git_branch !== null && ` · ${run.git_branch}`}
      {run.git_commit !== null && <code> {run.git_commit.slice(0, 8)}</code>}
    </>
  );
  return (
    <>
      <dl class="facts">
        <dt>Before</dt>
        <dd>{side(answer.before)}</dd>
        <dt>After</dt>
        <dd>{side(answer.after)}</dd>
        {diff.pass_rates.map((move) => (
          <Fragment key={move.run}>
            <dt>{move.run} pass rate</dt>
            <dd>
              {percent(move.before)} → {percent(move.after)}
            </dd>
          </Fragment>
        ))}
      </dl>
      <h2>Behaviour diff</h2>
      <p>
        {diff.cases.length} case(s) behave differently · {diff.unchanged} unchanged
        {diff.only_in_run.length > 0 &&
          ` · only in #${answer.after.id}: ${diff.only_in_run.join(', ')}`}
        {diff.only_in_baseline.length > 0 &&
          ` · only in #${answer.before.id}: ${diff.only_in_baseline.join(', ')}`}
      </p>
      {diff.cases.length > 0 && <ChangeList changes={diff.cases} runId={answer.after.id} />}
      {answer.replay_misses ? (
        <ReplayMisses misses={answer.replay_misses} />
      ) : (
        <p class="muted">Run #{answer.after.id} had no replay misses.</p>
      )}
    </>
  );
}
