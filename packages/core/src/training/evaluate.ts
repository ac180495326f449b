import type { Environment, RunEvent, SplitName, Target, TaskItem } from '@skillopt/contract';
import { createCostCalculator, type PriceTable } from '@skillopt/backends-kit';
import type { SkillOptConfig } from '../config/core-config-schema.js';
import { priceOverridesFromConfig } from '../config/price-overrides.js';
import { evaluateSkill } from '../evaluation/evaluate-skill.js';
import { assertEvaluationIsEvidence } from '../evaluation/evaluation-evidence.js';
import type { Executor } from '../evaluation/executor.js';
import { rolloutConcurrencyOf } from '../evaluation/rollout-concurrency.js';
import type { ItemEvaluation } from '../evaluation/item-evaluation.js';
import type { ScoreSummary } from '../evaluation/score-summary.js';
import { createEventBus } from '../events/event-bus.js';
import { createLedger } from '../ledger/ledger.js';
import { meterAgentRunner, meterChatModel } from '../ledger/metered-models.js';
import type { LedgerTotals } from '../ledger/usage-totals.js';
import { acceptEnvironment, acceptTarget, checkTargetCapabilities } from '../resolution/specification-versions.js';
import { createMemoryRolloutCache, type RolloutCache } from '../rollout-cache/rollout-cache.js';
import { createFileRolloutCache } from '../run-store/file-rollout-cache.js';
import { skillHash } from '../skill-hash.js';
import { firstItems } from './batch-plan.js';

export interface EvaluateOptions {
  config: SkillOptConfig;
  environment: Environment;
  target: Target;
  skill: string;
  split: SplitName;
  /** Work files go here, and with `cacheDirectory` rollouts are cached across calls. */
  workDirectory: string;
  cacheDirectory?: string;
  signal?: AbortSignal | undefined;
  onEvent?: (event: RunEvent) => void;
  /** The backend packages' prices for the ledger; the config's `prices.overrides` win. */
  priceTable?: PriceTable;
  /** The split's items as run setup loaded them (prepareRun); absent: evaluate() loads it. */
  items?: readonly TaskItem[];
  /** Where rollouts run; default: in this process, at most `rolloutConcurrencyOf(config, target)` at once. */
  executor?: Executor;
}

export interface EvaluationReport {
  environmentId: string;
  split: SplitName;
  skillHash: string;
  summary: ScoreSummary;
  items: ItemEvaluation[];
  usage: LedgerTotals;
}

/**
 * Evaluation only: one skill on one split, no optimizer. The item limit of the split follows the
 * config (`evaluation.test_env_num` for test, `sel_env_num` for val); infrastructure failures are
 * retried, then excluded and reported, never scored. Rejects when every item, or more than
 * `run.max_excluded_share` of them, was excluded: such an evaluation measured nothing.
 */
export async function evaluate(options: EvaluateOptions): Promise<EvaluationReport> {
  const { config, split } = options;
  const environment = acceptEnvironment(options.environment, `the env "${String(options.environment?.id)}"`);
  const givenTarget = acceptTarget(options.target, 'the target');
  checkTargetCapabilities(environment, givenTarget);
  const events = createEventBus({ runId: `eval-${skillHash(options.skill)}` });
  if (options.onEvent) events.subscribe(options.onEvent);
  const ledger = createLedger({ costCalculator: createCostCalculator(options.priceTable ?? [], priceOverridesFromConfig(config)) });
  const target: Target =
    givenTarget.kind === 'chat'
      ? { kind: 'chat', model: meterChatModel(givenTarget.model, { role: 'target', ledger, onEvent: events.emit }) }
      : { kind: 'agent', runner: meterAgentRunner(givenTarget.runner, { role: 'target', ledger, onEvent: events.emit }) };
  const fileCache = options.cacheDirectory ? createFileRolloutCache({ directory: options.cacheDirectory }) : undefined;
  const cache: RolloutCache = fileCache ?? createMemoryRolloutCache();
  const limit = split === 'test' ? config.evaluation.test_env_num : split === 'val' ? config.evaluation.sel_env_num : config.train.train_size;
  await environment.setup?.();
  try {
    const items = firstItems(options.items ?? (await environment.loadSplit(split)), limit);
    const evaluation = await evaluateSkill({
      environment,
      skill: options.skill,
      items,
      target,
      cache,
      ...(options.executor === undefined ? {} : { executor: options.executor }),
      concurrency: rolloutConcurrencyOf(config, target),
      retries: config.run.retries,
      signal: options.signal ?? new AbortController().signal,
      phase: split === 'test' ? 'test' : 'selection',
      workDirectory: options.workDirectory,
      onItem: (report) => events.emit({ type: 'item-rolled-out', ...report }),
    });
    assertEvaluationIsEvidence(evaluation.items, {
      description: `The evaluation on the ${split} split`,
      maxExcludedShare: config.run.max_excluded_share,
    });
    return {
      environmentId: environment.id,
      split,
      skillHash: evaluation.skillHash,
      summary: evaluation.summary,
      items: evaluation.items,
      usage: ledger.totals(),
    };
  } finally {
    await fileCache?.close();
    await environment.teardown?.();
  }
}
