import type { RunView } from './section-types.js';

/**
 * One run the way the terminal rater prints it: the request, the conversation, the tools offered,
 * each turn's calls with their results (a failed one marked), the final answer. Everything is
 * text from a model, an agent or a tool: Preact sets it as text, never as markup.
 */
export function RunViewPanel({ view }: { view: RunView }) {
  return (
    <article class="run-view" aria-labelledby="run-name">
      <h2 id="run-name" class="mono">
        {view.run}
      </h2>
      <h3>Request</h3>
      <p id="request">{view.request || '(no user message)'}</p>
      <h3>Conversation</h3>
      <div id="conversation">
        {view.conversation.map((message, index) => (
          <div key={index} class="message" data-role={message.role}>
            <b>{message.role}</b>
            <pre>{message.text}</pre>
          </div>
        ))}
      </div>
      <h3>Tools offered ({view.tools.length})</h3>
      <ul id="tools">
        {view.tools.length === 0 && <li class="muted">(none)</li>}
        {view.tools.map((tool) => (
          <li key={tool.name} data-tool={tool.name}>
            <details>
              <summary>
                <code>{tool.name}</code>
                {tool.description ? ` — ${tool.description}` : ''}
              </summary>
              <pre>{JSON.stringify(tool.parameters, null, 2)}</pre>
            </details>
          </li>
        ))}
      </ul>
      <h3>Turns</h3>
      <ol id="turns" class="turns">
        {view.turns.map((turn, index) => (
          <li key={index} class="turn">
            <strong>
              Turn {index + 1}
              {turn.status === 'complete' ? '' : ` (${turn.status})`}
            </strong>
            {turn.calls.length === 0 && <div class="muted">no tool calls</div>}
            {turn.calls.map((call, number) => (
              <div key={number} class="call" data-tool={call.tool}>
                <div class="mono arguments">
                  → {call.tool}({call.arguments}){call.mocked ? ' [mocked]' : ''}
                </div>
                {call.result === null ? (
                  <div class="mono result muted">← (no result sent back)</div>
                ) : (
                  <div class={`mono result${call.failed ? ' error' : ''}`}>
                    ← {call.failed ? '[ERROR] ' : ''}
                    {call.result}
                  </div>
                )}
              </div>
            ))}
            {turn.text !== '' && index < view.turns.length - 1 && <pre>says: {turn.text}</pre>}
          </li>
        ))}
      </ol>
      <h3>Final answer</h3>
      <pre id="final-answer">{view.finalAnswer || '(no text)'}</pre>
    </article>
  );
}
