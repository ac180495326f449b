// The env author's toolkit. The conformance suite lives in `@skillopt/env-kit/conformance` and the
// test doubles in `@skillopt/env-kit/testing`, so that production code importing this entry pulls
// in neither `node:assert` and the suite's checks nor a scripted model.

// Split loading
export { createDataInvalidError, describeItemSource, formatZodIssues, isDataInvalidError, type ItemSource } from './data-invalid-error.js';
export { DEFAULT_MAX_ITEMS_FILE_BYTES, type ItemsFileOptions, readItemsFileText } from './items-file-text.js';
export { JSON_ARRAY_EXTENSIONS, JSON_LINES_EXTENSIONS, type RawItem, readJsonArrayFile, readJsonLinesFile, readRawItemsFile } from './raw-items-file.js';
export { loadItemsFile, mapRawItems, type TaskItemMapper } from './task-item-mapping.js';
export { loadSplitDirectory, loadSplitItems, resolveSplitFile, splitFileCandidates } from './split-directory.js';
export { writeSplitDirectory, type WriteSplitDirectoryOptions } from './split-directory-writing.js';
export { createSeededRandom, type SeededRandom, seededShuffle } from './seeded-random.js';
export { countsByLargestRemainder, parseSplitRatio, splitByRatio, type SplitByRatioOptions, type SplitRatio } from './ratio-split.js';
export {
  checkSplitSettings,
  createSplitSource,
  loadRatioSplits,
  resolvePoolFile,
  type SplitSettings,
  splitSettingsShape,
  type SplitSource,
  type SplitSourceOptions,
} from './configured-splits.js';
export { parseEnvironmentConfig } from './environment-config.js';

// Concurrency, the rollout's work directory and the target call
export { mapConcurrent, type MapConcurrentOptions } from './map-concurrent.js';
export { createRolloutWorkDirectory, type RolloutWorkDirectory } from './rollout-work-directory.js';
export { generateWithin } from './target-call-within.js';
export { generateBefore, startItemDeadline } from './item-deadline.js';
export { assistantToolCallMessage, describeToolCall, toolResultPart } from './tool-loop-messages.js';
export { chatTargetModel } from './chat-target.js';

// The agent rollout: task.md and the item's files in the workspace, the prompt, the run
export { AGENT_TASK_FILE, agentTaskFiles } from './agent-task-file.js';
export { buildAgentTaskPrompt } from './agent-task-prompt.js';
export { type AgentTask, type AgentTaskRun, type AgentTaskRunDetails, LONGEST_AGENT_TIME_LIMIT_MS, runAgentTask } from './agent-task.js';
export { answerOnce, type SingleAnswerTask, type TargetAnswer } from './target-answer.js';

// Scoring
export { answerTokens, isBlankAnswer, normaliseAnswer } from './answer-normalisation.js';
export { exactMatch } from './exact-match.js';
export { tokenF1 } from './token-f1.js';
// The edit distance lives in runtime-kit, shared with the backends' model suggestions.
export { levenshteinDistance } from '@skillopt/runtime-kit';
export { ANLS_THRESHOLD, type AnlsOptions, anlsScore, normalisedLevenshteinSimilarity } from './anls.js';
export { choiceEntries, type Choices, extractChoiceLetter } from './choice-letter.js';
export {
  extractLastNumericAnswer,
  numbersClose,
  type NumericAnswer,
  numericAnswersMatch,
  numericMatch,
  type NumericTolerance,
  parseNumericAnswer,
} from './numeric-answer.js';
export { extractTaggedAnswer, type LocatedAnswer, locateTaggedAnswer } from './tagged-answer.js';
