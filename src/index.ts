/**
 * calltape's library API: the pure scoring engine and the trace model. Everything exported
 * here is plain data in, plain data out, with no I/O.
 */
export * from './scoring/index.js';
export type * from './trace/trace.js';
export type * from './trace/trajectory.js';
export { buildTrajectories } from './trace/build-trajectories.js';
export { ConversationChain } from './trace/conversation-chain.js';
export { CalltapeError, errorCodes, isCalltapeError } from './errors.js';
export type { ErrorCode, ErrorCodeEntry } from './errors.js';
