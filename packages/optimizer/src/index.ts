/**
 * @skillopt/optimizer: reflection, aggregation, selection, learning-rate schedules, the edit engine
 * with protected regions, the update modes, epoch-boundary synthesis and robust JSON replies.
 * It never runs rollouts or gates: it is handed scored results and returns edits and skills;
 * `proposeCandidate` runs one step's stages, from the trajectories to a candidate skill.
 */
export type { StageFailure, StageResult, StageSuccess } from './stage-result.js';
export {
  APPENDIX_END_MARKER,
  APPENDIX_START_MARKER,
  type DetachedProtectedRegions,
  detachProtectedRegions,
  findProtectedRegions,
  isInsideProtectedRegion,
  LEARNED_END_MARKER,
  LEARNED_START_MARKER,
  markersIn,
  overlapsProtectedRegion,
  PROTECTED_MARKERS,
  PROTECTED_REGION_KINDS,
  type ProtectedRegion,
  type ProtectedRegionKind,
  reattachProtectedRegions,
  SLOW_UPDATE_END_MARKER,
  SLOW_UPDATE_START_MARKER,
  UPSTREAM_LEARNED_END_MARKER,
  UPSTREAM_LEARNED_START_MARKER,
} from './protected-regions.js';
export { hasProtectedBlock, readProtectedBlock, writeProtectedBlock } from './protected-blocks.js';
export {
  applyEdits,
  EDIT_APPLICATION_STATUSES,
  type EditApplicationReport,
  type EditApplicationResult,
  type EditApplicationStatus,
  normaliseEditContent,
} from './edit-engine.js';
export { renderTemplate, templatePlaceholders } from './template-renderer.js';
export { PROMPT_TEMPLATES, renderStagePrompt } from './prompt-templates.js';
export { contextSections, metaSkillSection, type PromptContext, rejectedEditsSection } from './prompt-sections.js';
export { stripReasoningAndFences } from './reply-cleaning.js';
export { type JsonScan, type JsonSpan, looksLikeJsonStart, scanJsonCandidates } from './json-candidates.js';
export { truncatedJsonRepairs } from './truncated-json-repair.js';
export { type ParsedReply, parseStructuredReply, requestStructuredReply, type StructuredRequest, type StructuredValue } from './structured-reply.js';
export {
  DEFAULT_TRAJECTORY_RENDER_LIMITS,
  renderTrajectories,
  renderTrajectory,
  type TrajectoryRenderLimits,
  truncateMiddle,
  truncationMarker,
} from './trajectory-rendering.js';
export { chunk, type ClassifiedResults, classifyResults, isFailedResult } from './result-classification.js';
export { checkEditFields, describeEdit, type ProposedEdit, proposedEditSchema, proposedEditShape, renderNumberedEdits, toEdit } from './proposed-edit.js';
export {
  type AnalystFailure,
  type AnalystKind,
  type AnalystReport,
  type AppendixNoteSources,
  reflect,
  type ReflectionOptions,
  type ReflectionResult,
} from './reflection.js';
export { type AggregatedEdits, aggregateEdits, type AggregationOptions, type EditPatch } from './aggregation.js';
export { aggregationWaves } from './merge-waves.js';
export {
  type FixedLearningRateSchedule,
  LEARNING_RATE_SCHEDULES,
  type LearningRateSchedule,
  type LearningRateScheduleSettings,
  scheduledLearningRate,
  validateLearningRateSettings,
} from './learning-rate-schedule.js';
export {
  chooseLearningRate,
  type ChooseLearningRateOptions,
  decideLearningRate,
  type LearningRateDecision,
  type LearningRateDecisionOptions,
  type StepEvidence,
} from './learning-rate-decision.js';
export { type SelectedEdits, selectEdits, type SelectionOptions } from './selection.js';
export {
  applyPatchUpdate,
  rewriteFromSuggestions,
  type RewriteFromSuggestionsOptions,
  rewriteFromTrajectories,
  type RewriteFromTrajectoriesOptions,
  SKILL_UPDATE_MODES,
  type SkillUpdate,
  type SkillUpdateMode,
  type SkillUpdateOptions,
  updateSkill,
} from './skill-update.js';
export {
  DEFAULT_REJECTED_EDIT_BUFFER_SIZE,
  type RejectedEdit,
  RejectedEditBuffer,
  type RejectedEditBufferSnapshot,
  rejectedEditBufferSnapshotSchema,
  rejectedEditSchema,
} from './rejected-edit-buffer.js';
export {
  categorisePair,
  type ClassifiedPair,
  comparePairs,
  ensureSlowUpdateBlock,
  PAIR_CATEGORIES,
  type PairCategory,
  type PairComparison,
  readSlowUpdateGuidance,
  renderPairComparison,
  type ResultPair,
  type SlowUpdate,
  type SlowUpdateOptions,
  synthesizeSlowUpdate,
  writeSlowUpdateGuidance,
} from './slow-update.js';
export { type MetaSkill, type MetaSkillOptions, synthesizeMetaSkill } from './meta-skill.js';
export { appendixNoteKey, cleanAppendixNote, deduplicateAppendixNotes } from './appendix-notes.js';
export {
  addAppendixNotes,
  APPENDIX_HEADING,
  type AppendixConsolidation,
  type AppendixConsolidationOptions,
  consolidateAppendix,
  ensureAppendixBlock,
  readAppendixNotes,
  writeAppendixNotes,
} from './reflection-appendix.js';
export { DEFAULT_OPTIMIZER_CONCURRENCY } from './concurrency.js';
export {
  proposeCandidate,
  type CandidateProposal,
  type CandidateProposalArtifacts,
  type CandidateProposalOptions,
  type CandidateProposalProgress,
  type CandidateProposalSettings,
  type EditCounts,
  type FailedStage,
  type LearningRateZero,
  type NoCandidate,
  type NoEditsProposed,
  type ProposalAccounting,
  type ProposedCandidate,
  type RankedEdits,
  type UnchangedSkill,
} from './candidate-proposal.js';
export { editsFromRevision, type RefusedChange, type RevisionChange, type SkillRevision } from './skill-revision.js';
export { AGENT_SKILL_FILE, type AgentEditRecord, type AgentOptimizerRun, agentOptimizerRequest } from './agent-edit.js';
