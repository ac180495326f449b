import { addUsage, EMPTY_USAGE, type Edit, type ScoredRollout, type Usage } from '@skillopt/contract';
import {
  addAppendixNotes,
  aggregateEdits,
  chooseLearningRate,
  consolidateAppendix,
  reflect,
  scheduledLearningRate,
  selectEdits,
  updateSkill,
  type LearningRateSchedule,
  type SkillUpdateOptions,
  type StageFailure,
} from '@skillopt/optimizer';
import type { StepRecord } from '../run-store/step-record.js';
import { skillHash } from '../skill-hash.js';
import { stepBatches } from './batch-plan.js';
import { runGate } from './run-gate.js';
import { beatsBest, type TrainerState } from './trainer-state.js';
import { evaluateInRun, recordStageFailure, type TrainingContext } from './training-context.js';
import { aggregationWaves } from './wave-count.js';

export interface StepPosition {
  epoch: number;
  step: number;
  globalStep: number;
}

/** How a step ended; only `accepted` changes the current skill. */
export type StepOutcome = 'accepted' | 'rejected' | 'no-edits' | 'unchanged' | 'stage-failed' | 'nothing-scored';

/**
 * One training step: roll the current skill out on the step's batches, reflect, aggregate, select
 * at most the learning rate, update, and gate the candidate on the selection split. It mutates
 * `state` (current, best, counters, rejected edits) and writes the step's artifacts; the caller
 * commits. A stage whose reply was unusable ends the step without a candidate: recorded, not fatal.
 */
export async function runTrainingStep(context: TrainingContext, state: TrainerState, position: StepPosition): Promise<StepRecord> {
  const { config, store, optimizer, signal } = context;
  const { globalStep } = position;
  const record: StepRecord & Record<string, unknown> = { step: globalStep, epoch: position.epoch, stepInEpoch: position.step };
  let optimizerUsage: Usage = EMPTY_USAGE;
  let optimizerCalls = 0;
  const countStage = (stage: { attempts: number; usage: Usage }) => {
    optimizerUsage = addUsage(optimizerUsage, stage.usage);
    optimizerCalls += stage.attempts;
    if (stage.attempts > 0) context.counters.waves += 1;
  };
  const finish = (outcome: StepOutcome, details: Record<string, unknown> = {}): StepRecord => {
    Object.assign(record, details, {
      outcome,
      currentSkillHash: state.current.reference.skillHash,
      currentScore: state.current.scores.score,
      bestScore: state.best.scores.score,
      optimizerCalls,
      optimizerUsage,
    });
    return record;
  };
  const failStage = (failure: StageFailure): StepRecord => {
    recordStageFailure(context, failure, { epoch: position.epoch, globalStep });
    return finish('stage-failed', { stageFailure: { stage: failure.stage, prompt: failure.prompt, reason: failure.reason, attempts: failure.attempts } });
  };

  // Rollout. A skill already rolled out on an item (an earlier epoch, the slow update, a resumed
  // step) is served from the cache: nothing unchanged is paid for twice.
  const batches = stepBatches({
    items: context.splits.train,
    epoch: position.epoch,
    stepInEpoch: position.step,
    batchSize: config.train.batch_size,
    accumulation: config.train.accumulation,
    seed: config.train.seed,
  });
  const learningRateCeiling = config.optimizer.learning_rate;
  const schedule = learningRateSchedule(config);
  const scheduleSettings = { schedule, maxLearningRate: learningRateCeiling, minLearningRate: config.optimizer.min_learning_rate, totalSteps: context.totalSteps };
  // An autonomous rate is decided later in the step; until then the ceiling is what is known.
  const announcedRate = schedule === 'autonomous' ? learningRateCeiling : scheduledLearningRate({ ...scheduleSettings, schedule }, globalStep);
  context.events.emit({ type: 'step-started', ...position, itemIds: batches.flat().map((item) => item.id), learningRate: announcedRate });
  const results: ScoredRollout[] = [];
  const trainScores: Array<{ hard: number; soft: number; scored: number; excluded: number }> = [];
  for (const batch of batches) {
    const evaluation = await evaluateInRun(context, state.current.text, batch, 'train');
    for (const item of evaluation.items) if (item.status === 'scored') results.push(item.result);
    trainScores.push({ hard: evaluation.summary.meanHard, soft: evaluation.summary.meanSoft, scored: evaluation.summary.scoredCount, excluded: evaluation.summary.excludedCount });
  }
  Object.assign(record, { trainItemIds: batches.map((batch) => batch.map((item) => item.id)), trainScores });
  if (results.length === 0) return finish('nothing-scored', { reason: 'every training rollout of this step failed for infrastructure reasons; nothing to reflect on' });

  const promptContext = { metaSkill: state.metaSkill, rejectedEdits: state.rejectedEdits.render() };
  // Reflect, aggregate, choose the learning rate and select: the edits the update applies.
  const proposeEdits = async (): Promise<{ selected: Edit[]; appendixNotes: string[] } | StepRecord> => {
    const reflection = await reflect({
      model: optimizer,
      signal,
      skill: state.current.text,
      results,
      minibatchSize: config.gradient.minibatch_size,
      maxEditsPerAnalyst: learningRateCeiling,
      failureOnly: config.gradient.failure_only,
      concurrency: config.gradient.analyst_workers,
      ...(config.optimizer.use_skill_aware_reflection
        ? { appendixNoteSources: config.optimizer.skill_aware_appendix_source === 'failure_only' ? ('failure-only' as const) : ('both' as const) }
        : {}),
      ...promptContext,
    });
    countStage({ attempts: reflection.calls, usage: reflection.usage });
    for (const failure of reflection.failures) recordStageFailure(context, failure, { epoch: position.epoch, globalStep });
    await store.writeStepArtifact(globalStep, 'reflection.json', reflection);
    const patches = reflection.reports.map((report) => ({ kind: report.kind, edits: report.edits }));
    const proposed = patches.reduce((total, patch) => total + patch.edits.length, 0);
    context.events.emit({ type: 'edits-proposed', ...position, stage: 'reflect', count: proposed });
    if (proposed === 0) return finish('no-edits', { reason: 'the analysts proposed no edit' });

    const aggregation = await aggregateEdits({
      model: optimizer,
      signal,
      skill: state.current.text,
      patches,
      mergeBatchSize: config.gradient.merge_batch_size,
      concurrency: config.gradient.analyst_workers,
      ...promptContext,
    });
    optimizerUsage = addUsage(optimizerUsage, aggregation.usage);
    optimizerCalls += aggregation.attempts;
    const nonEmpty = (kind: 'failure' | 'success') => patches.filter((patch) => patch.kind === kind && patch.edits.length > 0).length;
    if (aggregation.attempts > 0) context.counters.waves += aggregationWaves(nonEmpty('failure'), nonEmpty('success'), config.gradient.merge_batch_size);
    if (!aggregation.ok) return failStage(aggregation);
    const merged = aggregation.value.edits;
    context.events.emit({ type: 'edits-proposed', ...position, stage: 'merge', count: merged.length });

    const learningRate = await chooseLearningRate({
      model: optimizer,
      signal,
      skill: state.current.text,
      edits: merged,
      settings: scheduleSettings,
      globalStep,
      evidence: { rolloutCount: results.length, meanHard: mean(results.map((result) => result.hard)), meanSoft: mean(results.map((result) => result.soft)) },
      ...promptContext,
    });
    countStage(learningRate);
    if (!learningRate.ok) return failStage(learningRate);
    // `none` lifts the limit: every merged edit may be applied.
    const budget = config.optimizer.lr_control_mode === 'none' ? merged.length : learningRate.value.learningRate;
    record.learningRate = budget;

    const selection = await selectEdits({ model: optimizer, signal, skill: state.current.text, edits: merged, learningRate: budget, ...promptContext });
    countStage(selection);
    if (!selection.ok) return failStage(selection);
    const chosen: Edit[] = selection.value.edits;
    await store.writeStepArtifact(globalStep, 'ranked_edits.json', { learningRate: budget, ranked: selection.value.ranked, reasoning: selection.value.reasoning, edits: chosen });
    context.events.emit({ type: 'edits-proposed', ...position, stage: 'rank', count: chosen.length });
    if (chosen.length === 0) return finish('no-edits', { reason: `the learning rate of this step is ${budget}` });
    return { selected: chosen, appendixNotes: reflection.reports.flatMap((report) => report.appendixNotes) };
  };
  let selected: Edit[] = [];
  let appendixNotes: string[] = [];
  // A full rewrite works from the trajectories alone: no edits to propose, merge or rank.
  if (config.optimizer.skill_update_mode !== 'full_rewrite_minibatch') {
    const proposal = await proposeEdits();
    if (!('selected' in proposal)) return proposal;
    // A step record is a loose object, so the `in` check alone does not narrow the union.
    ({ selected, appendixNotes } = proposal as { selected: Edit[]; appendixNotes: string[] });
  }

  const updateOptions: SkillUpdateOptions =
    config.optimizer.skill_update_mode === 'patch'
      ? { mode: 'patch', skill: state.current.text, edits: selected }
      : config.optimizer.skill_update_mode === 'rewrite_from_suggestions'
        ? { mode: 'rewrite_from_suggestions', model: optimizer, signal, skill: state.current.text, edits: selected, ...promptContext }
        : { mode: 'full_rewrite_minibatch', model: optimizer, signal, skill: state.current.text, results, ...promptContext };
  const update = await updateSkill(updateOptions);
  countStage(update);
  if (!update.ok) return failStage(update);
  let candidate = update.value.skill;
  if (config.optimizer.use_skill_aware_reflection) {
    // Appendix notes go into the candidate, so the gate judges them with the edits: the original
    // let them bypass the gate, even from rejected steps.
    candidate = addAppendixNotes(candidate, appendixNotes).skill;
    const consolidation = await consolidateAppendix({ model: optimizer, signal, skill: candidate, threshold: config.optimizer.skill_aware_consolidate_threshold });
    countStage(consolidation);
    if (!consolidation.ok) recordStageFailure(context, consolidation, { epoch: position.epoch, globalStep });
    else candidate = consolidation.value.skill;
  }
  await store.writeStepArtifact(globalStep, 'candidate_skill.md', candidate);
  if (update.value.reports) await store.writeStepArtifact(globalStep, 'edit_apply_report.json', update.value.reports);
  const candidateHash = skillHash(candidate);
  record.candidateHash = candidateHash;
  // A candidate identical to the incumbent costs nothing: there is nothing to gate.
  if (candidateHash === state.current.reference.skillHash)
    return finish('unchanged', { reason: 'no selected edit changed the skill', editReports: update.value.reports ?? [] });

  const { decision, candidateScores } = await runGate(context).judge({ incumbentSkill: state.current.text, candidateSkill: candidate, position, stage: 'step' });
  await store.writeStepArtifact(globalStep, 'gate_decision.json', decision);
  const gate = {
    strategy: decision.strategy,
    action: decision.action,
    accepted: decision.accepted,
    reason: decision.reason,
    candidateScore: decision.candidateScore,
    incumbentScore: decision.incumbentScore,
    itemsEvaluated: decision.itemsEvaluated,
    itemsTotal: decision.itemsTotal,
  };
  if (!decision.accepted) {
    state.rejectedCandidates += 1;
    if (selected.length > 0) state.rejectedEdits.record({ globalStep, edits: selected, scoreBefore: decision.incumbentScore, scoreAfter: decision.candidateScore });
    return finish('rejected', { gate });
  }
  state.acceptedCandidates += 1;
  const reference = await store.writeSkillVersion(globalStep, candidate);
  state.current = { text: candidate, reference, scores: candidateScores, origin: `step_${String(globalStep).padStart(4, '0')}` };
  if (beatsBest(candidateScores, state.best.scores)) state.best = { ...state.current, step: globalStep };
  return finish('accepted', { gate });
}

/** `lr_control_mode: autonomous` (the original's switch) or `lr_scheduler: autonomous` lets the optimizer decide. */
function learningRateSchedule(config: TrainingContext['config']): LearningRateSchedule {
  return config.optimizer.lr_control_mode === 'autonomous' ? 'autonomous' : config.optimizer.lr_scheduler;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((total, value) => total + value, 0) / values.length;
}
