export {
  manifest,
  createBackend,
  priceTable,
  simBackendConfigSchema,
  simBackendPackage,
  hardWorldSettings,
  type SimBackend,
  type SimBackendConfig,
  type SimBackendConfigInput,
} from './backend.js';
export {
  createSimulatedModel,
  simulatedModelId,
  SIMULATED_PROVIDER,
  type SimulatedModelOptions,
  type SimulatedRole,
} from './simulated-model.js';
export {
  createAnswerKey,
  ANSWER_KEY_LABEL,
  ANSWER_SHAPES,
  type AnswerKey,
  type AnswerKeyEntry,
  type AnswerShape,
} from './answer-key.js';
export {
  FAILURE_CLASSES,
  GOOD_RULE_PHRASINGS,
  HARMFUL_RULE_PHRASINGS,
  USELESS_RULE_PHRASINGS,
  DEFAULT_TENDENCY_RATES,
  readSkillRules,
  type FailureClass,
  type HarmKind,
  type RuleEffects,
} from './failure-classes.js';
export { SPREADSHEET_FAILURE_CLASSES, type SpreadsheetFailureClass } from './spreadsheet-failure-classes.js';
export { ALFWORLD_FAILURE_CLASSES, type AlfworldFailureClass } from './alfworld-failure-classes.js';
export {
  SLEEP_FAILURE_CLASSES,
  SLEEP_FORMAT_HARM,
  SLEEP_RULE_CLASSES,
  type SleepFailureClass,
  type SleepFormatHarm,
  type SleepHabit,
  type SleepRuleKey,
} from './sleep-failure-classes.js';
export { sleepRulesOf } from './sleep-target.js';
export { WORKBOOK_ANSWER_FORMAT, type WorkbookValue } from './workbook-answer.js';
export { skillFromSystemPrompt } from './target.js';
export { detectPrompt } from './prompt-reading.js';
export { createSimulatorServer, SIMULATOR_SERVER_LIMITS, type SimulatorServer, type SimulatorServerOptions } from './server.js';
export { createAnthropicMessagesRoute, type AnthropicMessagesRouteOptions } from './anthropic-route.js';
export { createSimulatedPromptCache, type SimulatedPromptCache, type SimulatedPromptUsage } from './anthropic-prompt-cache.js';
export type { AnthropicErrorType } from './anthropic-errors.js';
export { createHardWorld, type HardWorld, type HardWorldOptions, type HardWorldSplits } from './hard-world/hard-world.js';
export type { HardWorldSettings } from './hard-world/hard-world-settings.js';
export { HARD_WORLD_CATALOGUE } from './hard-world/catalogue.js';
export type { RuleConcept, HardWorldHabit, ItemGroup, WordingMatcher } from './hard-world/rule-concept.js';
export type { SkillReading, ConceptStrength } from './hard-world/skill-reading.js';
export type { OracleResult } from './hard-world/oracle.js';
export type { HardWorldAnswer } from './hard-world/answer-decision.js';
