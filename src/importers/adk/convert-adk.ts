import type { JsonValue } from '../../trace/trace.js';
import type { ImportedSuite, ImportNote } from '../import-types.js';
import type { AdkCriteria, AdkCriterion, AdkMatchType } from './read-adk-criteria.js';
import type { AdkCase, AdkEvalSet, AdkInvocation } from './read-adk-eval-set.js';

/** ADK's trajectory match types as calltape's `expect.mode` (config/test-case.schema.json). */
const modeOf: { readonly [type in AdkMatchType]: string } = {
  // Exactly these calls in this order, nothing else.
  EXACT: 'exact',
  // These calls in this order, other calls allowed between them.
  IN_ORDER: 'ordered',
  // These calls in any order, other calls allowed.
  ANY_ORDER: 'all',
};

/** Criteria an LLM judges in ADK and calltape has nothing to match them with. */
const judgedWhy =
  'an ADK metric judged by a model against its own rubric; calltape has no equivalent (write a judge: rubric for the case if it matters)';

/**
 * A calltape suite from an ADK eval set and its criteria: invocations become `turns`, each
 * turn's expected tool uses its `expect` (ADK compares whole argument objects, so each call sets
 * `extra_arguments: fail`), the match type the mode, the trajectory threshold a gate,
 * `final_response_match_v2` a judge rubric. Every item gets a note; the same input gives the same
 * suite, key for key.
 */
export function convertAdk(set: AdkEvalSet, criteria: AdkCriteria, file: string): ImportedSuite {
  const notes: ImportNote[] = [];
  // Paths in the eval set are written with its file; criteria name their own (test_config.json).
  const note = (item: string, outcome: ImportNote['outcome'], detail: string): void => {
    notes.push({ item: item.startsWith('$') ? `${file}: ${item}` : item, outcome, detail });
  };
  const trajectory = criteria.criteria.find((item) => item.name === 'tool_trajectory_avg_score');
  const semantic = criteria.criteria.find((item) => item.name === 'final_response_match_v2');
  const rouge = criteria.criteria.find((item) => item.name === 'response_match_score');
  if (criteria.defaults)
    note(
      '(no test_config.json)',
      'approximated',
      "no test_config.json beside the file: ADK's defaults apply (tool_trajectory_avg_score 1.0, response_match_score 0.8)",
    );
  const gates: { [key: string]: JsonValue } = {};
  for (const criterion of criteria.criteria) describeCriterion(criterion, gates, note);
  const cases = set.cases.flatMap((item) => {
    const converted = convertCase(
      item,
      { trajectory, semantic, rouge, legacy: set.legacy, simulator: criteria.simulator },
      note,
    );
    return converted === undefined ? [] : [converted];
  });
  const suite: { [key: string]: JsonValue } = {
    name: set.id,
    description: `Imported from the Google ADK eval set ${file} by calltape import adk${set.description ? `: ${set.description}` : ''}`,
    ...(Object.keys(gates).length > 0 ? { gates } : {}),
    cases,
  };
  if (criteria.simulator)
    note(
      'test_config.json: user_simulator_config',
      'converted',
      'model and max_allowed_invocations as user.model and user.max_turns',
    );
  note(
    '(suite)',
    'not converted',
    'the agent: ADK runs its own agent; give agent.command (your agent behind the conversation protocol), or model and tools for direct mode',
  );
  return { suite, notes };
}

type Note = (item: string, outcome: ImportNote['outcome'], detail: string) => void;

function describeCriterion(
  criterion: AdkCriterion,
  gates: { [key: string]: JsonValue },
  note: Note,
): void {
  switch (criterion.name) {
    case 'tool_trajectory_avg_score': {
      const type = criterion.matchType ?? 'EXACT';
      if (criterion.threshold >= 1)
        note(
          criterion.item,
          'converted',
          `every turn's tool uses as expect.mode ${modeOf[type]} (match type ${type}); threshold 1.0: every turn must pass`,
        );
      else {
        gates['mean_score'] = criterion.threshold;
        note(
          criterion.item,
          'approximated',
          `match type ${type} as expect.mode ${modeOf[type]}; threshold ${criterion.threshold} as gates.mean_score (ADK compares each case's mean over its turns, calltape gates the mean over all cases)`,
        );
      }
      return;
    }
    case 'final_response_match_v2':
      note(
        criterion.item,
        'approximated',
        `as an LLM judge rubric per case over the whole conversation (ADK judges each turn and compares their mean with ${criterion.threshold})`,
      );
      return;
    case 'response_match_score':
      note(
        criterion.item,
        'not converted',
        `ROUGE-1 similarity of each final reply to the reference (threshold ${criterion.threshold}); calltape has no text-similarity check`,
      );
      return;
    default:
      note(criterion.item, 'not converted', judgedWhy);
  }
}

function convertCase(
  item: AdkCase,
  context: {
    readonly trajectory: AdkCriterion | undefined;
    readonly semantic: AdkCriterion | undefined;
    readonly rouge: AdkCriterion | undefined;
    readonly legacy: boolean;
    readonly simulator: AdkCriteria['simulator'];
  },
  note: Note,
): JsonValue | undefined {
  const turns: JsonValue[] = [];
  if (item.scenario?.startingPrompt !== undefined) {
    turns.push({ user: item.scenario.startingPrompt });
    note(`${item.scenario.path}.starting_prompt`, 'converted', 'as the first turn');
  }
  if (item.scenario)
    note(
      `${item.scenario.path}.conversation_plan`,
      'converted',
      "as the simulated user's goal (user.goal)",
    );
  const references: string[] = [];
  item.invocations.forEach((invocation, index) => {
    const turn = convertTurn(invocation, context.trajectory, note);
    if (turn !== undefined) turns.push(turn);
    if (invocation.finalResponse !== undefined) {
      references.push(`turn ${index + 1}: ${JSON.stringify(invocation.finalResponse)}`);
      if (context.semantic === undefined)
        note(
          `${invocation.path}.${context.legacy ? 'reference' : 'final_response'}`,
          'not converted',
          context.rouge
            ? 'the reference reply is compared by ROUGE-1 in ADK; calltape has no text-similarity check'
            : 'no criterion checks it',
        );
      else
        note(
          `${invocation.path}.${context.legacy ? 'reference' : 'final_response'}`,
          'approximated',
          'in the case judge rubric',
        );
    }
  });
  if (item.sessionInput)
    note(
      item.sessionInput.path,
      'not converted',
      "the agent's ADK session (app name, user id, initial state) is the agent's own setup; calltape cannot set it",
    );
  if (turns.length === 0 && !item.scenario) {
    note(item.path, 'not converted', 'the case has no user text to send');
    return undefined;
  }
  const simulator = context.simulator;
  return {
    test_id: item.id,
    ...(turns.length > 0 ? { turns } : {}),
    ...(item.scenario
      ? {
          user: {
            ...(item.scenario.persona !== undefined ? { persona: item.scenario.persona } : {}),
            goal: item.scenario.plan,
            ...(simulator?.maxInvocations !== undefined
              ? { max_turns: simulator.maxInvocations }
              : {}),
            ...(simulator?.model !== undefined ? { model: simulator.model } : {}),
          },
        }
      : {}),
    ...(context.semantic && references.length > 0
      ? {
          judge: {
            rubric: `In each turn the agent's final reply says the same as the reference reply (wording may differ): ${references.join('; ')}`,
          },
        }
      : {}),
  };
}

function convertTurn(
  invocation: AdkInvocation,
  trajectory: AdkCriterion | undefined,
  note: Note,
): JsonValue | undefined {
  for (const part of invocation.otherUserParts)
    note(
      part,
      'not converted',
      'a user content part that is not text (file, inline data, function response)',
    );
  for (const unchecked of invocation.unchecked)
    note(
      unchecked.path,
      'not converted',
      `${unchecked.what}: ADK's trajectory metric does not score it either`,
    );
  if (invocation.user === undefined) {
    note(invocation.path, 'not converted', 'the invocation has no user text');
    return undefined;
  }
  if (trajectory === undefined) {
    for (const use of invocation.toolUses)
      note(
        use.path,
        'not converted',
        'no tool_trajectory_avg_score in test_config.json, so ADK does not check it either',
      );
    return { user: invocation.user };
  }
  const type = trajectory.matchType ?? 'EXACT';
  for (const use of invocation.toolUses)
    note(use.path, 'converted', `expect.calls (${use.name}, arguments exact)`);
  // An empty expectation under IN_ORDER or ANY_ORDER accepts any calls: nothing to check.
  if (invocation.toolUses.length === 0 && type !== 'EXACT') return { user: invocation.user };
  return {
    user: invocation.user,
    expect: {
      calls: invocation.toolUses.map((use) => ({
        tool: use.name,
        arguments: use.args,
        extra_arguments: 'fail',
      })),
      mode: modeOf[type],
    },
  };
}
