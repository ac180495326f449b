// `@skillopt/env-kit/testing`: test doubles for an env's own unit tests (scripted, reference-
// answering, failing and stalling targets, a rollout context for envs that write no files, an
// answerer that reads an agent's task file), kept out of the main entry so production code never
// loads them.
export { type AnswerFormatter, createReferenceAnswerKey, formatAnswerInTags } from './reference-answer-key.js';
export {
  createReferenceAnsweringChatModel,
  createScriptedChatModel,
  type ReferenceAnsweringOptions,
  type ScriptedChatModel,
  type ScriptedChatModelOptions,
  type ScriptedChatReply,
  type ScriptedChatReplyFunction,
} from './test-double-chat-model.js';
export {
  createReferenceAnsweringAgentRunner,
  createScriptedAgentRunner,
  type ScriptedAgentReply,
  type ScriptedAgentReplyFunction,
  type ScriptedAgentRunner,
  type ScriptedAgentRunnerOptions,
} from './test-double-agent-runner.js';
export {
  type CountingTarget,
  createFailingTarget,
  createReferenceAnsweringTarget,
  createRetryableProviderErrorForTests,
  createStallingTarget,
  type StallingTarget,
} from './test-double-targets.js';
export {
  createFilelessRolloutContextForTests,
  createWorkDirectoryRolloutContextsForTests,
  type WorkDirectoryRolloutContexts,
} from './test-double-rollout-context.js';
export { createRecordingChatModel, type RecordingChatModel } from './test-double-recording-chat-model.js';
export { createTaskFileAnswerer } from './test-double-task-file-answerer.js';
