export { scoreCall } from './score-call.js';
export { allowsType, normaliseBySchema } from './normalise/normalise-by-schema.js';
export { normaliseDate, normaliseDateTime } from './normalise/normalise-datetime.js';
export { looseString } from './normalise/loose-string.js';
export { cosine, levenshteinRatio, matchValue, type ValueMatch } from './match/match-value.js';
export { semanticTexts } from './semantic-texts.js';
export { resolvePlaceholders } from './placeholders.js';
export { parseCallArguments } from './parse-arguments.js';
export { omitted, reasonCodes } from './types.js';
export type {
  ActualCall,
  ArgumentRule,
  ExpectedCall,
  MatchingStrategy,
  Mismatch,
  ReasonCode,
  ScoreOptions,
  ScoreResult,
  TestCase,
} from './types.js';
export { namedNormalisers, type NamedNormaliser } from './normalise/named-normalisers.js';
export { schemasFromTools } from './schemas-from-tools.js';
export { scoreTrajectory, deterministicChecks } from './trajectory/score-trajectory.js';
export { toolCallCheck, neverCheck } from './trajectory/tool-call-check.js';
export { orderCheck } from './trajectory/order-check.js';
export { stepCountCheck } from './trajectory/step-count-check.js';
export { trajectoryReasonCodes } from './trajectory/types.js';
export type * from './trajectory/types.js';
export { mergeChecks } from './trajectory/merge-checks.js';
