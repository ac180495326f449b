/**
 * @skillopt/optimizer: reflection, aggregation, selection, learning-rate schedules, the edit engine
 * with protected regions, the update modes, epoch-boundary synthesis and robust JSON replies.
 * It never runs rollouts or gates: it is handed scored results and returns edits and skills;
 * `proposeCandidate` runs one step's stages, from the trajectories to a candidate skill.
 */
export * from './stage-result.js';
export * from './protected-regions.js';
export * from './protected-blocks.js';
export * from './edit-engine.js';
export * from './template-renderer.js';
export * from './prompt-templates.js';
export * from './prompt-sections.js';
export * from './reply-cleaning.js';
export * from './json-candidates.js';
export * from './truncated-json-repair.js';
export * from './structured-reply.js';
export * from './trajectory-rendering.js';
export * from './result-classification.js';
export * from './proposed-edit.js';
export * from './reflection.js';
export * from './aggregation.js';
export * from './learning-rate-schedule.js';
export * from './learning-rate-decision.js';
export * from './selection.js';
export * from './skill-update.js';
export * from './rejected-edit-buffer.js';
export * from './slow-update.js';
export * from './meta-skill.js';
export * from './appendix-notes.js';
export * from './reflection-appendix.js';
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
