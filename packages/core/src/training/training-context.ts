import { AnswerPendingError, type AgentRunner, type ChatModel, type Environment, type RolloutPhase, type Target, type TaskItem } from '@skillopt/contract';
import type { StageFailure } from '@skillopt/optimizer';
import type { SkillOptConfig } from '../config/core-config-schema.js';
import { forkLatencySlots, type LatencySlotTally } from '@skillopt/runtime-kit';
import { evaluateSkill, type SkillEvaluation } from '../evaluation/evaluate-skill.js';
import { assertEvaluationIsEvidence } from '../evaluation/evaluation-evidence.js';
import type { Executor } from '../evaluation/executor.js';
import { rolloutConcurrencyOf } from '../evaluation/rollout-concurrency.js';
import { skillHash } from '../skill-hash.js';
import type { ExcludedItemEvaluation } from '../evaluation/item-evaluation.js';
import { combinedAnswerPending } from '../evaluation/pending-answers.js';
import type { EventBus } from '../events/event-bus.js';
import type { Ledger } from '../ledger/ledger.js';
import type { RolloutCache } from '../rollout-cache/rollout-cache.js';
import type { RunStore } from '../run-store/run-store.js';
import type { TrainerSnapshot } from './trainer-state.js';

/** The splits a run works on, after `train_size`, `sel_env_num` and `test_env_num` were applied. */
export interface TrainingSplits {
  train: TaskItem[];
  selection: TaskItem[];
  test: TaskItem[];
}

/** Counters over the whole session, for the summary. */
export interface TrainingCounters {
  rolloutsRun: number;
  cacheHits: number;
  retries: number;
  /** Items excluded for infrastructure failures, by phase and id: reported, never scored. */
  excluded: Array<ExcludedItemEvaluation & { phase: RolloutPhase }>;
  /**
   * The run's critical path in waves: a wave is a set of calls that can run at the same time, so
   * waves are what latency multiplies. Each evaluation that ran any rollout counts one (the paired
   * gate evaluates chunk by chunk), a step's proposal adds the waves it reports, and each epoch-end
   * stage that called the optimizer one. Re-asks after a malformed reply are not counted.
   */
  waves: number;
  /**
   * The run's critical path in call latencies (runtime-kit's latency slots): the fewest latency
   * slots in which its calls could complete at unit latency under the limits on calls in flight.
   * The live tally of the run's measurement; a resumed run continues it.
   */
  latencySlots: LatencySlotTally;
  stageFailures: Array<{ globalStep: number | null; stage: string; prompt?: string | undefined; reason: string }>;
}

/** Everything the stages of a run share. */
export interface TrainingContext {
  config: SkillOptConfig;
  environment: Environment;
  /** The target, metered: every call lands in the ledger. */
  target: Target;
  /** The optimizer model, metered. */
  optimizer: ChatModel;
  /** With `optimizer.mode: agent`: the harness that edits the skill, metered. */
  optimizerAgent?: AgentRunner;
  store: RunStore<TrainerSnapshot>;
  events: EventBus;
  ledger: Ledger;
  cache: RolloutCache;
  /** Where the run's rollouts run; it bounds the rollouts in flight across every evaluation. */
  executor: Executor;
  signal: AbortSignal;
  splits: TrainingSplits;
  stepsPerEpoch: number;
  totalSteps: number;
  /** The run's counters: kept here alone, and written into each commit (restored on resume). */
  counters: TrainingCounters;
  /** The command that resumes this run, for messages. */
  resumeCommand: string;
  /**
   * Candidates by skill hash, named by their place in the run (`candidate-step-0003`): the label
   * their rollouts' request keys carry instead of the hash (see `EvaluateSkillOptions.requestLabel`).
   */
  candidateLabels: Map<string, string>;
  /** Step 1's rollouts of the initial skill, started with the baseline evaluation; taken by step 1. */
  firstStepRollouts?: { skill: string; evaluations: Promise<SkillEvaluation[]> } | undefined;
}

export function newTrainingCounters(): TrainingCounters {
  return { rolloutsRun: 0, cacheHits: 0, retries: 0, excluded: [], waves: 0, latencySlots: { slots: 0, calls: 0 }, stageFailures: [] };
}

/**
 * Rolls a skill out on items through the evaluator, with the run's cache, limits and events, and
 * adds what it did to the counters. One call is one wave when it ran any rollout.
 */
export async function evaluateInRun(
  context: TrainingContext,
  skill: string,
  items: readonly TaskItem[],
  phase: RolloutPhase,
  options: { countsAsWave?: boolean; signal?: AbortSignal } = {},
): Promise<SkillEvaluation> {
  const { config } = context;
  const targetModel = context.target.kind === 'chat' ? context.target.model : context.target.runner;
  const evaluation = await evaluateSkill({
    environment: context.environment,
    skill,
    items,
    target: context.target,
    cache: context.cache,
    executor: context.executor,
    concurrency: rolloutConcurrencyOf(config, context.target),
    retries: config.run.retries,
    signal: options.signal ?? context.signal,
    phase,
    workDirectory: context.store.pathOf('work'),
    ...labelOf(context, skill),
    onItem: (report) => {
      // A rollout served from the cache is in the ledger too, as a hit: no call, no cost.
      if (report.cached)
        context.ledger.record({
          role: 'target',
          purpose: 'rollout',
          provider: targetModel.provider,
          modelId: targetModel.modelId,
          latencyMs: 0,
          cacheHit: true,
        });
      context.events.emit({ type: 'item-rolled-out', ...report });
    },
  });
  context.counters.rolloutsRun += evaluation.counters.rolloutsRun;
  context.counters.cacheHits += evaluation.counters.cacheHits;
  context.counters.retries += evaluation.counters.retries;
  if (evaluation.counters.rolloutsRun > 0 && options.countsAsWave !== false) context.counters.waves += 1;
  for (const item of evaluation.items) if (item.status === 'excluded') context.counters.excluded.push({ ...item, phase });
  assertEvaluationIsEvidence(evaluation.items, {
    description: EVALUATION_DESCRIPTIONS[phase],
    maxExcludedShare: config.run.max_excluded_share,
    nextStep: `resume with \`${context.resumeCommand}\``,
  });
  return evaluation;
}

/**
 * Runs `evaluation` with `candidate` named `label` in request keys, and only then: once the
 * candidate is judged it is named by its hash again, as committed skills are, so a request left
 * waiting across a resume keeps its key.
 */
export async function withCandidateLabel<Result>(
  context: TrainingContext,
  candidate: string,
  label: string,
  evaluation: () => Promise<Result>,
): Promise<Result> {
  const hash = skillHash(candidate);
  context.candidateLabels.set(hash, label);
  try {
    return await evaluation();
  } finally {
    context.candidateLabels.delete(hash);
  }
}

function labelOf(context: TrainingContext, skill: string): { requestLabel?: string } {
  const label = context.candidateLabels.get(skillHash(skill));
  return label === undefined ? {} : { requestLabel: label };
}

export interface EvaluationRequest {
  skill: string;
  items: readonly TaskItem[];
  phase: RolloutPhase;
}

/**
 * Evaluations that do not depend on one another, run at the same time (the executor still bounds
 * the rollouts in flight): together they are one wave. The same skill asked for on the same items
 * twice is one evaluation, as it would be from the cache if they ran one after the other.
 * Resolves with one evaluation per request, in order. The first failure stops the others, and is
 * thrown once they have all stopped: nothing of the group runs after the run has stopped. Requests
 * left for an answer (answer-pending) stop nothing: the others run on, so that every request the
 * group can reach is written, and then all of them are thrown as one.
 */
export async function evaluateTogether(context: TrainingContext, requests: readonly EvaluationRequest[]): Promise<SkillEvaluation[]> {
  const shared = new Map<readonly TaskItem[], Map<string, Promise<SkillEvaluation>>>();
  const group = new AbortController();
  const stopGroup = () => group.abort(context.signal.reason);
  context.signal.addEventListener('abort', stopGroup, { once: true });
  let ranRollouts = false;
  // The evaluations share the executor's bound on rollouts in flight.
  const branches = forkLatencySlots(rolloutConcurrencyOf(context.config, context.target));
  const evaluations = requests.map(({ skill, items, phase }) => {
    const bySkill = shared.get(items) ?? new Map<string, Promise<SkillEvaluation>>();
    shared.set(items, bySkill);
    let evaluation = bySkill.get(skill);
    if (evaluation === undefined) {
      evaluation = branches
        .branch(() => evaluateInRun(context, skill, items, phase, { countsAsWave: false, signal: group.signal }))
        .then(
          (done) => {
            if (done.counters.rolloutsRun > 0) ranRollouts = true;
            return done;
          },
          (error: unknown) => {
            if (!AnswerPendingError.isInstance(error)) group.abort(error);
            throw error;
          },
        );
      bySkill.set(skill, evaluation);
    }
    return evaluation;
  });
  try {
    const outcomes = await Promise.allSettled(evaluations);
    branches.join();
    const failure = outcomes.find((outcome) => outcome.status === 'rejected');
    // The first failure is the cause; the others were stopped by it (aborted) and say nothing new.
    if (group.signal.aborted && !context.signal.aborted) throw group.signal.reason;
    const pending = outcomes.flatMap((outcome) => (outcome.status === 'rejected' && AnswerPendingError.isInstance(outcome.reason) ? [outcome.reason] : []));
    if (pending.length > 0) throw combinedAnswerPending(pending);
    if (failure) throw failure.reason;
    if (ranRollouts) context.counters.waves += 1;
    return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<SkillEvaluation>).value);
  } finally {
    context.signal.removeEventListener('abort', stopGroup);
  }
}

const EVALUATION_DESCRIPTIONS: Record<RolloutPhase, string> = {
  baseline: 'The baseline evaluation of the initial skill on the validation split',
  selection: 'An evaluation on the validation split',
  train: 'A batch of training rollouts',
  'slow-update': "The slow update's scoring of the previous and the current skill",
  test: 'The final evaluation on the test split',
};

/** Records a stage that could not produce a usable result, as an event and for the summary. */
export function recordStageFailure(
  context: TrainingContext,
  failure: Pick<StageFailure, 'stage' | 'prompt' | 'reason'>,
  position?: { epoch: number; globalStep: number },
): void {
  const { stage, prompt, reason } = failure;
  context.counters.stageFailures.push({ globalStep: position?.globalStep ?? null, stage, prompt, reason });
  context.events.emit({ type: 'stage-failed', stage, prompt, reason, ...(position ? { epoch: position.epoch, globalStep: position.globalStep } : {}) });
}
