import type { ConversationResult } from '../../scoring/case-result.js';
import { CallVerdict, TrajectoryVerdict } from './call-verdict.js';
import { StatusBadge } from './loaded-view.js';

/** A conversation case turn by turn: what the user said, the calls, the reply, each turn's verdict. */
export function ConversationView({ conversation }: { conversation: ConversationResult }) {
  return (
    <>
      <h2>Conversation, turn by turn</h2>
      <p>
        {conversation.turns.length} turn(s) · ended by {conversation.ended_by}
        {conversation.ended_reason !== null && ` (${conversation.ended_reason})`} · mean turn score{' '}
        {conversation.mean_turn_score.toFixed(3)} ·{' '}
        {conversation.all_turns_pass ? 'every turn passed' : 'a turn did not pass'}
      </p>
      <ol class="turns">
        {conversation.turns.map((turn) => (
          <li key={turn.turn} aria-label={`Turn ${turn.turn}`}>
            <h3>
              Turn {turn.turn} <StatusBadge status={turn.status} />{' '}
              <span class="muted">
                score {turn.score.toFixed(3)} · {turn.rounds} round trip(s)
              </span>
            </h3>
            <div class="message user">
              <span class="role">user</span>
              <div class="text">{turn.user}</div>
            </div>
            {turn.calls.map((call, index) => (
              <div key={index} class="tool-call">
                <span class="role">tool call</span> <code>{call.name}</code>{' '}
                <code class="muted">{call.arguments}</code>
                {call.mocked && <span class="badge mock">mocked</span>}
              </div>
            ))}
            <div class="message assistant">
              <span class="role">assistant</span>
              <div class="text">{turn.reply ?? <span class="muted">(no reply)</span>}</div>
            </div>
            {turn.problems.length > 0 && (
              <ul class="problems">
                {turn.problems.map((problem, index) => (
                  <li key={index}>{problem}</li>
                ))}
              </ul>
            )}
            <CallVerdict call={turn.call} title={`Turn ${turn.turn}: arguments`} />
            <TrajectoryVerdict
              trajectory={turn.trajectory}
              title={`Turn ${turn.turn}: checks and judges`}
            />
          </li>
        ))}
      </ol>
    </>
  );
}
