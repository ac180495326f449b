import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ScoredRollout, TaskItem, Usage } from '@skillopt/contract';
import {
  proposeCandidate,
  type AgentOptimizerRun,
  scheduledLearningRate,
  type CandidateProposal,
  type CandidateProposalProgress,
  type LearningRateScheduleSettings,
  type ProposedCandidate,
} from '@skillopt/optimizer';
import type { StepGate, StepRecord } from '../run-store/step-record.js';
import { skillHash } from '../skill-hash.js';
import { cappedTranscript } from './capped-transcript.js';
import { stepBatches } from './batch-plan.js';
import { proposalSettingsFromConfig } from './proposal-configuration.js';
import { runGate } from './run-gate.js';
import { beatsBest, type TrainerState } from './trainer-state.js';
import { evaluateTogether, recordStageFailure, withCandidateLabel, type TrainingContext } from './training-context.js';

export interface StepPosition {
  epoch: number;
  step: number;
  globalStep: number;
}

/**
 * One training step: roll the current skill out on the step's batches, have the optimizer propose
 * a candidate from the scored trajectories (`proposeCandidate`), and put the candidate to the gate
 * on the selection split. It mutates `state` (current, best, counters, rejected edits) and writes
 * the step's artifacts; the caller commits. A stage whose reply was unusable ends the step without
 * a candidate: recorded, not fatal.
 */
export async function runTrainingStep(context: TrainingContext, state: TrainerState, position: StepPosition): Promise<StepRecord> {
  const { config } = context;
  const { globalStep } = position;
  const settings = proposalSettingsFromConfig(config, context.totalSteps);

  // Rollout. A skill already rolled out on an item (an earlier epoch, the slow update, a resumed
  // step) is served from the cache: nothing unchanged is paid for twice.
  const batches = batchesOfStep(context, position);
  const startingLearningRate = announcedLearningRate(settings.learningRate, globalStep);
  context.events.emit({ type: 'step-started', ...position, itemIds: batches.flat().map((item) => item.id), learningRate: startingLearningRate });
  const { results, trainScores } = await rollOut(context, state.current.text, batches);
  const rolledOut = {
    step: globalStep,
    epoch: position.epoch,
    stepInEpoch: position.step,
    trainItemIds: batches.map((batch) => batch.map((item) => item.id)),
    trainScores,
  };
  // Read when the step ends, after the gate may have replaced the current and the best skill.
  const standing = (spent: { optimizerCalls: number; optimizerUsage: Usage; repairedReplies?: number }) => ({
    currentSkillHash: state.current.reference.skillHash,
    currentScore: state.current.scores.score,
    bestScore: state.best.scores.score,
    ...spent,
    latencySlots: context.counters.latencySlots.slots,
  });
  // Every batch is evidence by now (evaluateInRun stops the run otherwise), so there is something to reflect on.
  const proposal = await withAgentWorkspace(context, globalStep, (agent) =>
    proposeCandidate({
      model: context.optimizer,
      signal: context.signal,
      skill: state.current.text,
      results,
      settings,
      globalStep,
      metaSkill: state.metaSkill,
      rejectedEdits: state.rejectedEdits.render(),
      ...(agent === undefined ? {} : { agent }),
      onProgress: (progress: CandidateProposalProgress) => {
        if (progress.type === 'edits-proposed') context.events.emit({ type: 'edits-proposed', ...position, stage: progress.stage, count: progress.count });
        else if (progress.type === 'edit-refused')
          context.events.emit({ type: 'edit-refused', ...position, stage: 'optimize', reason: progress.refused.reason, excerpt: progress.refused.excerpt });
        else recordStageFailure(context, progress.failure, { epoch: position.epoch, globalStep });
      },
    }),
  );
  context.counters.waves += proposal.sequentialWaves;
  await writeProposalArtifacts(context, globalStep, proposal);
  const spent = {
    optimizerCalls: proposal.optimizerCalls,
    optimizerUsage: proposal.optimizerUsage,
    ...(proposal.repairedReplies > 0 ? { repairedReplies: proposal.repairedReplies } : {}),
  };
  // The rate that governed the step: the one applied, or the one it started with when it ended
  // before choosing one. A rewrite from the trajectories has none.
  const governingRate = proposal.learningRate ?? (settings.updateMode === 'full_rewrite_minibatch' ? undefined : startingLearningRate);
  const learningRate = governingRate === undefined ? {} : { learningRate: governingRate };
  switch (proposal.outcome) {
    case 'no-edits-proposed':
      return { ...rolledOut, ...learningRate, reason: 'the analysts proposed no edit', outcome: 'no-edits', ...standing(spent) };
    case 'learning-rate-zero':
      return { ...rolledOut, ...learningRate, reason: `the learning rate of this step is ${proposal.learningRate}`, outcome: 'no-edits', ...standing(spent) };
    case 'stage-failed': {
      const { stage, prompt, reason, attempts } = proposal.failure;
      return { ...rolledOut, ...learningRate, stageFailure: { stage, prompt, reason, attempts }, outcome: 'stage-failed', ...standing(spent) };
    }
    case 'unchanged':
      // A candidate identical to the incumbent costs nothing: there is nothing to gate.
      return {
        ...rolledOut,
        ...learningRate,
        candidateHash: skillHash(proposal.skill),
        reason: 'no selected edit changed the skill',
        editReports: proposal.artifacts.editApplyReports ?? [],
        outcome: 'unchanged',
        ...standing(spent),
      };
    case 'candidate': {
      const gate = await gateCandidate(context, state, position, proposal);
      return {
        ...rolledOut,
        ...learningRate,
        candidateHash: skillHash(proposal.skill),
        gate,
        outcome: gate.accepted ? 'accepted' : 'rejected',
        ...standing(spent),
      };
    }
  }
}

/**
 * With an agent as the optimizer, a fresh workspace for this step's run under the run's `work`
 * folder, removed when the proposal ends (what the agent left worth keeping is in the step's
 * artifacts); without one, the proposal alone.
 */
async function withAgentWorkspace<Result>(context: TrainingContext, globalStep: number, propose: (agent: AgentOptimizerRun | undefined) => Promise<Result>) {
  const runner = context.optimizerAgent;
  if (runner === undefined) return propose(undefined);
  const workspace = path.join(context.store.pathOf('work'), 'optimizer', `step_${String(globalStep).padStart(4, '0')}`);
  await rm(workspace, { recursive: true, force: true });
  await mkdir(workspace, { recursive: true });
  try {
    return await propose({ runner, workspace, timeoutMs: context.config.optimizer.agent_timeout_ms });
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

/** The training batches of a step (several with gradient accumulation). */
export function batchesOfStep(context: TrainingContext, position: Pick<StepPosition, 'epoch' | 'step'>): TaskItem[][] {
  const { config } = context;
  return stepBatches({
    items: context.splits.train,
    epoch: position.epoch,
    stepInEpoch: position.step,
    batchSize: config.train.batch_size,
    accumulation: config.train.accumulation,
    seed: config.train.seed,
  });
}

/** An autonomous rate is decided later in the step; until then the ceiling is what is known. */
function announcedLearningRate(settings: LearningRateScheduleSettings, globalStep: number): number {
  return settings.schedule === 'autonomous' ? settings.maxLearningRate : scheduledLearningRate({ ...settings, schedule: settings.schedule }, globalStep);
}

/** The current skill on each batch: the scored trajectories to reflect on, and each batch's means. */
async function rollOut(context: TrainingContext, skill: string, batches: readonly TaskItem[][]) {
  const results: ScoredRollout[] = [];
  const trainScores: Array<{ hard: number; soft: number; scored: number; excluded: number }> = [];
  // Accumulation batches are independent: they roll out together. The first step's rollouts of
  // the initial skill ran with the baseline (startFresh), and are taken as they are.
  const prefetched = context.firstStepRollouts;
  context.firstStepRollouts = undefined;
  const evaluations =
    prefetched?.skill === skill
      ? await prefetched.evaluations
      : await evaluateTogether(
          context,
          batches.map((batch) => ({ skill, items: batch, phase: 'train' as const })),
        );
  for (const evaluation of evaluations) {
    for (const item of evaluation.items) if (item.status === 'scored') results.push(item.result);
    trainScores.push({
      hard: evaluation.summary.meanHard,
      soft: evaluation.summary.meanSoft,
      scored: evaluation.summary.scoredCount,
      excluded: evaluation.summary.excludedCount,
    });
  }
  return { results, trainScores };
}

async function writeProposalArtifacts(context: TrainingContext, globalStep: number, proposal: CandidateProposal): Promise<void> {
  const { store } = context;
  const { reflection, rankedEdits, editApplyReports } = proposal.artifacts;
  if (reflection) await store.writeStepArtifact(globalStep, 'reflection.json', reflection);
  if (rankedEdits) await store.writeStepArtifact(globalStep, 'ranked_edits.json', rankedEdits);
  if (proposal.outcome === 'candidate' || proposal.outcome === 'unchanged') await store.writeStepArtifact(globalStep, 'candidate_skill.md', proposal.skill);
  if (editApplyReports) await store.writeStepArtifact(globalStep, 'edit_apply_report.json', editApplyReports);
  const { agentEdit } = proposal.artifacts;
  if (agentEdit) {
    const { transcript, revisedSkill, ...run } = agentEdit;
    await store.writeStepArtifact(globalStep, 'agent_edit.json', run);
    await store.writeStepArtifact(globalStep, 'agent_skill.md', revisedSkill);
    await store.writeStepArtifact(globalStep, 'agent_transcript.json', cappedTranscript(transcript, context.config.optimizer.agent_transcript_max_bytes));
  }
}

/**
 * The gate on the selection split. An accepted candidate becomes the current skill (and the best,
 * if it beats it); a rejected one's edits are remembered, so later steps do not propose them again.
 */
async function gateCandidate(context: TrainingContext, state: TrainerState, position: StepPosition, proposal: ProposedCandidate): Promise<StepGate> {
  const { globalStep } = position;
  const candidate = proposal.skill;
  const { decision, candidateScores } = await withCandidateLabel(context, candidate, `candidate-step-${String(globalStep).padStart(4, '0')}`, () =>
    runGate(context).judge({ incumbentSkill: state.current.text, candidateSkill: candidate, position, stage: 'step' }),
  );
  await context.store.writeStepArtifact(globalStep, 'gate_decision.json', decision);
  if (decision.accepted) {
    state.acceptedCandidates += 1;
    const reference = await context.store.writeSkillVersion(globalStep, candidate);
    state.current = { text: candidate, reference, scores: candidateScores, origin: `step_${String(globalStep).padStart(4, '0')}` };
    if (beatsBest(candidateScores, state.best.scores)) state.best = { ...state.current, step: globalStep };
  } else {
    state.rejectedCandidates += 1;
    if (proposal.selectedEdits.length > 0)
      state.rejectedEdits.record({ globalStep, edits: proposal.selectedEdits, scoreBefore: decision.incumbentScore, scoreAfter: decision.candidateScore });
  }
  return {
    strategy: decision.strategy,
    action: decision.action,
    accepted: decision.accepted,
    reason: decision.reason,
    candidateScore: decision.candidateScore,
    incumbentScore: decision.incumbentScore,
    itemsEvaluated: decision.itemsEvaluated,
    itemsTotal: decision.itemsTotal,
    ...(decision.itemsEvaluated < decision.itemsTotal ? { partial: true as const } : {}),
  };
}
