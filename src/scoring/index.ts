export { scoreCall } from './score-call.js';
export { allowsType, normaliseBySchema } from './normalise/normalise-by-schema.js';
export { normaliseDate, normaliseDateTime } from './normalise/normalise-datetime.js';
export { looseString } from './normalise/loose-string.js';
export { levenshteinRatio, matchValue, type ValueMatch } from './match/match-value.js';
export { resolvePlaceholders } from './placeholders.js';
export { parseCallArguments } from './parse-arguments.js';
export { omitted, reasonCodes } from './types.js';
export type { ActualCall, ArgumentRule, ExpectedCall, MatchingStrategy, Mismatch, ReasonCode, ScoreOptions, ScoreResult, TestCase } from './types.js';
