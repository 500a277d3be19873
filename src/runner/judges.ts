/**
 * The judge runners for `scoreTrajectory` (package subpath `calltape/judges`): code judges on a
 * worker thread with a timeout, and LLM judges through the calltape proxy.
 */
export { createCodeJudges, type CodeJudges } from './code-judges.js';
export { createLlmJudge, judgePrompt, type LlmJudgeOptions } from './llm-judge.js';
