import type { CaseRecording, RecordedRound } from '../api-types.js';
import { duration } from './format.js';

/** Arguments or a result as written, pretty-printed when it is JSON. */
function Json({ text }: { text: string }) {
  let pretty = text;
  try {
    pretty = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Not JSON (or malformed, as the model wrote it): shown as it is.
  }
  return <pre class="json">{pretty}</pre>;
}

function Round({ round, position }: { round: RecordedRound; position: number }) {
  return (
    <article class="round" aria-label={`Round ${position}`}>
      <h4>
        Round {position}
        <span class="muted">
          {' '}
          · {round.model ?? 'model unknown'} · {round.status} · {duration(round.duration_ms)}
          {round.input_tokens !== null && ` · ${round.input_tokens} in`}
          {round.output_tokens !== null && ` / ${round.output_tokens} out tokens`}
          {round.hidden && ' · answered inside the proxy'}
        </span>
      </h4>
      {round.messages.map((message, index) => (
        <div key={index} class={`message ${message.role}`}>
          <span class="role">{message.role}</span>
          <div class="text">{message.text}</div>
        </div>
      ))}
      {round.text !== '' && (
        <div class="message assistant">
          <span class="role">assistant</span>
          <div class="text">{round.text}</div>
        </div>
      )}
      {round.calls.map((call, index) => (
        <div key={index} class="tool-call">
          <div>
            <span class="role">tool call</span> <code>{call.name}</code>
            {call.mocked_by !== null && <span class="badge mock">mocked by {call.mocked_by}</span>}
          </div>
          <Json text={call.arguments} />
          <div class="result">
            <span class="role">{call.failed ? 'result (failed)' : 'result'}</span>
            {call.result === null ? (
              <span class="muted"> none sent back</span>
            ) : (
              <Json text={call.result} />
            )}
          </div>
        </div>
      ))}
      {round.hosted.map((call, index) => (
        <div key={`h${index}`} class="tool-call hosted">
          <div>
            <span class="role">hosted {call.kind}</span> <code>{call.name}</code>
            {call.server !== null && <span class="muted"> on {call.server}</span>}
          </div>
          <Json text={call.arguments} />
          {call.result !== null && (
            <div class="result">
              <span class="role">{call.failed ? 'result (failed)' : 'result'}</span>
              <Json text={call.result} />
            </div>
          )}
        </div>
      ))}
    </article>
  );
}

/** The case's recording: where it is, and each round trip and MCP call it holds. */
export function RecordingView({ recording }: { recording: CaseRecording }) {
  return (
    <>
      <h2>Recording</h2>
      <p>
        Cassette <code>{recording.cassette}</code> · session <code>{recording.session}</code>
      </p>
      {!recording.present && <p class="note">{recording.note}</p>}
      {recording.rounds.map((round, index) => (
        <Round key={index} round={round} position={index + 1} />
      ))}
      {recording.mcp.length > 0 && (
        <>
          <h3>MCP calls</h3>
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">MCP tool calls with their server</caption>
              <thead>
                <tr>
                  <th scope="col">Server</th>
                  <th scope="col">Tool</th>
                  <th scope="col">Arguments</th>
                  <th scope="col">Result</th>
                </tr>
              </thead>
              <tbody>
                {recording.mcp.map((call, index) => (
                  <tr key={index}>
                    <td>{call.server}</td>
                    <th scope="row">
                      {call.name}
                      {call.mocked && <span class="badge mock">mocked</span>}
                    </th>
                    <td>
                      <Json text={call.arguments} />
                    </td>
                    <td>
                      {call.failed && <span class="badge fail">failed</span>}
                      {call.result !== null && <Json text={call.result} />}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}
