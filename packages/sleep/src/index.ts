export { type CheckpointStore, CHECKPOINTS_FILE, CHECKPOINTS_FORMAT, createCheckpointStore } from './checkpoints/checkpoint-store.js';
export { defaultStateDirectory, projectPathHash, projectStateDirectory } from './checkpoints/state-directory.js';
export { detectFeedback, type FeedbackLexicon, feedbackLexicon } from './harvest/feedback-signals.js';
export {
  type CorruptLine,
  SKIP_REASONS,
  type SkipReason,
  type SourceReport,
  type SourceWarning,
} from './harvest/harvest-report.js';
export { type Harvest, type HarvestOptions, harvestSessions } from './harvest/harvest-sessions.js';
export {
  DEFAULT_LOOKBACK_HOURS,
  type HarvestWindowRequest,
  type HarvestWindows,
  parseLookback,
  parseSince,
  resolveHarvestWindows,
} from './harvest/harvest-window.js';
export { forEachJsonLine, type JsonLinesOptions } from './harvest/json-lines.js';
export { forEachLine, type LineReadOptions, type LineReadResult } from './harvest/line-reader.js';
export { isMetaPrompt } from './harvest/meta-prompt.js';
export { OWN_SESSION_SENTINEL, ownSessionReason } from './harvest/own-sessions.js';
export { isInScope, type ProjectScope, projectScope } from './harvest/project-scope.js';
export { createSessionBuilder, type SessionBuilder, type SessionRules } from './harvest/session-builder.js';
export {
  type HarvestedSession,
  type OutcomeSignal,
  SESSION_RECORD_FORMAT,
  SOURCE_IDS,
  type SessionToolCall,
  type SessionTurn,
  type SourceId,
} from './harvest/session-record.js';
export type { SessionSource, SourceContext } from './harvest/session-source.js';
export { defaultSourceLocations, type SourceLocations } from './harvest/source-locations.js';
export { DEFAULT_TEXT_LIMITS, type TextLimits } from './harvest/text-limits.js';
export { ALL_TIME, createTimeWindow, type TimeWindow, type TimeWindowSettings } from './harvest/time-window.js';
export { toEpochMilliseconds } from './harvest/timestamps.js';
export { parseSourceNames } from './sources/source-names.js';
export { SESSION_SOURCES, sessionSourcesFor } from './sources/session-sources.js';
export { createLlmJudge, DEFAULT_PASS_THRESHOLD, type LlmJudge, type LlmJudgement, type LlmJudgeOptions, type LlmJudgeRequest } from './judge/llm-judge.js';
export { type FailedCheck, type RuleJudgement, scoreRuleJudge } from './judge/rule-judge.js';
export { type CheckOutcome, isRuleOperator, RULE_OPERATORS, type RuleOperatorName, SHAPE_OPERATORS } from './judge/rule-operators.js';
export { type ScoreTaskOptions, scoreTask, type TaskScore } from './judge/score-task.js';
export { exactScore, keywordSoftScore, normalizeForScoring } from './judge/text-scores.js';
export { type CheckValidation, isShapeOnly, validateChecks } from './judge/validate-checks.js';
export { heuristicMine, type HeuristicMineOptions, heuristicTaskId, MIN_INTENT_CHARACTERS } from './mine/heuristic-miner.js';
export { sessionOutcome } from './mine/session-outcome.js';
export { deduplicateTasks } from './mine/task-deduplication.js';
export {
  assignSplits,
  DEFAULT_SPLIT_SEED,
  DEFAULT_TEST_FRACTION,
  DEFAULT_VAL_FRACTION,
  roundHalfToEven,
  type SplitFractions,
  validateSplitFractions,
} from './tasks/split-assignment.js';
export { characterBound } from './tasks/character-bound.js';
export {
  REFERENCE_KINDS,
  type ReferenceKind,
  type RuleCheck,
  type RuleJudge,
  TASK_ORIGINS,
  TASK_OUTCOMES,
  TASK_SPLITS,
  type TaskOrigin,
  type TaskOutcome,
  type TaskRecord,
  type TaskSplit,
} from './tasks/task-record.js';
export {
  createLlmMiner,
  type LlmMiner,
  type LlmMinerOptions,
  type LlmMining,
  llmCandidateTask,
  type SessionMiningFailure,
} from './mine/llm-miner.js';
export { type MinedTasks, type MineOptions, mineTasks } from './mine/mine-tasks.js';
export {
  LEGACY_TASK_FILE_FORMAT,
  parseTaskFileDocument,
  readTaskFile,
  TASK_FILE_FORMAT,
  type TaskFile,
  type TaskFileReading,
  writeTaskFile,
} from './tasks/task-file.js';
export { filterTasksForTarget, keywordTokens, type TargetSkill } from './mine/target-filter.js';
export { applyLearnedEdits, type LearnedEditsResult } from './learned-block/learned-edits.js';
export { type LearnedBlockLocation, type LearnedBlockSpelling, locateLearnedBlock } from './learned-block/learned-block-location.js';
export { LEARNED_BLOCK_BANNER, LEARNED_BLOCK_HEADING, readLearnedRules, renderLearnedBlock, writeLearnedRules } from './learned-block/learned-rules.js';
export { DEFAULT_EDIT_BUDGET, runNight, type RunNightOptions } from './night/run-night.js';
export { type HardSoftScore, NIGHT_REPORT_FORMAT, nightExitCode, type NightGateDecision, type NightReport, type SpentLimit } from './night/night-report.js';
export { type NightRefusal, type NightTaskSelection, selectNightTasks } from './night/night-tasks.js';
export { NIGHT_ENVIRONMENT_ID } from './night/night-environment.js';
export { renderNightReport } from './night/night-report-markdown.js';
export { type DryRunNight, type DryRunNightOptions, dryRunNight } from './night/dry-run-night.js';
export { NIGHT_STAGES, type NightStage, type NightStageEvent, type NightStageListener } from './night/night-stages.js';
export { answersPendingStop, rethrowAsAnswersPendingStop } from './answers-pending.js';
export { nightInputFiles, type Persona, PERSONAS, type PersonaFixture, personaFixture } from './persona-fixtures.js';
export {
  type HarvestRun,
  type HarvestRunRequest,
  type HarvestRunResult,
  harvestSummary,
  harvestWarnings,
  startHarvestRun,
} from './command-line/harvest-run.js';
export {
  DEFAULT_MINED_TASKS,
  type MinerCalls,
  mineExitCode,
  minerFlag,
  type MineRunRequest,
  type MineRunResult,
  mineSessionsToTaskFile,
  splitFractionFlags,
} from './command-line/mine-run.js';
export { mineSummary } from './command-line/mine-summary.js';
export { type ModelFlags, modelFlagOverrides } from './command-line/model-flags.js';
export { SLEEP_CONFIG_FILE, sleepConfigLayers } from './command-line/sleep-config-layers.js';
export { type LocationOptions, sourceLocationsOf } from './command-line/location-options.js';
export { STAGING_FORMAT, type StagedDocument, type StagingManifest } from './staging/staging-manifest.js';
export { type ProposedDocument, type StageProposalOptions, stageProposal } from './staging/stage-proposal.js';
export { listStagedProposals, readStagedProposal, type StagedProposal } from './staging/staged-proposals.js';
export {
  ADOPTION_RECEIPT_FILE,
  ADOPTION_RECEIPT_FORMAT,
  type AdoptionReceipt,
  type ProposalStatus,
  type ReceiptDocument,
  type ReceiptEntry,
} from './adoption/adoption-receipt.js';
export { ADOPTION_JOURNAL_FILE, ADOPTION_JOURNAL_FORMAT } from './adoption/transaction-journal.js';
export {
  ADOPTION_RECOVERY_CONFLICT_ERROR_CODE,
  ADOPTION_REFUSED_ERROR_CODE,
  type AppliedChange,
  type ChangedFile,
  type FileChange,
  type FileContent,
  type FileTransactionOptions,
  type PlannedChange,
  type RecoveryResult,
  recoverInterruptedTransaction,
  runFileTransaction,
  type TransactionResult,
} from './adoption/file-transaction.js';
export { ADOPTION_BACKUP_FOLDER, type AdoptionOptions, type AdoptionResult, adoptProposal, undoAdoption } from './adoption/adopt-proposal.js';
export { type NightRecord, NIGHT_OUTCOMES, type NightOutcome, NIGHTS_FILE, readNightHistory } from './project-state/night-history.js';
export { type LockedProjectState, lockProjectState, type ProjectStateLayout, projectStateLayout } from './project-state/project-state.js';
export { defaultSkillDocument, MANAGED_SKILL_NAME, type PinnedDocument, readPinnedDocument } from './night/pinned-document.js';
export { type ProjectNightRequest, type ProjectNightResult, projectNightExitCode, runProjectNight } from './night/project-night.js';
export type { SkillNightResult } from './night/skill-night.js';
export { PROJECT_SKILL_FOLDERS, resolveSkill, type SkillResolution, skillRoots } from './skills/skill-resolver.js';
export { type AdoptRequest, adoptStaged, adoptionSummary, NOTHING_TO_ADOPT_ERROR_CODE, SELECTION_REQUIRED_ERROR_CODE } from './command-line/adopt-run.js';
export { readSleepStatus, type SleepStatus, type StatusRequest, statusSummary } from './command-line/status-run.js';
export { type RecordSessionEndOptions, recordSessionEnd } from './session-end/record-session-end.js';
export { runSessionEndHook, type SessionEndHookOptions } from './session-end/session-end-hook.js';
export { readSessionEndRecords, type SessionEndRecords, type SessionEndRecordsOptions } from './session-end/session-end-log.js';
export { SESSION_END_LOG_FILE, SESSION_END_RECORD_FORMAT, type SessionEndRecord } from './session-end/session-end-record.js';
export { type ScheduleRequest, type ScheduleResult, scheduleNight, scheduleSummary } from './command-line/schedule-run.js';
export { type UnscheduleRequest, type UnscheduleResult, unscheduleNights, unscheduleSummary } from './command-line/unschedule-run.js';
export { CRONTAB_FAILED_ERROR_CODE, CRONTAB_UNAVAILABLE_ERROR_CODE } from './schedule/crontab-program.js';
export type { ScheduledNightFlags } from './schedule/scheduled-night.js';
