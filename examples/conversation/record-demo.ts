/**
 * `npm run demo:conversation:record`: re-records recordings/refund-conversation.sqlite, the
 * cassette examples/conversation/suite.yaml replays. A scripted refund model stands in for the
 * provider, so this runs offline; `calltape test examples/conversation/suite.yaml --mode record`
 * with OPENAI_API_KEY records a real model instead.
 */
import { refundConversationModel } from '../../test/support/refund-conversation-model.js';
import { recordExampleSuite } from '../record-example-suite.js';

process.exitCode = await recordExampleSuite(
  'examples/conversation/suite.yaml',
  'recordings/refund-conversation.sqlite',
  refundConversationModel,
  ['--now', '2026-11-30T12:00:00Z'],
);
