import { Fragment } from 'preact';
import type { RunListing } from '../api-types.js';
import { duration, percent, when } from './format.js';

/** A run's facts in one line each: when, how, verdict, git, and its configurations' rates. */
export function RunFacts({ run }: { run: RunListing }) {
  return (
    <dl class="facts">
      <dt>Started</dt>
      <dd>
        <time dateTime={run.started_at}>{when(run.started_at)}</time> · took{' '}
        {duration(run.duration_ms)}
      </dd>
      <dt>Mode</dt>
      <dd>
        {run.mode} · {run.drive}
      </dd>
      <dt>Gates</dt>
      <dd>
        <span class={run.passed ? 'badge pass' : 'badge fail'}>
          {run.passed ? 'passed' : `failed (exit ${run.exit_code})`}
        </span>
      </dd>
      <dt>Git</dt>
      <dd>
        {run.git_branch ?? <span class="muted">no branch</span>}{' '}
        {run.git_commit !== null && <code>{run.git_commit.slice(0, 12)}</code>}
      </dd>
      {run.configs.map((config) => (
        <Fragment key={config.name}>
          <dt>{config.name}</dt>
          <dd>
            {config.model ?? <span class="muted">no model named</span>} · pass rate{' '}
            {percent(config.pass_rate)} ({config.passed}/{config.total}) · mean score{' '}
            {config.mean_score.toFixed(3)}
            {config.unreliable > 0 && ` · ${config.unreliable} unreliable`}
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}
