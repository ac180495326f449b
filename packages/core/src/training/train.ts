import { rm } from 'node:fs/promises';
import { measureLatencySlots } from '@skillopt/runtime-kit';
import {
  AnswerPendingError,
  ERROR_CODES,
  SkillOptError,
  type AgentRunner,
  type ChatModel,
  type Environment,
  type RunEvent,
  type Target,
} from '@skillopt/contract';
import { createCostCalculator, type PriceTable } from '@skillopt/backends-kit';
import { RejectedEditBuffer } from '@skillopt/optimizer';
import type { SkillOptConfig } from '../config/core-config-schema.js';
import { priceOverridesFromConfig } from '../config/price-overrides.js';
import { redactSecrets } from '@skillopt/contract';
import { createEventBus } from '../events/event-bus.js';
import { createEventsFileSink } from '../events/events-file.js';
import type { RunEventEmitter } from '../events/run-event-input.js';
import { budgetsFromConfig } from '../ledger/config-budgets.js';
import { createLedger, restoreLedger, type Ledger } from '../ledger/ledger.js';
import { meterAgentRunner, meterChatModel } from '../ledger/metered-models.js';
import { acceptAgentRunner, acceptChatModel, acceptEnvironment, acceptTarget, checkTargetCapabilities } from '../resolution/specification-versions.js';
import type { SkillEvaluation } from '../evaluation/evaluate-skill.js';
import { createInProcessExecutor, type Executor } from '../evaluation/executor.js';
import { answerPendingStop } from '../evaluation/pending-answers.js';
import { rolloutConcurrencyOf } from '../evaluation/rollout-concurrency.js';
import { createFileRolloutCache } from '../run-store/file-rollout-cache.js';
import { readJsonFileIfExists } from '../run-store/read-json-file.js';
import { RUN_FILES } from '../run-store/run-directory-layout.js';
import { z } from 'zod';
import { createRunStore, openRunStore, type RunStore } from '../run-store/run-store.js';
import { firstItems, stepsPerEpoch as computeStepsPerEpoch } from './batch-plan.js';
import { selectionScoresOf } from './run-gate.js';
import { runEpochEnd } from './epoch-end.js';
import type { LoadedSplits } from '../setup/prepare-run.js';
import { checkTrainingSplits } from '../setup/training-splits.js';
import { testScoresOf } from './test-scores.js';
import type { RunSummary } from './run-summary.js';
import { fromRuntimeState, toRuntimeState, trainerSnapshotSchema, type TrainerSnapshot, type TrainerState } from './trainer-state.js';
import { evaluateTogether, newTrainingCounters, type TrainingContext, type TrainingSplits } from './training-context.js';
import { batchesOfStep, runTrainingStep } from './training-step.js';

export interface TrainOptions {
  /** The validated configuration (see validateConfig); its `env` section was given to the env package. */
  config: SkillOptConfig;
  environment: Environment;
  target: Target;
  optimizer: ChatModel;
  /**
   * With `optimizer.mode: agent`, the harness that edits the skill each step (run setup's
   * `optimizerAgent`); its runs are metered as the optimizer's, with `purpose: optimize`.
   */
  optimizerAgent?: AgentRunner | undefined;
  runDirectory: string;
  /** Continue the run committed in `runDirectory` instead of starting a new one there. */
  resume?: boolean;
  /** The skill to start from; absent: the env's initial skill. Ignored on resume. */
  initialSkill?: string;
  signal?: AbortSignal | undefined;
  /** Receives every RunEvent as it happens (progress display, --json). */
  onEvent?: (event: RunEvent) => void;
  /** The backend packages' prices for the ledger; the config's `prices.overrides` win. A model in neither has cost null (unknown). */
  priceTable?: PriceTable;
  /** The command that resumes this run, named when it stops. Default `skillopt train --resume <dir>`. */
  resumeCommand?: string;
  /** The env's splits as run setup loaded them (prepareRun); absent: train() loads them itself. */
  splits?: LoadedSplits;
  /** Where rollouts run; default: in this process, at most `rolloutConcurrencyOf(config, target)` at once. */
  executor?: Executor;
  /**
   * Makes the executor once the run has its id and ledger (a distributed executor names its queue
   * after the run and appends its workers' calls to the ledger); wins over `executor`. Its
   * `close` is called when train() ends, `finished` telling whether the run finished.
   */
  createExecutor?: (run: ExecutorRun) => Executor;
  /** The roles whose backend is a simulator (run setup's `simulatedRoles`), for the summary's label. */
  simulatedRoles?: ReadonlyArray<'target' | 'optimizer'>;
}

/** What `createExecutor` is given: the run's id, the ledger its rollouts' calls go to, and where its events go. */
export interface ExecutorRun {
  runId: string;
  ledger: Ledger;
  emit: RunEventEmitter;
}

/** The optimizer agent a config in agent mode needs, accepted; none in chat mode. */
function optimizerAgentOf(config: SkillOptConfig, given: AgentRunner | undefined): AgentRunner | undefined {
  if (config.optimizer.mode !== 'agent') return undefined;
  if (given === undefined)
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: 'optimizer.mode is agent, but no agent runner was given for the optimizer (run setup creates it from model.optimizer_backend)',
    });
  return acceptAgentRunner(given, 'the optimizer agent');
}

async function loadSplits(
  environment: Environment,
  config: SkillOptConfig,
  loaded: LoadedSplits | undefined,
): Promise<TrainingSplits & { sizes: RunSummary['splitSizes'] }> {
  const [train, val, test] = loaded
    ? [loaded.train, loaded.val, loaded.test]
    : await Promise.all([environment.loadSplit('train'), environment.loadSplit('val'), environment.loadSplit('test')]);
  // The same check as run setup's, for callers that hand train() an env without prepareRun.
  await checkTrainingSplits(config, environment.id, { train, val, test });
  if (config.train.train_size > train.length)
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `train.train_size is ${config.train.train_size} but the training split has only ${train.length} items; lower it or set it to 0 to use them all`,
    });
  const splits = {
    train: firstItems(train, config.train.train_size),
    selection: firstItems(val, config.evaluation.sel_env_num),
    test: firstItems(test, config.evaluation.test_env_num),
  };
  return { ...splits, sizes: { train: splits.train.length, val: splits.selection.length, test: splits.test.length } };
}

function stopReason(error: unknown, signal: AbortSignal): 'aborted' | 'budget-spent' | 'answer-pending' | 'error' {
  if (signal.aborted) return 'aborted';
  if (SkillOptError.isInstance(error) && error.code === ERROR_CODES.budgetSpent) return 'budget-spent';
  if (AnswerPendingError.isInstance(error)) return 'answer-pending';
  return 'error';
}

/**
 * Trains a skill: the whole loop of docs/architecture.md over a resolved env, target and optimizer model,
 * with every artifact in `runDirectory`. Steps are committed atomically, so a run stopped at any
 * instant (abort, budget, error, kill) resumes with `resume: true` and loses no accepted skill;
 * rollouts already paid for come from the run's rollout cache.
 *
 * Resolves with the run's summary. Rejects, after emitting `run-stopped` with the command that
 * resumes, when the signal aborts, a budget is spent, or an error that retrying cannot fix occurs.
 */
export async function train(options: TrainOptions): Promise<RunSummary> {
  const { config } = options;
  const environment = acceptEnvironment(options.environment, `the env "${String(options.environment?.id)}"`);
  const givenTarget = acceptTarget(options.target, 'the target');
  const givenOptimizer = acceptChatModel(options.optimizer, 'the optimizer');
  checkTargetCapabilities(environment, givenTarget);
  const signal = options.signal ?? new AbortController().signal;
  const storeOptions = { trainerSchema: trainerSnapshotSchema };
  const store: RunStore<TrainerSnapshot> = options.resume
    ? await openRunStore(options.runDirectory, storeOptions)
    : await createRunStore(options.runDirectory, { ...storeOptions, config: redactSecrets(config) as object });
  // A finished run has nothing left to do: resuming it appends nothing and pays for nothing.
  if (store.state?.finished === true) return readFinishedSummary(store);
  const resumeCommand = options.resumeCommand ?? `skillopt train --resume ${store.directory}`;
  const events = createEventBus({ runId: store.runId });
  const eventsFile = createEventsFileSink(store.pathOf('events.jsonl'));
  events.subscribe(eventsFile.write);
  if (options.onEvent) events.subscribe(options.onEvent);

  const ledgerOptions = {
    costCalculator: createCostCalculator(options.priceTable ?? [], priceOverridesFromConfig(config)),
    budgets: budgetsFromConfig(config),
    budgetMessages: { resumeCommand },
  };
  const ledgerFile = store.pathOf(RUN_FILES.ledger);
  const ledger: Ledger = options.resume ? await restoreLedger(ledgerFile, ledgerOptions) : createLedger({ ...ledgerOptions, filePath: ledgerFile });
  const emit = events.emit;
  const enforceBudget = config.budget.stop_mid_step;
  const target: Target =
    givenTarget.kind === 'chat'
      ? { kind: 'chat', model: meterChatModel(givenTarget.model, { role: 'target', ledger, onEvent: emit, enforceBudget }) }
      : { kind: 'agent', runner: meterAgentRunner(givenTarget.runner, { role: 'target', ledger, onEvent: emit, enforceBudget }) };
  const optimizer = meterChatModel(givenOptimizer, { role: 'optimizer', ledger, onEvent: emit, enforceBudget });
  const optimizerAgent = optimizerAgentOf(config, options.optimizerAgent);
  const targetModel = givenTarget.kind === 'chat' ? givenTarget.model : givenTarget.runner;
  const cache = createFileRolloutCache({ directory: store.pathOf('rollouts') });

  const executor =
    options.createExecutor?.({ runId: store.runId, ledger, emit }) ??
    options.executor ??
    createInProcessExecutor({ maxRolloutsInFlight: rolloutConcurrencyOf(config, target) });
  let finished = false;
  await environment.setup?.();
  try {
    const { sizes, ...splits } = await loadSplits(environment, config, options.splits);
    const stepsPerEpoch = computeStepsPerEpoch(splits.train.length, config.train.batch_size, config.train.accumulation);
    const context: TrainingContext = {
      config,
      environment,
      target,
      optimizer,
      ...(optimizerAgent === undefined
        ? {}
        : { optimizerAgent: meterAgentRunner(optimizerAgent, { role: 'optimizer', ledger, onEvent: emit, enforceBudget }) }),
      store,
      events,
      ledger,
      cache,
      executor,
      signal,
      splits,
      stepsPerEpoch,
      totalSteps: stepsPerEpoch * config.train.num_epochs,
      counters: newTrainingCounters(),
      candidateLabels: new Map(),
      resumeCommand,
    };
    const resumed = store.state !== undefined;
    emit({
      type: 'run-started',
      runDirectory: store.directory,
      environmentId: environment.id,
      targetModel: `${targetModel.provider}/${targetModel.modelId}`,
      optimizerModel: `${givenOptimizer.provider}/${givenOptimizer.modelId}`,
      splitSizes: sizes,
      epochs: config.train.num_epochs,
      stepsPerEpoch,
      resumed,
    });

    let restoredState: TrainerState | undefined;
    if (resumed) {
      const restored = await fromRuntimeState(store, store.state!);
      restoredState = restored.state;
      context.counters = restored.counters;
    }
    // Every model call from here on counts in the run's latency slots, which a resumed run continues.
    const summary = await measureLatencySlots(context.counters.latencySlots, async () => {
      const state = restoredState ?? (await startFresh(context, options.initialSkill ?? (await environment.initialSkill())));
      for (let epoch = 1; epoch <= config.train.num_epochs; epoch += 1) {
        const firstStepOfEpoch = (epoch - 1) * stepsPerEpoch + 1;
        if (state.lastCompletedStep < firstStepOfEpoch) emit({ type: 'epoch-started', epoch });
        for (let step = 1; step <= stepsPerEpoch; step += 1) {
          const globalStep = firstStepOfEpoch + step - 1;
          if (globalStep <= state.lastCompletedStep) continue;
          // Budgets are checked between steps, so a run stops with nothing half-done.
          ledger.assertWithinBudget();
          if (signal.aborted) throw signal.reason;
          await store.clearUncommittedStep(globalStep);
          ledger.setGlobalStep(globalStep);
          const excludedBefore = context.counters.excluded.length;
          const record = await runTrainingStep(context, state, { epoch, step, globalStep });
          ledger.setGlobalStep(undefined);
          Object.assign(state, { lastCompletedStep: globalStep, epoch, stepInEpoch: step });
          await store.commitStep({ record, state: toRuntimeState(state, context.counters) });
          await Promise.all([ledger.flush(), eventsFile.flush()]);
          emit({
            type: 'step-finished',
            epoch,
            step,
            globalStep,
            accepted: record.outcome === 'accepted',
            bestScore: state.best.scores.score ?? 0,
            excludedItems: context.counters.excluded.length - excludedBefore,
          });
        }
        // Epoch-end stages and the final evaluation spend too: a spent budget stops before them.
        ledger.assertWithinBudget();
        await runEpochEnd(context, state, epoch);
      }
      ledger.assertWithinBudget();
      return finishRun(context, state, sizes, { targetModel, optimizerModel: givenOptimizer, simulatedRoles: options.simulatedRoles ?? [] });
    });
    await Promise.all([ledger.flush(), eventsFile.flush()]);
    // The rollouts' scratch directories are gone by now; their parent has no use after the run.
    await rm(store.pathOf('work'), { recursive: true, force: true });
    finished = true;
    return summary;
  } catch (caught) {
    const reason = stopReason(caught, signal);
    const error =
      reason === 'answer-pending'
        ? answerPendingStop(caught as AnswerPendingError, `Write each answer to its answer file, then resume with \`${resumeCommand}\``, { resumeCommand })
        : caught;
    const message = SkillOptError.isInstance(error) || error instanceof Error ? error.message : String(error);
    try {
      emit({ type: 'run-stopped', reason, message, resumeCommand });
      await Promise.all([ledger.flush(), eventsFile.flush()]);
    } catch {
      // Reporting the stop must never hide why the run stopped.
    }
    throw error;
  } finally {
    // The run's append-only files stay open while it goes; nothing is left open after it.
    // The executor goes first: a distributed one may still append its workers' calls to the ledger.
    await executor.close?.({ finished }).catch(() => undefined);
    await Promise.allSettled([eventsFile.close(), ledger.close(), cache.close(), store.close()]);
    await environment.teardown?.();
  }
}

/** A new run: config.json, the initial skill as skill_v0000, its baseline on the selection split. */
async function startFresh(context: TrainingContext, initialSkill: string): Promise<TrainerState> {
  const { store, config } = context;
  await store.writeConfig(redactSecrets(config) as object);
  const reference = await store.writeSkillVersion(0, initialSkill);
  // Step 1 rolls the initial skill out on its batches whatever the baseline scores: both go at once.
  const firstStep = context.totalSteps > 0 ? batchesOfStep(context, { epoch: 1, step: 1 }) : [];
  const together = evaluateTogether(context, [
    { skill: initialSkill, items: context.splits.selection, phase: 'baseline' },
    ...firstStep.map((batch) => ({ skill: initialSkill, items: batch, phase: 'train' as const })),
  ]);
  const firstStepEvaluations = together.then((evaluations) => evaluations.slice(1));
  // Awaited by step 1; should the baseline fail first, that failure is the one reported.
  firstStepEvaluations.catch(() => undefined);
  context.firstStepRollouts = { skill: initialSkill, evaluations: firstStepEvaluations };
  const [baseline] = (await together) as [SkillEvaluation];
  const scores = selectionScoresOf(context, initialSkill, baseline.summary);
  const initial = { text: initialSkill, reference, scores, origin: 'initial-skill' };
  const state: TrainerState = {
    lastCompletedStep: 0,
    epoch: 0,
    stepInEpoch: 0,
    initial,
    current: initial,
    best: { ...initial, step: 0 },
    rejectedEdits: new RejectedEditBuffer({ maxEntries: Math.max(1, config.optimizer.rejected_edit_buffer_size) }),
    metaSkill: '',
    previousEpochSkill: null,
    completedEpochEndStages: [],
    acceptedCandidates: 0,
    rejectedCandidates: 0,
    epochEndBaseSkill: null,
  };
  await store.commitRuntimeState(toRuntimeState(state, context.counters));
  return state;
}

/** The best skill on the whole selection split, the test scores of the initial and best skills, summary.json. */
async function finishRun(
  context: TrainingContext,
  state: TrainerState,
  splitSizes: RunSummary['splitSizes'],
  models: {
    targetModel: { provider: string; modelId: string };
    optimizerModel: { provider: string; modelId: string };
    simulatedRoles: ReadonlyArray<'target' | 'optimizer'>;
  },
): Promise<RunSummary> {
  const { targetModel, optimizerModel } = models;
  const { config, store, splits } = context;
  // The paired gate may have accepted the best skill on part of the selection split: score it on
  // all of it. The test evaluations do not wait for that score: all of them run together.
  const testing = config.evaluation.eval_test && splits.test.length > 0;
  const testedSkills = testing ? [state.best.text, state.initial.text, state.current.text] : [];
  const [bestSelection, bestTest, initialTest, finalTest] = await evaluateTogether(context, [
    { skill: state.best.text, items: splits.selection, phase: 'selection' },
    ...testedSkills.map((skill) => ({ skill, items: splits.test, phase: 'test' as const })),
  ]);
  const bestScores = selectionScoresOf(context, state.best.text, (bestSelection as SkillEvaluation).summary);
  const test: RunSummary['test'] =
    bestTest && initialTest && finalTest ? testScoresOf(splits.test, { initial: initialTest, best: bestTest, final: finalTest }) : null;
  const summary: RunSummary = {
    runId: store.runId,
    runDirectory: store.directory,
    environmentId: context.environment.id,
    targetModel: `${targetModel.provider}/${targetModel.modelId}`,
    optimizerModel: `${optimizerModel.provider}/${optimizerModel.modelId}`,
    splitSizes,
    epochs: config.train.num_epochs,
    stepsPerEpoch: context.stepsPerEpoch,
    baseline: state.initial.scores,
    best: { ...bestScores, origin: state.best.origin, step: state.best.step, skillHash: state.best.reference.skillHash },
    test,
    simulatedRoles: [...models.simulatedRoles],
    acceptedCandidates: state.acceptedCandidates,
    rejectedCandidates: state.rejectedCandidates,
    stageFailures: context.counters.stageFailures,
    excludedItems: context.counters.excluded.map((item) => ({ phase: item.phase, itemId: item.itemId, code: item.error.code, message: item.error.message })),
    rollouts: { run: context.counters.rolloutsRun, cacheHits: context.counters.cacheHits, retries: context.counters.retries },
    sequentialWaves: context.counters.waves,
    latencySlots: context.counters.latencySlots.slots,
    usage: context.ledger.totals(),
    bestSkillPath: store.pathOf('best_skill.md'),
  };
  await store.writeSummary(summary);
  await store.commitRuntimeState({ ...toRuntimeState(state, context.counters), finished: true });
  context.events.emit({
    type: 'run-finished',
    baselineScore: state.initial.scores.score ?? 0,
    bestScore: bestScores.score ?? 0,
    acceptedCandidates: state.acceptedCandidates,
    rejectedCandidates: state.rejectedCandidates,
    bestSkillPath: summary.bestSkillPath,
    ...(test?.initial.hard != null ? { testScoreInitial: test.initial.hard } : {}),
    ...(test?.best.hard != null ? { testScoreBest: test.best.hard } : {}),
    ...(test?.final?.hard != null ? { testScoreFinal: test.final.hard } : {}),
  });
  return summary;
}

async function readFinishedSummary(store: RunStore<TrainerSnapshot>): Promise<RunSummary> {
  const summary = await readJsonFileIfExists(store.pathOf(RUN_FILES.summary), z.unknown(), { description: 'the summary of the finished run' });
  if (summary === undefined)
    throw new SkillOptError({
      code: ERROR_CODES.dataInvalid,
      category: 'user',
      message: `${store.directory} finished, but its ${RUN_FILES.summary} is missing; restore it from a backup (the run's results are in ${RUN_FILES.history} and ${RUN_FILES.bestSkill})`,
    });
  return summary as RunSummary;
}
