export { CONTRACT_INTERFACES, type ContractInterface, isSupportedSpecificationVersion, SUPPORTED_SPECIFICATION_VERSIONS } from './specification-version.js';
export { tolerantSchema } from './tolerant-schema.js';
export {
  type AssistantMessage,
  assistantMessageSchema,
  type ImagePart,
  imagePartSchema,
  type Message,
  messageSchema,
  messageText,
  type SystemMessage,
  systemMessageSchema,
  type TextPart,
  textPartSchema,
  type ToolCallPart,
  toolCallPartSchema,
  type ToolMessage,
  toolMessageSchema,
  type ToolResultPart,
  toolResultPartSchema,
  type UserMessage,
  userMessageSchema,
} from './messages.js';
export { type ToolCall, toolCallSchema, type ToolDefinition, toolDefinitionSchema } from './tools.js';
export { addUsage, EMPTY_USAGE, type Usage, usageSchema } from './usage.js';
export type { ModelPrice, PriceTable } from './price-table.js';
export {
  GATED_CANDIDATE_KINDS,
  type GatedCandidateKind,
  OPTIMIZER_PROMPT_STAGES,
  OPTIMIZER_PROMPTS,
  OPTIMIZER_STAGES,
  type OptimizerPrompt,
  type OptimizerStage,
} from './optimizer-stage.js';
export { SLEEP_PROMPT_STAGES, SLEEP_STAGES, type SleepPrompt, type SleepStage } from './sleep-stage.js';
export { type CallPurpose, KNOWN_CALL_PURPOSES, type KnownCallPurpose, MODEL_ROLES, type ModelRole } from './call-purpose.js';
export { CALL_WARNING_TYPES, type CallWarning, callWarningSchema, type CallWarningType } from './call-warning.js';
export type { RequestReading } from './request-reading.js';
export { missingCapabilities, MODEL_CAPABILITY_NAMES, type ModelCapabilities, modelCapabilitiesSchema, type ModelCapabilityName } from './capabilities.js';
export {
  type ChatModel,
  type ChatModelV1,
  FINISH_REASONS,
  type FinishReason,
  type GenerateRequest,
  type GenerateRequestReading,
  generateRequestSchema,
  type GenerateResult,
  generateResultSchema,
  isChatModel,
  readGenerateRequest,
  REASONING_EFFORTS,
  type ReasoningEffort,
  type ResponseFormat,
  responseFormatSchema,
} from './chat-model.js';
export {
  type AgentRunner,
  type AgentRunnerV1,
  type AgentRunRequest,
  type AgentRunRequestReading,
  agentRunRequestSchema,
  type AgentRunResult,
  agentRunResultSchema,
  type ExitStatus,
  exitStatusSchema,
  isAgentRunner,
  readAgentRunRequest,
  type TranscriptEvent,
  type WorkspaceFile,
  workspaceFileSchema,
} from './agent-runner.js';
export type { DispatchAnnouncement } from './dispatch-announcement.js';
export { SPLIT_NAMES, type SplitName, type TaskItem, taskItemSchema } from './task-item.js';
export { type Trajectory, trajectorySchema, type TrajectoryTurn, trajectoryTurnSchema } from './trajectory.js';
export {
  type ErroredRollout,
  erroredRolloutSchema,
  isScored,
  type RolloutError,
  rolloutErrorSchema,
  type RolloutResult,
  rolloutResultSchema,
  type ScoredRollout,
  scoredRolloutSchema,
} from './rollout-result.js';
export { type Environment, type EnvironmentV1, isEnvironment, type RolloutContext, type Target, TARGET_KINDS, type TargetKind } from './environment.js';
export { type Edit, EDIT_OPERATIONS, type EditInput, type EditOperation, editSchema } from './edit.js';
export {
  candidateEvaluatedEventSchema,
  editsProposedEventSchema,
  epochFinishedEventSchema,
  epochStartedEventSchema,
  gateDecidedEventSchema,
  itemRolledOutEventSchema,
  readRunEvent,
  ROLLOUT_PHASES,
  type RolloutPhase,
  RUN_EVENT_TYPES,
  type RunEvent,
  type RunEventOf,
  runEventReaderSchema,
  type RunEventReading,
  runEventSchema,
  type RunEventType,
  runFinishedEventSchema,
  runStartedEventSchema,
  runStoppedEventSchema,
  stageFailedEventSchema,
  editRefusedEventSchema,
  stepFinishedEventSchema,
  stepStartedEventSchema,
  usageRecordedEventSchema,
  rolloutJobsCountedEventSchema,
} from './run-event.js';
export {
  AnswerPendingError,
  type AnswerPendingErrorOptions,
  ERROR_CATEGORIES,
  ERROR_CODES,
  type ErrorCategory,
  type ErrorCode,
  type KnownErrorCode,
  ProviderError,
  providerErrorAfterAttempts,
  type ProviderErrorOptions,
  SkillOptError,
  type SkillOptErrorOptions,
} from './errors.js';
export { isSecretKey, REDACTED, redactSecrets, redactSecretText, secretEnvironmentValues } from './secret-redaction.js';
export {
  type Backend,
  type BackendCredentials,
  type BackendCredentialsV1,
  type BackendPackage,
  type BackendPackageV1,
  type BackendV1,
  type ConfigSchema,
  type CredentialVariable,
  type CredentialVariableV1,
  describeBackendPackageProblem,
  describeEnvironmentPackageProblem,
  type EnvironmentPackage,
  type EnvironmentPackageV1,
  type ModelRequest,
  type OriginalConfigFormat,
  type OriginalConfigFormatV1,
  type OriginalKeyFamily,
  type OriginalKeyFamilyV1,
  PACKAGE_KINDS,
  type PackageKind,
  type PackageManifest,
  type PackageManifestV1,
  type SimulatorSetup,
  type SimulatorSplits,
} from './package-manifest.js';
