import type { ScoredRollout } from '@skillopt/contract';
import { seededShuffle } from '@skillopt/env-kit';
import { forkLatencySlots } from '@skillopt/runtime-kit';
import { synthesizeMetaSkill, synthesizeSlowUpdate, type ResultPair } from '@skillopt/optimizer';
import { isPassingHardScore } from '../gates/gate-item-result.js';
import { isEpochEndStageCompleted, withEpochEndStageCompleted } from '../run-store/runtime-state.js';
import { runGate, selectionScoresOf } from './run-gate.js';
import type { SelectionScores } from '../run-store/runtime-state.js';
import { beatsBest, toRuntimeState, type TrainerState } from './trainer-state.js';
import { evaluateInRun, evaluateTogether, recordStageFailure, withCandidateLabel, type TrainingContext } from './training-context.js';
import type { SkillEvaluation } from '../evaluation/evaluate-skill.js';

const SLOW_UPDATE = 'slow-update';
const META_SKILL = 'meta-skill';
const EPOCH_CLOSED = 'epoch-closed';

async function markDone(context: TrainingContext, state: TrainerState, epoch: number, stage: string): Promise<void> {
  state.completedEpochEndStages = withEpochEndStageCompleted(state, epoch, stage).completedEpochEndStages;
  await context.store.commitRuntimeState(toRuntimeState(state, context.counters));
}

/**
 * The previous epoch's skill and the current one rolled out on the same sampled training items:
 * the evidence of the slow update and the meta skill, filtered by `longitudinal_pair_policy`
 * (`changed`: only items whose outcome flipped; `unchanged`: only those whose did not). Both rollouts go through the cache, so a
 * skill that did not change costs nothing the second time.
 */
async function longitudinalPairs(
  context: TrainingContext,
  state: TrainerState,
  epoch: number,
): Promise<{ previousSkill: string; currentSkill: string; pairs: ResultPair[] }> {
  const { config, store } = context;
  const previousSkill = await store.readSkill((state.previousEpochSkill as NonNullable<TrainerState['previousEpochSkill']>).skillPath);
  const currentSkill = await store.readSkill((state.epochEndBaseSkill ?? state.current.reference).skillPath);
  const sample = seededShuffle(context.splits.train, config.train.seed + epoch * 2000).slice(0, config.optimizer.slow_update_samples);
  const [previous, current] = (await evaluateTogether(context, [
    { skill: previousSkill, items: sample, phase: 'slow-update' },
    { skill: currentSkill, items: sample, phase: 'slow-update' },
  ])) as [SkillEvaluation, SkillEvaluation];
  const policy = config.optimizer.longitudinal_pair_policy;
  const pairs: ResultPair[] = [];
  previous.items.forEach((previousItem, index) => {
    const currentItem = current.items[index];
    // An item excluded on either side has no evidence to give.
    if (previousItem.status !== 'scored' || currentItem?.status !== 'scored') return;
    const changed = isPassingHardScore(previousItem.hard) !== isPassingHardScore(currentItem.hard);
    if (policy === 'mixed' || (policy === 'changed') === changed) pairs.push({ previous: previousItem.result as ScoredRollout, current: currentItem.result });
  });
  return { previousSkill, currentSkill, pairs };
}

interface SlowUpdateInputs {
  epoch: number;
  position: { epoch: number; step: number; globalStep: number };
  previousSkill: string;
  currentSkill: string;
  pairs: ResultPair[];
}

/**
 * The slow update of an epoch: guidance synthesized from the longitudinal pairs into the skill's
 * protected block, gated on the selection split or taken as is (`slow_update_gate_with_selection`),
 * and committed as done. Resolves with the synthesis, for its call count.
 */
async function runSlowUpdate(context: TrainingContext, state: TrainerState, inputs: SlowUpdateInputs) {
  const { config, store, optimizer, signal } = context;
  const { epoch, position, previousSkill, currentSkill, pairs } = inputs;
  const slowUpdate = await synthesizeSlowUpdate({ model: optimizer, signal, previousSkill, currentSkill, pairs });
  if (!slowUpdate.ok) recordStageFailure(context, slowUpdate, { epoch, globalStep: position.globalStep });
  else if (slowUpdate.value.skipped === undefined && slowUpdate.value.skill !== state.current.text) {
    const candidate = slowUpdate.value.skill;
    await store.writeEpochArtifact('slow_update', epoch, 'candidate_skill.md', candidate);
    await store.writeEpochArtifact('slow_update', epoch, 'slow_update.json', {
      guidance: slowUpdate.value.guidance,
      reasoning: slowUpdate.value.reasoning,
      comparison: slowUpdate.value.comparison,
    });
    context.events.emit({ type: 'edits-proposed', ...position, stage: 'slow-update', count: 1 });
    let accepted = true;
    let scores: SelectionScores;
    const label = `candidate-slow-update-epoch-${String(epoch).padStart(2, '0')}`;
    if (config.optimizer.slow_update_gate_with_selection) {
      const gated = await withCandidateLabel(context, candidate, label, () =>
        runGate(context).judge({ incumbentSkill: state.current.text, candidateSkill: candidate, position, stage: 'slow-update' }),
      );
      await store.writeEpochArtifact('slow_update', epoch, 'gate_decision.json', gated.decision);
      accepted = gated.decision.accepted;
      scores = gated.candidateScores;
    } else {
      // Taken without a gate, but scored for real: the run reports what the skill achieves.
      const evaluation = await withCandidateLabel(context, candidate, label, () => evaluateInRun(context, candidate, context.splits.selection, 'selection'));
      scores = selectionScoresOf(context, candidate, evaluation.summary);
    }
    if (accepted) {
      const reference = await store.writeSkill(`skills/skill_epoch_${String(epoch).padStart(2, '0')}_slow_update.md`, candidate);
      state.current = { text: candidate, reference, scores, origin: `slow_update_epoch_${String(epoch).padStart(2, '0')}` };
      if (beatsBest(scores, state.best.scores)) state.best = { ...state.current, step: state.lastCompletedStep };
    }
  }
  await markDone(context, state, epoch, SLOW_UPDATE);
  return slowUpdate;
}

/**
 * What happens when an epoch ends: the slow update (from the second epoch on) writes guidance into
 * the skill's protected block, gated on the selection split or taken as is
 * (`slow_update_gate_with_selection`); the meta skill refreshes the optimizer's strategy notes
 * unless no later epoch would read them. Both read the same longitudinal pairs, so they run
 * together; each stage is committed when done, in that order, so a resumed run never repeats one.
 */
export async function runEpochEnd(context: TrainingContext, state: TrainerState, epoch: number): Promise<void> {
  const { config, store, optimizer, signal } = context;
  if (isEpochEndStageCompleted(state, epoch, EPOCH_CLOSED)) return;
  const isLastEpoch = epoch === config.train.num_epochs;
  const wantsSlowUpdate = config.optimizer.use_slow_update && !isEpochEndStageCompleted(state, epoch, SLOW_UPDATE);
  const wantsMetaSkill = config.optimizer.use_meta_skill && !isLastEpoch && !isEpochEndStageCompleted(state, epoch, META_SKILL);
  const position = { epoch, step: context.stepsPerEpoch, globalStep: Math.max(1, state.lastCompletedStep) };

  if (state.previousEpochSkill !== null && (wantsSlowUpdate || wantsMetaSkill)) {
    // The skill these stages compare is fixed when they begin, and committed with their markers.
    state.epochEndBaseSkill ??= state.current.reference;
    const { previousSkill, currentSkill, pairs } = await longitudinalPairs(context, state, epoch);
    // The meta skill reads the same evidence as the slow update, not its outcome: its synthesis runs
    // beside the slow update (and its gate), and is applied and committed after it, in stage order.
    const branches = forkLatencySlots(Number.POSITIVE_INFINITY);
    const metaSkillSynthesis = wantsMetaSkill
      ? branches.branch(() =>
          synthesizeMetaSkill({
            model: optimizer,
            signal,
            previousSkill,
            currentSkill,
            previousMetaSkill: state.metaSkill,
            pairs,
            readByLaterSteps: !isLastEpoch,
          }),
        )
      : undefined;
    const slowUpdate = wantsSlowUpdate
      ? branches.branch(() => runSlowUpdate(context, state, { epoch, position, previousSkill, currentSkill, pairs }))
      : undefined;
    const [slowUpdateOutcome, metaSkillOutcome] = await Promise.allSettled([slowUpdate, metaSkillSynthesis]);
    branches.join();
    if (slowUpdateOutcome.status === 'rejected') throw slowUpdateOutcome.reason;
    if (metaSkillOutcome.status === 'rejected') throw metaSkillOutcome.reason;
    // The two syntheses ran as one wave (the slow update's gate counts its own).
    if ((slowUpdateOutcome.value?.attempts ?? 0) > 0 || (metaSkillOutcome.value?.attempts ?? 0) > 0) context.counters.waves += 1;
    const metaSkill = metaSkillOutcome.value;
    if (metaSkill !== undefined) {
      if (!metaSkill.ok) recordStageFailure(context, metaSkill, { epoch, globalStep: position.globalStep });
      else if (metaSkill.value.skipped === undefined) {
        state.metaSkill = metaSkill.value.metaSkill;
        await store.writeEpochArtifact('meta_skill', epoch, 'meta_skill.md', metaSkill.value.metaSkill);
      }
      await markDone(context, state, epoch, META_SKILL);
    }
  }
  // Rejected edits are remembered within an epoch: the next epoch's skill may make one worth trying again.
  state.rejectedEdits.clear();
  state.previousEpochSkill = state.current.reference;
  state.epochEndBaseSkill = null;
  await markDone(context, state, epoch, EPOCH_CLOSED);
  context.events.emit({ type: 'epoch-finished', epoch, bestScore: state.best.scores.score ?? 0 });
}
