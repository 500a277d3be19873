import { configurationsPath, type ConfigurationsAnswer } from '../api-types.js';
import { useApi } from './api-client.js';
import { useReadyMark } from './ready-mark.js';
import { ConfigurationTable } from './configuration-table.js';
import { when } from './format.js';
import { LoadedView } from './loaded-view.js';
import { href } from './router.js';

/** Run configurations of some runs side by side (`#/configurations/12/13:small`). */
export function ConfigurationsScreen({ runs }: { runs: readonly string[] }) {
  const loaded = useApi<ConfigurationsAnswer>(configurationsPath(runs));
  useReadyMark(loaded.state === 'ready');
  return (
    <section aria-labelledby="configurations-title">
      <p class="crumbs">
        <a href="#/runs">Runs</a> / configurations side by side
      </p>
      <h1 id="configurations-title">Configurations side by side</h1>
      <LoadedView loaded={loaded} what="the configurations">
        {(answer) => (
          <>
            <ul class="plain compared-runs">
              {answer.runs.map((run) => (
                <li key={run.id}>
                  <a href={href.run(run.id)}>#{run.id}</a> {run.suite} · {when(run.started_at)}
                  {run.git_branch !== null && ` · ${run.git_branch}`}
                </li>
              ))}
            </ul>
            <ConfigurationTable
              matrix={answer.matrix}
              caption={`Configurations of runs ${runs.join(', ')} side by side`}
            />
          </>
        )}
      </LoadedView>
    </section>
  );
}
