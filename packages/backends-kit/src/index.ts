export {
  abortable,
  abortReason,
  buildChildEnvironment,
  createJsonLinesParser,
  createLineSplitter,
  type JsonLinesParser,
  type JsonLinesResult,
  type LineSplitter,
  type MalformedJsonLine,
  nearestName,
  OutputTail,
  parseJsonLines,
  type ProcessResult,
  runProcess,
  type RunProcessOptions,
  sleep,
} from './runtime-reexports.js';
export { type HeaderSource, readHeader } from './headers.js';
export { parseRetryAfter } from './retry-after.js';
export { classifyNetworkFailure, isRetryableError, isRetryableStatus, type NetworkFailureKind } from './retryable.js';
export { providerErrorFromNetworkFailure, providerErrorFromResponse, type ProviderResponseFailure } from './provider-errors.js';
export { backoffDelay, retryDelay, type RetryOptions, withRetry } from './retry.js';
export {
  createRateLimiter,
  type RateLimiter,
  type RateLimiterOptions,
  type RateLimiterState,
  type RateLimitPermit,
  type RateLimitRunOptions,
} from './rate-limiter.js';
export { useRateLimiterStore } from './process-rate-limiter-store.js';
export {
  createInMemoryRateLimiterStore,
  type ObtainRateLimiterOptions,
  type RateLimiterStore,
  type RateLimits,
  type StoredRateLimiter,
} from './rate-limiter-store.js';
export { createRateLimiterRegistry, processRateLimiters, type RateLimiterRegistry, type RateLimitScope, rateLimitScopeKey } from './shared-rate-limiters.js';
export { type TimeoutOptions, withTimeout } from './timeout.js';
export { ANY_MODEL, type Cost, type CostCalculator, createCostCalculator, type ModelPrice, type PriceTable } from './cost.js';
export { estimateTokens, estimateUsage } from './token-estimate.js';
export { backendConfigError, parseBackendConfig } from './backend-config.js';
export { readBaseUrl, type BaseUrl } from './base-url.js';
export {
  type ApiKeyLookup,
  type EnvironmentSource,
  type FoundSetting,
  readApiKey,
  readEnvironmentSetting,
  settingVariables,
  type SettingVariablesOptions,
} from './environment-settings.js';
export { type ProcessFailureContext, providerErrorFromProcessResult } from './process-failure.js';
export type {
  HarnessCommandLine,
  HarnessDefinition,
  HarnessReportedFailure,
  HarnessRunContext,
  SkillInstallation,
  TranscriptOutcome,
  TranscriptTranslation,
} from './harness-definition.js';
export { pathInsideWorkspace, requireWorkspaceDirectory, writeWorkspaceFiles } from './workspace-files.js';
export { installSkillAsFile, type SkillFileOptions } from './skill-installation.js';
export { renderSkillDocument, type SkillDocumentHeading } from './skill-document.js';
export { createTranscriptRecorder, TRANSCRIPT_EVENT_OMITTED_EVENT, TRANSCRIPT_SHORTENED_EVENT, type TranscriptRecorder } from './transcript-recorder.js';
export { createHarnessRunner, runAgentHarness } from './agent-run.js';
export { chatCallErrorOf } from './chat-call-error.js';
export { HARNESS_INHERITED_VARIABLES } from './inherited-variables.js';
export { renderConversationTurn } from './conversation-turn.js';
export { withTemporaryWorkspace } from './temporary-workspace.js';
export { type AcceptedGenerateRequest, acceptGenerateRequest } from './generate-request.js';
export { type HarnessChatPrompt, renderHarnessChatPrompt } from './harness-chat-prompt.js';
