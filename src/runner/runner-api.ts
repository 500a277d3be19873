/**
 * The I/O side of the library (package subpath `calltape/runner`): what reads files, runs user
 * code or asks a model, around the pure engine of the main export.
 */
export { createCodeJudges, type CodeJudges } from '../judges/code-judges.js';
export { createLlmJudge, judgePrompt, type LlmJudgeOptions } from '../judges/llm-judge.js';
export { validateTestCase, type CaseSource } from '../suites/validate-test-case.js';
export { loadNormalisers, type UserNormaliser } from './load-normalisers.js';
export { loadSchemaRegistry } from '../suites/load-schema-registry.js';
export { readInteractions } from '../cassette/sqlite/read-interactions.js';
export { EmbeddingCache, openAiEmbeddings } from '../cassette/embedding-cache.js';
