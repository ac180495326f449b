/**
 * @skillopt/backends-handoff: no model process. Requests wait in a folder for the user's own agent
 * to answer; the run stops with `answer-pending` (exit code 3) and resumes with the answers.
 */
export { createBackend, handoffBackendPackage, manifest, type HandoffBackend, type HandoffBackendRuntime } from './backend.js';
export { createHandoffChatModel, HANDOFF_CAPABILITIES, HANDOFF_PROVIDER, type HandoffChatModelOptions } from './chat-model.js';
export { handoffBackendConfigSchema, type HandoffBackendConfig, type HandoffBackendConfigInput } from './config-schema.js';
export { type AnswerFormat, HANDOFF_INDEX_FORMAT, HandoffFolder, type HandoffIndex, type PendingRequestEntry } from './handoff-folder.js';
